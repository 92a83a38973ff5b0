/**
 * POST /v1/metrics: metrics from labels, scores or a confusion matrix given in the
 * request (interop/metrics.ts). It computes and creates nothing, so it needs only
 * the read scope.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ApiError } from "../errors.js";
import { computeMetrics, metricsBody, metricsResponse, METRICS_MAX_SAMPLES } from "../interop/metrics.js";
import { errorResponses, problemSchema } from "../schemas/common.js";

export const metricsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post(
    "/metrics",
    {
      schema: {
        operationId: "computeMetrics", tags: ["interoperability"],
        summary: "Score given labels, scores or a confusion matrix with xigua's metric definitions (no model needed)",
        description:
          "Give `confusion_matrix` {labels, matrix} (rows actual, columns predicted), or `y_true` with `y_pred` and/or `y_score`. " +
          "Multi-label: y_true (and y_pred) as rows of 0/1 per label → hamming_loss; with y_score rows → ranking_loss (scikit-learn's label_ranking_loss, ties count as mis-ordered). " +
          "Otherwise `task` says classification or regression; without it: any string or boolean value, or labels / positive_class / y_score / beta given → classification; " +
          "else integers in y_true and y_pred → classification, anything else → regression. Classes are `labels` in that order, else the values sorted (numbers numerically); " +
          "binary metrics are for positive_class (default: the second of the sorted classes). y_score is the positive class's score per sample (binary) or a row of class scores " +
          "in class order; it adds auc, average_precision, bep and ROC/PR curves (binary) or the one-vs-rest macro auc (multiclass), and log_loss when every row is a probability distribution. " +
          `Arrays hold at most ${METRICS_MAX_SAMPLES} samples. Mismatched lengths or widths → 422 invalid_request; a value not in labels → 422 unknown_class; one class → 422 single_class.`,
        body: metricsBody,
        response: { 200: metricsResponse, 413: problemSchema, ...errorResponses },
      },
      config: { scope: "read" },
    },
    async (request) => {
      try {
        return computeMetrics(request.body);
      } catch (e) {
        // The evaluation functions guard their own inputs with RangeError; the request checks above should leave none.
        if (e instanceof RangeError) throw new ApiError("invalid_request", e.message);
        throw e;
      }
    },
  );
};
