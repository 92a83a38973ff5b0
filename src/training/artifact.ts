/**
 * The model artifact: everything needed to predict, as one JSON document.
 *   { format: "xigua-model", version, algorithm, params, task,
 *     schema: { features, target, classes, positive_class }, pipeline, state, trained_at, sha256 }
 * sha256 covers the canonical JSON of every other field. Loading validates the
 * envelope, the checksum, the algorithm's params and state schemas (each with
 * its family's structural checks: shapes, a tree is a tree, finite numbers), each
 * step's fitted schema, then the whole: unique feature and class names, and one
 * prediction of an all-missing row through the pipeline, which proves the steps'
 * columns chain into the algorithm's and that the output has the artifact's
 * classes and finite numbers. Nothing in an artifact is ever evaluated.
 *
 * Errors: ArtifactError (with the path of the offending field). An imported
 * artifact that fails is 422 invalid_artifact; a stored one that no longer loads
 * (a schema change, corruption) is 409 wrong_state (server/plugins/errors.ts).
 * serializeArtifact loads what it wrote, so a fit that produced a non-finite
 * state fails its job with UnusableInputError instead of storing an artifact
 * that would never load.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ColumnSchema } from "../data/frame.js";
import type { Algorithm, Prediction, Task } from "../models/contract.js";
import { UnusableInputError } from "../models/contract.js";
import { getAlgorithm } from "../models/registry.js";
import { decodeState, encodeState } from "../models/state-codec.js";
import { encodeRows } from "../data/rows.js";
import { columnSchema, firstDuplicate, MAX_CLASSES, NON_FINITE } from "../models/state-schemas.js";
import { applySteps, predictPipeline, type FittedPipeline, type FittedStep } from "./pipeline.js";
import { STEP_REGISTRY } from "./steps.js";
import { ArtifactError } from "./artifact-error.js";

export { ArtifactError };

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
    task: z.enum(["classification", "regression", "clustering", "projection", "anomaly"]),
    schema: z
      .object({
        features: z.array(columnSchema).min(1),
        target: z.string().nullable(),
        classes: z.array(z.string()).max(MAX_CLASSES).nullable(),
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

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The path of the first number in a fitted state that is not finite, or null. Asked only after the state
 * failed its schema for no stated reason: inside a tagged union zod reports a NaN as "Invalid input" with
 * no path. (Some states hold NaN on purpose, e.g. a leaf's threshold, so this is no check on its own.)
 */
function firstNonFinite(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? null : path;
  if (depth > 32 || value === null || typeof value !== "object") return null;
  if (value instanceof Float64Array || value instanceof Float32Array) {
    for (let i = 0; i < value.length; i++) if (!Number.isFinite(value[i])) return `${path}.${i}`;
    return null;
  }
  if (ArrayBuffer.isView(value)) return null; // integer arrays are always finite
  for (const [key, child] of Object.entries(value)) {
    const found = firstNonFinite(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

function diverged(path: string): UnusableInputError {
  return new UnusableInputError(`the fit diverged or overflowed: ${path} is not a finite number; rescale the inputs (e.g. a scale step) or regularise more`);
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
  const bytes = Buffer.from(JSON.stringify({ ...body, sha256 }));
  checkReloads(bytes, model);
  return { bytes, sha256 };
}

/** A model's own artifact must load: a non-finite state is the input's fault (422), anything else a defect. */
function checkReloads(bytes: Buffer, model: FittedModel): void {
  try {
    loadArtifact(bytes);
  } catch (e) {
    if (!(e instanceof ArtifactError)) throw e;
    if (e.reason === "non_finite") throw new UnusableInputError(`the fit diverged or overflowed: ${e.message}; rescale the inputs (e.g. a scale step) or regularise more`);
    if (e.reason === "too_many_classes") throw new UnusableInputError(`the target has more than ${MAX_CLASSES} classes, too many for a model`);
    const bad = firstNonFinite(model.pipeline.state, "state") ?? model.pipeline.steps.map((s, i) => firstNonFinite(s.fitted, `pipeline.${i}.fitted`)).find((p) => p !== null);
    if (bad) throw diverged(bad);
    throw new Error(`the fitted model fails its own artifact checks at ${e.path ?? "the top"}: ${e.message}`);
  }
}

function issuePath(error: z.ZodError, prefix: string): string {
  const p = error.issues[0]?.path ?? [];
  return [prefix, ...p.map(String)].filter(Boolean).join(".");
}

const NON_FINITE_RECEIVED = new Set(["NaN", "Infinity", "-Infinity"]);

/** The first issue as an ArtifactError, saying plainly when it is a number that is not finite. */
function issueError(error: z.ZodError, prefix: string, what: string): ArtifactError {
  const issue = error.issues[0] as z.core.$ZodIssue & { received?: string; params?: Record<string, unknown> };
  const path = issuePath(error, prefix);
  if (issue.code === "invalid_type" && issue.received && NON_FINITE_RECEIVED.has(issue.received)) return new ArtifactError(`${path} is ${issue.received}, not a finite number`, path, "non_finite");
  if (issue.code === "custom" && issue.params?.[NON_FINITE] === true) return new ArtifactError(`${what}: ${issue.message}`, path, "non_finite");
  if (issue.code === "too_big" && path.endsWith(".classes")) return new ArtifactError(`${what}: more than ${MAX_CLASSES} classes`, path, "too_many_classes");
  return new ArtifactError(`${what}: ${issue.message}`, path);
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
  if (!parsed.success) throw issueError(parsed.error, "", `not a ${ARTIFACT_FORMAT} v${ARTIFACT_VERSION} artifact`);
  const { sha256, ...body } = parsed.data;
  if (digest(JSON.stringify(body)) !== sha256) throw new ArtifactError("artifact checksum does not match its content", "sha256");

  const algorithm = getAlgorithm(body.algorithm);
  if (!algorithm) throw new ArtifactError(`unknown algorithm "${body.algorithm}"`, "algorithm");
  if (!algorithm.tasks.includes(body.task)) throw new ArtifactError(`algorithm ${algorithm.name} does not do ${body.task}`, "task");
  const params = algorithm.params.safeParse(body.params);
  if (!params.success) throw issueError(params.error, "params", "invalid params");
  checkSchema(body.schema, body.task);

  const steps: FittedStep[] = body.pipeline.map((s, i) => {
    const step = Object.hasOwn(STEP_REGISTRY, s.step) ? STEP_REGISTRY[s.step] : undefined;
    if (!step) throw new ArtifactError(`unknown pipeline step "${s.step}"`, `pipeline.${i}.step`);
    const spec = step.spec.safeParse(s.spec);
    if (!spec.success) throw issueError(spec.error, `pipeline.${i}.spec`, "invalid step options");
    const fitted = safeDecode(s.fitted, step.fitted, `pipeline.${i}.fitted`);
    return { step: s.step, spec: spec.data, fitted, automatic: s.automatic };
  });
  const state = safeDecode(body.state, algorithm.state, "state");

  const model = {
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
  checkStateClasses(state, body.schema.classes);
  checkPredicts(model);
  return model;
}

/** A classifier's state names its classes (at the top or in its multiclass wrapper): they are the artifact's, in its order. */
function checkStateClasses(state: unknown, classes: string[] | null): void {
  if (classes === null || state === null || typeof state !== "object") return;
  const s = state as { classes?: unknown; model?: { classes?: unknown } };
  const [own, path] = Array.isArray(s.classes) ? [s.classes, "state.classes"] : Array.isArray(s.model?.classes) ? [s.model.classes, "state.model.classes"] : [null, ""];
  if (own === null) return;
  if (own.length !== classes.length || own.some((c, i) => c !== classes[i])) throw new ArtifactError("the state's classes are not the artifact's classes (schema.classes), in the same order", path);
}

type ArtifactSchema = z.infer<typeof envelope>["schema"];

/** Names a row is read by are unique; the classes are the target's, named once each. */
function checkSchema(schema: ArtifactSchema, task: Task): void {
  const names = schema.features.map((f) => f.name);
  const dup = firstDuplicate(names);
  if (dup !== undefined) throw new ArtifactError(`feature "${dup}" appears twice`, `schema.features.${names.lastIndexOf(dup)}`);
  schema.features.forEach((f, i) => {
    const level = f.type === "categorical" ? firstDuplicate(f.levels) : undefined;
    if (level !== undefined) throw new ArtifactError(`level "${level}" of ${f.name} appears twice`, `schema.features.${i}.levels`);
  });
  if (schema.target !== null && names.includes(schema.target)) throw new ArtifactError(`the target ${schema.target} is also a feature`, "schema.target");
  const { classes } = schema;
  if ((task === "classification") !== (classes !== null)) throw new ArtifactError(`a ${task} model ${classes === null ? "needs" : "has no"} classes`, "schema.classes");
  if (classes === null) return;
  if (classes.length < 1) throw new ArtifactError("a classifier needs at least one class", "schema.classes");
  const dupClass = firstDuplicate(classes);
  if (dupClass !== undefined) throw new ArtifactError(`class "${dupClass}" appears twice`, "schema.classes");
  if (schema.positive_class !== null && !classes.includes(schema.positive_class)) throw new ArtifactError(`positive_class ${schema.positive_class} is not a class`, "schema.positive_class");
  if (schema.class_counts && schema.class_counts.length !== classes.length) throw new ArtifactError("class_counts needs one count per class", "schema.class_counts");
}

/**
 * One all-missing row through the whole pipeline (every step must take missing
 * cells at predict time, and the pipeline imputes for algorithms that do not):
 * a step whose columns do not chain into the next, or a state whose classes or
 * outputs disagree with the artifact's, fails here instead of on a client's predict.
 */
function checkPredicts(model: FittedModel): void {
  if (model.algorithm.transductive) return checkTransductive(model);
  let p: Prediction;
  try {
    p = predictPipeline(model.algorithm, model.pipeline, encodeRows([{}], model.features));
  } catch (e) {
    throw new ArtifactError(`the pipeline and the state do not fit together: ${(e as Error).message}`, "pipeline");
  }
  if (p.task !== model.task) throw new ArtifactError(`the state predicts ${p.task}, the artifact says ${model.task}`, "task");
  const finite = (a: ArrayLike<number>, name: string): void => {
    for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) throw new ArtifactError(`the model predicts ${a[i]} (${name}) for a row of missing values`, "state", "non_finite");
  };
  if (p.task === "classification") {
    const k = model.classes?.length ?? 0;
    if (p.labels.length !== 1 || !(p.labels[0] >= 0 && p.labels[0] < k)) throw new ArtifactError(`the state predicts a class outside the artifact's ${k} classes`, "schema.classes");
    if (p.proba) {
      if (p.proba.length !== k) throw new ArtifactError(`the state gives ${p.proba.length} probabilities for the artifact's ${k} classes`, "schema.classes");
      finite(p.proba, "probabilities");
    }
  } else if (p.task === "regression") {
    if (p.values.length !== 1) throw new ArtifactError("the state does not give one value per row", "state");
    finite(p.values, "value");
  } else if (p.task === "projection") finite(p.values, "projection");
  else if (p.task === "anomaly") {
    if (p.scores.length !== 1 || p.labels.length !== 1) throw new ArtifactError("the state does not give one score per row", "state");
    finite(p.scores, "score");
  }
}

/** A transductive model predicts nothing: its steps must still chain, and its training labels be clusters or noise. */
function checkTransductive(model: FittedModel): void {
  try {
    applySteps(model.pipeline.steps, encodeRows([{}], model.features));
  } catch (e) {
    throw new ArtifactError(`the pipeline's steps do not chain: ${(e as Error).message}`, "pipeline");
  }
  const labels = model.algorithm.trainingLabels?.(model.pipeline.state);
  if (!labels) throw new ArtifactError(`${model.algorithm.name} is transductive but keeps no training labels`, "state");
  for (let i = 0; i < labels.length; i++) if (!(labels[i] >= -1)) throw new ArtifactError(`training row ${i} has cluster ${labels[i]}`, "state");
}

function safeDecode(value: unknown, schema: z.ZodType, path: string): unknown {
  let decoded: unknown;
  try {
    decoded = decodeState(value);
  } catch (e) {
    throw new ArtifactError(`cannot decode: ${(e as Error).message}`, path);
  }
  const parsed = schema.safeParse(decoded);
  if (!parsed.success) throw issueError(parsed.error, path, "invalid");
  return parsed.data;
}
