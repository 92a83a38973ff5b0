import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { listAlgorithms } from "../../models/lazy-registry.js";
import { listSteps } from "../../training/steps.js";

const algorithmSchema = z
  .object({
    name: z.string(),
    family: z.string(),
    tasks: z.array(z.enum(["classification", "regression", "clustering", "projection", "anomaly"])),
    params_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the params, with defaults."),
    accepts: z.object({
      categorical: z.boolean(),
      missing: z.boolean(),
      weights: z.boolean(),
      unlabelled: z.boolean().describe("Semi-supervised: rows whose target is missing are kept as unlabelled data (validation and metrics use labelled rows only)."),
      max_classes: z.number().int().optional().describe("Most classes a categorical target may have (a two-class method: 2); more is a 422 when the request is read."),
    }),
    scale_sensitive: z.boolean().describe("Its fit depends on the units of numeric inputs: the pipeline standardises them unless the request says auto_scale: false."),
    partial_fit: z.boolean().describe("POST /v1/models/{id}/partial-fit updates its models with new rows without a refit from scratch."),
    description: z.string(),
  })
  .meta({ id: "Algorithm" });

/** Generated once (on first use) from each algorithm's zod schema: the params are declared in one place only. */
function describeAlgorithms() {
  return listAlgorithms().map((a) => ({
    name: a.name,
    family: a.family,
    tasks: [...a.tasks],
    params_schema: z.toJSONSchema(a.params, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
    accepts: {
      categorical: a.accepts.categorical,
      missing: a.accepts.missing,
      weights: a.accepts.weights,
      unlabelled: a.accepts.unlabelled ?? false,
      ...(a.accepts.maxClasses !== undefined ? { max_classes: a.accepts.maxClasses } : {}),
    },
    scale_sensitive: a.scaleSensitive,
    partial_fit: a.partialFit !== undefined,
    description: a.description,
  }));
}

const stepSchema = z
  .object({ name: z.string(), description: z.string(), options_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the step's options, with defaults.") })
  .meta({ id: "PreprocessingStep" });

function describeSteps() {
  return listSteps().map((s) => ({ name: s.name, description: s.description, options_schema: z.toJSONSchema(s.spec, { io: "input", unrepresentable: "any" }) as Record<string, unknown> }));
}

export const algorithmRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  // Both lists are made with their first request: the algorithms need the registry, loaded with
  // that request (plugins/load-registry.ts), and neither is worth keeping in an idle server.
  let items: ReturnType<typeof describeAlgorithms> | undefined;
  app.get(
    "/algorithms",
    { schema: { operationId: "listAlgorithms", tags: ["algorithms"], summary: "Every algorithm with its parameters as JSON Schema", response: { 200: z.object({ items: z.array(algorithmSchema) }) } } },
    async () => ({ items: (items ??= describeAlgorithms()) }),
  );
  let steps: ReturnType<typeof describeSteps> | undefined;
  app.get(
    "/steps",
    { schema: { operationId: "listSteps", tags: ["algorithms"], summary: "Every preprocessing step with its options as JSON Schema", response: { 200: z.object({ items: z.array(stepSchema) }) } } },
    async () => ({ items: (steps ??= describeSteps()) }),
  );
};
