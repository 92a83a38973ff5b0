/**
 * The model artifact: everything needed to predict, as one JSON document.
 *   { format: "xigua-model", version, algorithm, params, task,
 *     schema: { features, target, classes, positive_class }, pipeline, state, trained_at, sha256 }
 * sha256 covers the canonical JSON of every other field. Loading validates the
 * envelope, the checksum, the algorithm's params and state schemas, and each
 * step's fitted schema: nothing in an artifact is ever evaluated.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ColumnSchema } from "../data/frame.js";
import type { Algorithm, Task } from "../models/contract.js";
import { getAlgorithm } from "../models/registry.js";
import { decodeState, encodeState } from "../models/state-codec.js";
import { columnSchema } from "../models/state-schemas.js";
import type { FittedPipeline, FittedStep } from "./pipeline.js";
import { STEP_REGISTRY } from "./steps.js";

export const ARTIFACT_FORMAT = "xigua-model";
export const ARTIFACT_VERSION = 1;

export interface FittedModel {
  algorithm: Algorithm;
  params: Record<string, unknown>;
  task: Task;
  features: ColumnSchema[];
  target: string | null;
  classes: string[] | null;
  positiveClass: string | null;
  /** Training rows per class (classification), for decision_threshold "rescale". */
  classCounts: number[] | null;
  pipeline: FittedPipeline;
  trainedAt: string;
}

const envelope = z
  .object({
    format: z.literal(ARTIFACT_FORMAT),
    version: z.literal(ARTIFACT_VERSION),
    algorithm: z.string(),
    params: z.record(z.string(), z.unknown()),
    task: z.enum(["classification", "regression", "clustering", "projection"]),
    schema: z
      .object({
        features: z.array(columnSchema).min(1),
        target: z.string().nullable(),
        classes: z.array(z.string()).nullable(),
        positive_class: z.string().nullable(),
        class_counts: z.array(z.number().int().nonnegative()).nullable().optional(),
      })
      .strict(),
    pipeline: z.array(z.object({ step: z.string(), spec: z.unknown(), fitted: z.unknown(), automatic: z.boolean() }).strict()),
    state: z.unknown(),
    trained_at: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

export class ArtifactError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = "ArtifactError";
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function serializeArtifact(model: FittedModel): { bytes: Buffer; sha256: string } {
  const body = {
    format: ARTIFACT_FORMAT,
    version: ARTIFACT_VERSION,
    algorithm: model.algorithm.name,
    params: model.params,
    task: model.task,
    schema: { features: model.features, target: model.target, classes: model.classes, positive_class: model.positiveClass, class_counts: model.classCounts },
    pipeline: model.pipeline.steps.map((s) => ({ step: s.step, spec: s.spec, fitted: encodeState(s.fitted), automatic: s.automatic })),
    state: encodeState(model.pipeline.state),
    trained_at: model.trainedAt,
  };
  const sha256 = digest(JSON.stringify(body));
  return { bytes: Buffer.from(JSON.stringify({ ...body, sha256 })), sha256 };
}

function issuePath(error: z.ZodError, prefix: string): string {
  const p = error.issues[0]?.path ?? [];
  return [prefix, ...p.map(String)].filter(Boolean).join(".");
}

/** Parses and verifies an artifact (bytes from the store, or a document a client imported). */
export function loadArtifact(input: Buffer | string | unknown): FittedModel & { sha256: string } {
  let doc: unknown = input;
  if (typeof input === "string" || Buffer.isBuffer(input)) {
    try {
      doc = JSON.parse(input.toString());
    } catch {
      throw new ArtifactError("artifact is not valid JSON");
    }
  }
  const parsed = envelope.safeParse(doc);
  if (!parsed.success) throw new ArtifactError(`not a ${ARTIFACT_FORMAT} v${ARTIFACT_VERSION} artifact: ${parsed.error.issues[0].message}`, issuePath(parsed.error, ""));
  const { sha256, ...body } = parsed.data;
  if (digest(JSON.stringify(body)) !== sha256) throw new ArtifactError("artifact checksum does not match its content", "sha256");

  const algorithm = getAlgorithm(body.algorithm);
  if (!algorithm) throw new ArtifactError(`unknown algorithm "${body.algorithm}"`, "algorithm");
  if (!algorithm.tasks.includes(body.task)) throw new ArtifactError(`algorithm ${algorithm.name} does not do ${body.task}`, "task");
  const params = algorithm.params.safeParse(body.params);
  if (!params.success) throw new ArtifactError(`invalid params: ${params.error.issues[0].message}`, issuePath(params.error, "params"));

  const steps: FittedStep[] = body.pipeline.map((s, i) => {
    const step = Object.hasOwn(STEP_REGISTRY, s.step) ? STEP_REGISTRY[s.step] : undefined;
    if (!step) throw new ArtifactError(`unknown pipeline step "${s.step}"`, `pipeline.${i}.step`);
    const spec = step.spec.safeParse(s.spec);
    if (!spec.success) throw new ArtifactError(`invalid step options: ${spec.error.issues[0].message}`, issuePath(spec.error, `pipeline.${i}.spec`));
    const fitted = safeDecode(s.fitted, step.fitted, `pipeline.${i}.fitted`);
    return { step: s.step, spec: spec.data, fitted, automatic: s.automatic };
  });
  const state = safeDecode(body.state, algorithm.state, "state");

  return {
    algorithm,
    params: params.data as Record<string, unknown>,
    task: body.task,
    features: body.schema.features as ColumnSchema[],
    target: body.schema.target,
    classes: body.schema.classes,
    positiveClass: body.schema.positive_class,
    classCounts: body.schema.class_counts ?? null,
    pipeline: { steps, state },
    trainedAt: body.trained_at,
    sha256,
  };
}

function safeDecode(value: unknown, schema: z.ZodType, path: string): unknown {
  let decoded: unknown;
  try {
    decoded = decodeState(value);
  } catch (e) {
    throw new ArtifactError(`cannot decode: ${(e as Error).message}`, path);
  }
  const parsed = schema.safeParse(decoded);
  if (!parsed.success) throw new ArtifactError(`invalid: ${parsed.error.issues[0].message}`, issuePath(parsed.error, path));
  return parsed.data;
}
