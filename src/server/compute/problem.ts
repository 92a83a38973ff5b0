/**
 * Errors cross the thread boundary as plain data: structured clone keeps an
 * Error's message but drops its class and fields, so a compute task returns the
 * problem it would have thrown and the request thread throws it again.
 */
import { DataError, DataTooLargeError } from "../../data/errors.js";
import { ArtifactError } from "../../training/artifact-error.js";
import { QueueUnavailableError } from "../../training/queue/job-queue.js";
import { StoreUnavailableError } from "../../store/store-errors.js";
import { ApiError, type ErrorCode, type FieldError } from "../errors.js";

export interface Problem {
  code: ErrorCode;
  status: number;
  detail: string;
  errors?: FieldError[];
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/**
 * The client-facing problem of an error raised by our own code, or null for anything
 * else (a defect: a 500 with nothing leaked). The one mapping from error classes to
 * problems, used by the error handler and by compute threads alike.
 */
export function clientProblem(e: unknown): Problem | null {
  if (e instanceof ApiError) return { code: e.code, status: e.status, detail: e.detail, errors: e.errors };
  // Routes turn an imported artifact's ArtifactError into invalid_artifact; one reaching here comes from a stored artifact that no longer loads.
  if (e instanceof ArtifactError) {
    const detail = `the stored model artifact no longer loads (${e.message}); train or import the model again`;
    return { code: "wrong_state", status: 409, detail, errors: [{ path: e.path ? `artifact.${e.path}` : "artifact", message: e.message }] };
  }
  // Nothing was lost: the request can be sent again once the queue's Redis is back (503 carries Retry-After).
  if (e instanceof QueueUnavailableError) return { code: "unavailable", status: 503, detail: e.message };
  if (e instanceof StoreUnavailableError) return { code: "unavailable", status: 503, detail: "the store (database) is unavailable; try again shortly" };
  if (e instanceof DataTooLargeError) return { code: "payload_too_large", status: 413, detail: e.message };
  if (e instanceof DataError) return { code: "invalid_data", status: 422, detail: e.message, errors: e.path ? [{ path: e.path, message: e.message }] : undefined };
  return null;
}

/** As clientProblem; anything else is rethrown (a 500 with nothing leaked). */
export function problemOf(e: unknown): Problem {
  const problem = clientProblem(e);
  if (problem) return problem;
  throw e;
}

export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const { code, detail, errors, status } = outcome.problem;
  throw new ApiError(code, detail, errors, status);
}
