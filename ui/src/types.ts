/** The API's shapes the dashboard reads (src/server/schemas/*.ts, /v1/algorithms, explain). */
export type Cell = string | number | boolean | null;
export type Metrics = Record<string, number | null>;

export interface Column {
  name: string;
  type: "numeric" | "categorical";
  missing_count: number;
  levels?: string[];
  level_count?: number;
  summary?: { min: number | null; max: number | null; mean: number | null; std: number | null };
  role_hint?: "identifier";
}

export interface Dataset {
  id: string;
  name: string;
  row_count: number;
  column_count: number;
  columns: Column[];
  created_at: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export type JsonSchema = {
  type?: string | string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

export interface Algorithm {
  name: string;
  family: string;
  tasks: string[];
  params_schema: JsonSchema;
  accepts: { categorical: boolean; missing: boolean; weights: boolean; unlabelled: boolean };
  description: string;
}

export interface Step {
  name: string;
  description: string;
  options_schema: JsonSchema;
}

export type Status = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface ProblemBody {
  title: string;
  detail?: string;
  code?: string;
}

export interface Model {
  id: string;
  name: string | null;
  status: Status;
  progress: number;
  algorithm: string;
  params: Record<string, unknown>;
  task: string;
  dataset_id: string | null;
  target: string | null;
  features: string[];
  preprocessing: Record<string, unknown>[];
  validation: Record<string, unknown>;
  positive_class: string | null;
  classes?: string[];
  seed: number;
  evaluation_id?: string;
  metrics?: Metrics;
  n_clusters?: number;
  noise_count?: number;
  warnings?: string[];
  fit_seconds?: number;
  error?: ProblemBody;
  created_at: string;
}

export interface Evaluation {
  id: string;
  status: Status;
  progress: number;
  model_id?: string;
  dataset_id: string;
  algorithm: string;
  params: Record<string, unknown>;
  task: string;
  method: string;
  target?: string | null;
  positive_class?: string;
  metrics: Metrics;
  metrics_std?: Metrics;
  per_class?: Record<string, { precision: number | null; recall: number | null; f1: number | null; support: number }>;
  confusion_matrix?: { labels: string[]; matrix: number[][] };
  curves?: { roc: { fpr: number[]; tpr: number[]; thresholds: (number | null)[] }; pr: { precision: number[]; recall: number[]; thresholds: (number | null)[] } };
  auc_per_class?: Record<string, number | null>;
  folds?: { metrics: Metrics }[];
  train_metrics?: Metrics;
  learning_curve?: CurveResult;
  validation_curve?: CurveResult;
  warnings?: string[];
  error?: ProblemBody;
  created_at: string;
}

export interface CurveResult {
  kind: "learning_curve" | "validation_curve";
  param?: string;
  scoring?: string;
  points: { fraction?: number; train_size?: number; value?: unknown; metrics: Metrics; metrics_std: Metrics; train_metrics: Metrics; error?: string }[];
}

export interface Search {
  id: string;
  status: Status;
  progress: number;
  dataset_id: string;
  algorithm: string;
  method: string;
  scoring: string;
  target: string;
  results: { params: Record<string, unknown>; mean_score: number | null; std_score: number | null; rank: number | null; evaluation_id: string; status: string }[];
  best_params: Record<string, unknown> | null;
  best_score: number | null;
  model_id?: string;
  created_at: string;
}

export interface Comparison {
  metric: string;
  alpha: number;
  tests: { name: string; statistic: number | null; df?: number; p_value: number; significant: boolean }[];
}

export interface TreeNode {
  samples: number;
  distribution?: Record<string, number>;
  value?: number;
  prediction: Cell;
  split?: { feature: string; kind: string; criterion: string; score: number; threshold?: number; candidates: { feature: string; score: number; threshold?: number }[] };
  children: { when: { equals?: string; lte?: number; gt?: number; missing?: boolean; [k: string]: unknown }; node: TreeNode }[];
  truncated?: boolean;
}
