import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { compareEvaluations, ComparisonError, type ComparedEvaluation } from "../../evaluation/compare.js";
import { ApiError } from "../errors.js";
import { errorResponses, problemSchema } from "../schemas/common.js";

const testSchema = z.object({
  name: z.string(),
  statistic: z.number().nullable(),
  df: z.number().optional(),
  df2: z.number().optional(),
  p_value: z.number(),
  alpha: z.number(),
  significant: z.boolean(),
});

const comparisonSchema = z
  .object({
    metric: z.string(),
    alpha: z.number(),
    higher_is_better: z.boolean(),
    tests: z.array(testSchema.extend({ b: z.number().optional(), c: z.number().optional(), mean_difference: z.number().optional(), std_difference: z.number().optional(), n: z.number().optional() })),
    learners: z.array(z.string()).optional(),
    datasets: z.array(z.string()).optional(),
    average_ranks: z.array(z.number()).optional(),
    critical_difference: z.number().optional(),
    nemenyi_pairs: z.array(z.object({ a: z.string(), b: z.string(), rank_difference: z.number(), p_value: z.number(), significant: z.boolean() })).optional(),
  })
  .meta({ id: "Comparison" });

const body = z
  .object({
    evaluation_ids: z.array(z.string().min(1)).min(2).max(200),
    alpha: z.number().gt(0).lt(1).default(0.05),
    metric: z.string().optional().describe("Default: accuracy (classification) or mse (regression)."),
  })
  .strict();

function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value as object).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

export const comparisonRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store } = app.services;
  app.post(
    "/comparisons",
    {
      // A retry with the same Idempotency-Key gets the first response (plugins/idempotency.ts).
      config: { idempotent: true },
      schema: {
        operationId: "compareEvaluations", tags: ["evaluations"],
        summary: "Significance tests between evaluations: paired t / 5×2cv t (same folds), McNemar (same rows), Friedman + Nemenyi (k ≥ 3 learners on N ≥ 2 datasets)",
        body,
        response: { 200: comparisonSchema, 404: problemSchema, 409: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { evaluation_ids, alpha, metric } = request.body;
      if (new Set(evaluation_ids).size !== evaluation_ids.length) throw new ApiError("validation_failed", "an evaluation is listed twice", [{ path: "evaluation_ids", message: "duplicates" }]);
      const records = await Promise.all(evaluation_ids.map((id) => store.evaluations.get(id)));
      const compared: ComparedEvaluation[] = evaluation_ids.map((id, i) => {
        const e = records[i];
        if (!e) throw new ApiError("not_found", `evaluation ${id} does not exist`, [{ path: `evaluation_ids[${i}]`, message: "unknown evaluation" }]);
        if (e.status !== "succeeded") throw new ApiError("wrong_state", `evaluation ${id} is ${e.status}`, [{ path: `evaluation_ids[${i}]`, message: e.status }]);
        const r = (e.result ?? {}) as Partial<ComparedEvaluation>;
        return {
          id,
          dataset_id: e.dataset_id,
          learner: `${e.algorithm}${canonical(e.spec.params ?? {}) === "{}" ? "" : " " + canonical(e.spec.params)}`,
          method: e.method,
          task: e.task,
          metrics: r.metrics ?? {},
          folds: r.folds,
          folds_fingerprint: r.folds_fingerprint,
          row_outcomes: r.row_outcomes,
        };
      });
      try {
        return compareEvaluations(compared, { alpha, metric });
      } catch (e) {
        if (e instanceof ComparisonError) throw new ApiError("unusable_request", e.message, [{ path: "evaluation_ids", message: e.message }]);
        throw e;
      }
    },
  );
};
