/**
 * The one error catalogue. Every error a client can see is a problem+json
 * document (RFC 9457) built here; a 5xx never carries internals.
 */
export interface FieldError {
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: ErrorCode;
  errors?: FieldError[];
}

const CATALOGUE = {
  malformed_request: { status: 400, title: "Malformed request" },
  validation_failed: { status: 400, title: "Request validation failed" },
  // Access (src/server/access/): a missing, unknown or revoked API key; a key without the route's scope; past a rate.
  unauthorized: { status: 401, title: "Authentication required" },
  forbidden: { status: 403, title: "Scope missing" },
  rate_limited: { status: 429, title: "Too many requests" },
  not_found: { status: 404, title: "Not found" },
  route_not_found: { status: 404, title: "No such route" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  request_timeout: { status: 408, title: "Request timeout" },
  wrong_state: { status: 409, title: "Wrong state" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  unusable_request: { status: 422, title: "Unusable request" },
  transductive_model: { status: 422, title: "Model labels only its training rows" },
  unknown_algorithm: { status: 422, title: "Unknown algorithm" },
  invalid_params: { status: 422, title: "Invalid parameters" },
  unknown_column: { status: 422, title: "Unknown column" },
  invalid_data: { status: 422, title: "Unusable data" },
  invalid_artifact: { status: 422, title: "Invalid artifact" },
  memory_budget_exceeded: { status: 422, title: "Job would exceed its memory budget" },
  memory_limit_exceeded: { status: 422, title: "Job passed its memory budget" },
  // Problems a failed or cancelled job carries (src/training/job-failure.ts).
  cancelled: { status: 409, title: "Cancelled" },
  timeout: { status: 422, title: "Time limit exceeded" },
  interrupted: { status: 500, title: "Interrupted" },
  worker_crashed: { status: 500, title: "Worker crashed" },
  out_of_memory: { status: 422, title: "Training ran out of memory" },
  training_failed: { status: 500, title: "Training failed" },
  unusable_input: { status: 422, title: "Unusable input" },
  dataset_deleted: { status: 409, title: "Dataset deleted" },
  // Train and evaluation requests that are well-formed but unusable (src/training/spec.ts).
  unsupported_task: { status: 422, title: "Algorithm does not do this task" },
  target_required: { status: 422, title: "Target column required" },
  target_all_missing: { status: 422, title: "Target has no values" },
  single_class: { status: 422, title: "Target has a single class" },
  no_features: { status: 422, title: "No feature columns" },
  target_as_feature: { status: 422, title: "Target listed as a feature" },
  duplicate_feature: { status: 422, title: "Feature listed twice" },
  unknown_class: { status: 422, title: "Unknown class" },
  invalid_step: { status: 422, title: "Invalid preprocessing step" },
  invalid_validation: { status: 422, title: "Invalid validation scheme" },
  invalid_request: { status: 422, title: "Inconsistent request" },
  nesting_too_deep: { status: 422, title: "Value nested too deeply" },
  // Below the routes: URL and HTTP-level failures (src/server/plugins/errors.ts).
  uri_too_long: { status: 414, title: "URI too long" },
  headers_too_large: { status: 431, title: "Request headers too large" },
  // A search none of whose candidates produced a score (src/training/search-runner.ts).
  search_failed: { status: 422, title: "Search failed" },
  // The Idempotency-Key header (src/server/plugins/idempotency.ts).
  invalid_idempotency_key: { status: 400, title: "Invalid Idempotency-Key" },
  idempotency_key_in_use: { status: 409, title: "Idempotency-Key in use" },
  idempotency_key_reused: { status: 422, title: "Idempotency-Key reused" },
  unavailable: { status: 503, title: "Service unavailable" },
  internal: { status: 500, title: "Internal server error" },
} as const;

export type ErrorCode = keyof typeof CATALOGUE;

export interface ProblemType {
  code: ErrorCode;
  type: string;
  status: number;
  title: string;
}

export const PROBLEM_TYPE_PREFIX = "urn:xigua:problem:";

/** Every problem type a client can meet, for the OpenAPI document and the tests. */
export const PROBLEM_TYPES: readonly ProblemType[] = (Object.keys(CATALOGUE) as ErrorCode[]).map((code) => ({
  code,
  type: PROBLEM_TYPE_PREFIX + code,
  ...CATALOGUE[code],
}));

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(CATALOGUE, code);
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    status?: number,
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = status ?? CATALOGUE[code].status;
  }
}

export function problemFor(code: ErrorCode, status: number, detail?: string, errors?: FieldError[], instance?: string): ProblemBody {
  return {
    type: PROBLEM_TYPE_PREFIX + code,
    title: CATALOGUE[code].title,
    status,
    ...(detail ? { detail } : {}),
    ...(instance ? { instance } : {}),
    code,
    ...(errors && errors.length ? { errors } : {}),
  };
}

export const notFound = (what: string, id: string) => new ApiError("not_found", `${what} ${id} does not exist`);

/** Back-pressure for job-creating routes: 503 + Retry-After when `more` jobs would pass the limit. */
export function checkJobCapacity(active: number, limit: number, more = 1): void {
  if (active + more > limit) {
    throw new ApiError("unavailable", `${active} jobs are queued or running (limit ${limit}, XIGUA_MAX_JOBS); try again shortly`);
  }
}
