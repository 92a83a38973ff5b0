/** Shapes of test/fixtures/evaluation/metrics.json (made by scripts/fixtures/evaluation_metrics.py). */
type W = number[] | null;
type N = number | null;

export interface MetricsFixture {
  sklearn: string;
  regression: { y_true: number[]; y_pred: number[]; weights: W; expected: Record<"mse" | "rmse" | "mae" | "r2", N> }[];
  binary: {
    y_true: number[];
    y_pred: number[];
    weights: W;
    beta: number;
    expected: { confusion_matrix: number[] } & Record<"accuracy" | "precision" | "recall" | "f1" | "fbeta" | "specificity", N>;
  }[];
  multiclass: {
    n_classes: number;
    y_true: number[];
    y_pred: number[];
    weights: W;
    expected: Record<"precision" | "recall" | "f1" | "support" | "confusion_matrix", number[]> &
      Record<"accuracy" | "macro_precision" | "macro_recall" | "macro_f1_mean" | "micro_precision" | "micro_recall" | "micro_f1", N>;
  }[];
  log_loss: { n_classes: number; y_true: number[]; proba: number[]; weights: W; expected: N }[];
  ranking: {
    y_true: number[];
    scores: number[];
    weights: W;
    expected: {
      roc: Record<"fpr" | "tpr" | "thresholds", N[]>;
      roc_all: Record<"fpr" | "tpr" | "thresholds", N[]>;
      auc: N;
      pr: Record<"precision" | "recall" | "thresholds", N[]>;
      average_precision: N;
    };
  }[];
  ovr_auc: { n_classes: number; y_true: number[]; proba: number[]; weights: W; expected: { per_class: N[]; macro: N } }[];
  multilabel: {
    n_labels: number;
    y_true: number[];
    y_pred: number[];
    scores: number[];
    weights: W;
    expected: Record<"hamming_loss" | "label_ranking_loss", N>;
  }[];
  clustering_external: {
    reference: number[];
    labels: number[];
    expected: Record<"a" | "b" | "c" | "d" | "jaccard" | "fowlkes_mallows" | "rand_index" | "adjusted_rand_index" | "normalized_mutual_info", N>;
  }[];
  clustering_internal: {
    n_features: number;
    X: number[];
    labels: number[];
    expected: Record<"silhouette" | "davies_bouldin" | "davies_bouldin_pairwise" | "dunn" | "calinski_harabasz", N>;
  }[];
}
