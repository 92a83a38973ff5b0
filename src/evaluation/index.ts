/**
 * The evaluation toolkit: metrics, curves, summaries in API.md's wire shape, estimators
 * and significance tests. Pure functions over typed arrays; no I/O.
 */
export * from "./wire.js";
export * from "./metrics/regression.js";
export * from "./metrics/confusion.js";
export * from "./metrics/classification.js";
export * from "./metrics/log-loss.js";
export * from "./metrics/multilabel.js";
export * from "./metrics/clustering-external.js";
export * from "./metrics/clustering-internal.js";
export * from "./curves/threshold-counts.js";
export * from "./curves/roc.js";
export * from "./curves/precision-recall.js";
export * from "./curves/one-vs-rest.js";
export * from "./curves/downsample.js";
export * from "./threshold.js";
export * from "./summarize/classification.js";
export * from "./summarize/regression.js";
export * from "./summarize/clustering.js";
export * from "./summarize/aggregate.js";
export * from "./estimators/bootstrap632.js";
export * from "./estimators/bias-variance.js";
export * from "./significance/result.js";
export * from "./significance/ranks.js";
export * from "./significance/distributions.js";
export * from "./significance/paired-t.js";
export * from "./significance/five-by-two.js";
export * from "./significance/mcnemar.js";
export * from "./significance/friedman.js";
