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
  code: string;
  errors?: FieldError[];
}

const CATALOGUE = {
  malformed_request: { status: 400, title: "Malformed request" },
  validation_failed: { status: 400, title: "Request validation failed" },
  not_found: { status: 404, title: "Not found" },
  route_not_found: { status: 404, title: "No such route" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  wrong_state: { status: 409, title: "Wrong state" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  unusable_request: { status: 422, title: "Unusable request" },
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
  unavailable: { status: 503, title: "Service unavailable" },
  internal: { status: 500, title: "Internal server error" },
} as const;

export type ErrorCode = keyof typeof CATALOGUE;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode | string,
    readonly detail: string,
    readonly errors?: FieldError[],
    status?: number,
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = status ?? (CATALOGUE as Record<string, { status: number }>)[code]?.status ?? 422;
  }
}

export function problemFor(code: string, status: number, detail?: string, errors?: FieldError[], instance?: string): ProblemBody {
  const entry = (CATALOGUE as Record<string, { title: string }>)[code];
  return {
    type: `urn:xigua:problem:${code}`,
    title: entry?.title ?? (status >= 500 ? CATALOGUE.internal.title : "Unusable request"),
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
