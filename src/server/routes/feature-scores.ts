/**
 * POST /v1/datasets/{id}/feature-scores: how good each feature is for a target,
 * best first. The tree criteria (info_gain, gain_ratio, gini_index) are computed
 * by the tree engine's own split search; the filter methods by data/feature-scores,
 * the same code the `select` preprocessing step uses. Scoring is O(data) (relief
 * on 900k rows: 28 s), so it runs on the compute pool, awaited; only the checks
 * against the dataset's metadata stay on the request thread.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { FILTER_METHODS } from "../../data/feature-scores/index.js";
import { TREE_METHODS } from "../compute/feature-scores.js";
import { ApiError, notFound } from "../errors.js";
import { errorResponses, idParams, problemSchema } from "../schemas/common.js";

const body = z
  .object({
    method: z.enum([...TREE_METHODS, ...FILTER_METHODS] as [string, ...string[]]).describe("gini_index: lower is better (still sorted best first)."),
    target: z.string().min(1).optional().describe("Required by every method but variance."),
    features: z.array(z.string().min(1)).min(1).optional().describe("Default: every column but the target that the method can score."),
  })
  .strict();

const response = z
  .object({
    method: z.string(),
    target: z.string().nullable(),
    scores: z.array(z.object({ feature: z.string(), score: z.number().nullable(), threshold: z.number().optional() })),
  })
  .meta({ id: "FeatureScores" });

export const featureScoreRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, compute } = app.services;
  app.post(
    "/datasets/:id/feature-scores",
    {
      schema: {
        operationId: "scoreFeatures", tags: ["datasets"],
        summary: "Score every feature against a target (tree criteria with C4.5 missing-value weighting and best bi-partition thresholds; variance, pearson, mutual_info, chi2, relief)",
        params: idParams,
        body,
        response: { 200: response, 404: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { method, target, features } = request.body;
      const dataset = await store.datasets.get(request.params.id);
      if (!dataset) throw notFound("dataset", request.params.id);
      const names = new Set(dataset.columns.map((c) => c.name));
      if (target !== undefined && !names.has(target)) throw new ApiError("unknown_column", `target "${target}" is not a column`, [{ path: "target", message: "unknown column" }]);
      features?.forEach((f, i) => {
        if (!names.has(f)) throw new ApiError("unknown_column", `feature "${f}" is not a column`, [{ path: `features[${i}]`, message: "unknown column" }]);
      });
      if (target === undefined && method !== "variance") throw new ApiError("unusable_request", `${method} needs a target`, [{ path: "target", message: "required" }]);
      const scores = await compute.featureScores(dataset.id, { method, target: target ?? null, features });
      return { method, target: target ?? null, scores };
    },
  );
};
