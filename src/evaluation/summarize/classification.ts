/**
 * One call that turns a classifier's predictions into the evaluation body of API.md:
 * metrics, per_class, confusion_matrix and, with probabilities, curves.
 *
 * Binary (2 classes): precision, recall, f1, sensitivity, specificity (and fbeta when a β
 * is given) are for the positive class — `positiveClass`, default the second of the sorted
 * classes; auc, average_precision, bep and the ROC/P-R curves use its probability column.
 * Multiclass: no single positive class, so those keys are absent; `auc` is the macro
 * one-vs-rest AUC, the per-class AUCs are in `auc_per_class`, and curves are only given
 * per class on request (`perClassCurves`). Both: accuracy, error_rate, macro_* (macro_f1 is
 * the seeds' F1 of macro P and macro R; macro_f1_mean is scikit-learn's), micro_*, and
 * log_loss when probabilities are given.
 */
import { sortLevels } from "../../data/frame.js";
import { binaryCounts, binaryMetrics, multiclassMetrics, perClassScores, type ClassScores } from "../metrics/classification.js";
import { confusionMatrix, confusionRows } from "../metrics/confusion.js";
import { logLoss } from "../metrics/log-loss.js";
import { downsampleCurve } from "../curves/downsample.js";
import { oneVsRestAuc, probabilityColumn } from "../curves/one-vs-rest.js";
import { averagePrecisionFromCounts, breakEvenFromCounts, prFromCounts, prToWire, type WirePrCurve } from "../curves/precision-recall.js";
import { aucFromCounts, rocFromCounts, rocToWire, type WireRocCurve } from "../curves/roc.js";
import { thresholdCounts } from "../curves/threshold-counts.js";
import { checkSameLength, finiteOrNull, type MetricRecord, type MetricValue } from "../wire.js";

export interface ClassificationInput {
  /** Class index per row into `classes`. */
  readonly yTrue: Int32Array;
  readonly yPred: Int32Array;
  /** Row-major n × classes.length, in `classes` order. */
  readonly proba?: Float64Array;
  readonly classes: readonly string[];
  readonly positiveClass?: string;
  /** F_β for the positive class (binary); reported as `fbeta`. */
  readonly beta?: number;
  readonly weights?: Float64Array;
  /** ROC drop_intermediate (scikit-learn's default true). */
  readonly dropIntermediate?: boolean;
  /** Downsample every curve to at most this many points (see downsampleCurve). */
  readonly curvePoints?: number;
  /** Multiclass: one-vs-rest ROC and P-R curves per class. */
  readonly perClassCurves?: boolean;
}

export interface Curves {
  roc: WireRocCurve;
  pr: WirePrCurve;
}

export interface ClassificationSummary {
  metrics: MetricRecord;
  per_class: Record<string, ClassScores>;
  confusion_matrix: { labels: string[]; matrix: number[][] };
  /** Binary only. */
  positive_class?: string;
  /** Binary with proba: the positive class's curves. */
  curves?: Curves;
  /** Multiclass with proba. */
  auc_per_class?: Record<string, MetricValue>;
  /** Multiclass with proba and perClassCurves. */
  per_class_curves?: Record<string, Curves>;
}

export function summarizeClassification(input: ClassificationInput): ClassificationSummary {
  const { yTrue, yPred, proba, classes, weights } = input;
  const k = classes.length;
  if (k < 2) throw new RangeError("classification needs at least two classes");
  checkSameLength("proba", yTrue.length * k, proba);
  const confusion = confusionMatrix(yTrue, yPred, k, weights);
  const multi = multiclassMetrics(confusion);
  const metrics: MetricRecord = { ...multi };
  const summary: ClassificationSummary = {
    metrics,
    per_class: Object.fromEntries(perClassScores(confusion).map((s, i) => [classes[i], s])),
    confusion_matrix: { labels: [...classes], matrix: confusionRows(confusion) },
  };
  if (proba) metrics.log_loss = logLoss(yTrue, proba, k, weights);

  if (k === 2) {
    const positive = positiveIndex(classes, input.positiveClass);
    summary.positive_class = classes[positive];
    const { accuracy: _a, error_rate: _e, ...binary } = binaryMetrics(binaryCounts(confusion, positive), input.beta);
    Object.assign(metrics, binary);
    if (proba) {
      const counts = thresholdCounts(yTrue, probabilityColumn(proba, k, positive), { positiveLabel: positive, weights });
      metrics.auc = aucFromCounts(counts);
      metrics.average_precision = averagePrecisionFromCounts(counts);
      metrics.bep = breakEvenFromCounts(counts);
      summary.curves = curvesFrom(counts, input);
    }
  } else if (proba) {
    const ovr = oneVsRestAuc(yTrue, proba, k, weights);
    metrics.auc = ovr.macro;
    summary.auc_per_class = Object.fromEntries(ovr.per_class.map((v, i) => [classes[i], v]));
    if (input.perClassCurves) {
      summary.per_class_curves = Object.fromEntries(
        classes.map((c, i) => [c, curvesFrom(thresholdCounts(yTrue, probabilityColumn(proba, k, i), { positiveLabel: i, weights }), input)]),
      );
    }
  }
  for (const key of Object.keys(metrics)) metrics[key] = metrics[key] === null ? null : finiteOrNull(metrics[key] as number);
  return summary;
}

/** The positive class's index: the named class, else the second of the sorted classes. */
export function positiveIndex(classes: readonly string[], positiveClass?: string): number {
  const name = positiveClass ?? sortLevels(classes)[1];
  const i = classes.indexOf(name);
  if (i < 0) throw new RangeError(`positive class ${JSON.stringify(positiveClass)} is not one of the classes`);
  return i;
}

function curvesFrom(counts: ReturnType<typeof thresholdCounts>, input: ClassificationInput): Curves {
  const roc = rocToWire(rocFromCounts(counts, input.dropIntermediate ?? true));
  const pr = prToWire(prFromCounts(counts));
  if (input.curvePoints === undefined) return { roc, pr };
  return { roc: downsampleCurve(roc, input.curvePoints), pr: downsampleCurve(pr, input.curvePoints) };
}
