/**
 * How a failed job reads to its client. A worker's exception crosses the thread
 * boundary by structured clone, which keeps an Error's message but drops its class
 * name and fields (`UnusableInputError` arrives as a plain `Error`), so the worker
 * sends `transportable(error)` instead, and the main thread maps it here: the
 * client's own data or parameters → a 4xx-class problem with the reason; anything
 * else → a generic problem, with the raw message for the log only.
 */
import type { ErrorCode } from "../server/errors.js";
import type { Problem } from "../store/models.js";

/** Every code a job problem can carry, with the catalogue's status and title (test/training/job-failure.test.ts keeps them equal). */
export const JOB_PROBLEMS = {
  cancelled: { status: 409, title: "Cancelled" },
  timeout: { status: 422, title: "Time limit exceeded" },
  interrupted: { status: 500, title: "Interrupted" },
  worker_crashed: { status: 500, title: "Worker crashed" },
  out_of_memory: { status: 422, title: "Training ran out of memory" },
  memory_limit_exceeded: { status: 422, title: "Job passed its memory budget" },
  training_failed: { status: 500, title: "Training failed" },
  unusable_input: { status: 422, title: "Unusable input" },
  dataset_deleted: { status: 409, title: "Dataset deleted" },
  invalid_artifact: { status: 422, title: "Invalid artifact" },
  search_failed: { status: 422, title: "Search failed" },
} as const satisfies Partial<Record<ErrorCode, { status: number; title: string }>>;

export type JobProblemCode = keyof typeof JOB_PROBLEMS;

export function jobProblem(code: JobProblemCode, detail: string, errors?: { path: string; message: string }[]): Problem {
  const { status, title } = JOB_PROBLEMS[code];
  return { type: `urn:xigua:problem:${code}`, title, status, detail, code, ...(errors?.length ? { errors } : {}) };
}

/** A worker-side error as plain data: the class name and path survive the thread boundary. */
export interface TransportedError {
  name: string;
  message: string;
  path?: string;
  stack?: string;
}

export function transportable(error: unknown): TransportedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const { path, column } = error as { path?: unknown; column?: unknown };
  const where = typeof path === "string" ? path : typeof column === "string" ? `columns.${column}` : undefined;
  return { name: error.name, message: error.message, stack: error.stack, ...(where ? { path: where } : {}) };
}

/** Thrown by the worker when the job's dataset (or model) was deleted before it could be read. */
export class DatasetDeletedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatasetDeletedError";
  }
}

/** Errors that describe the client's own data, parameters or stored objects, by class name. */
const CLIENT_ERRORS: Record<string, JobProblemCode> = {
  UnusableInputError: "unusable_input",
  DataError: "unusable_input",
  DataTooLargeError: "unusable_input",
  SpecError: "unusable_input",
  StepSpecError: "unusable_input",
  ThresholdError: "unusable_input",
  ConformError: "unusable_input",
  NegativeValueError: "unusable_input",
  ArtifactError: "invalid_artifact",
  DatasetDeletedError: "dataset_deleted",
};

/** A RangeError from an allocation the engine refused (a typed array or array too large for this process). */
const ALLOCATION_FAILED = /allocation failed|Invalid (typed )?array length|Array buffer allocation/i;

export interface Failure {
  problem: Problem;
  /** For the server log: what actually happened, when the client is told less. */
  internal?: string;
}

export function memoryLimitProblem(budgetMb: number): Problem {
  return jobProblem("memory_limit_exceeded", `the job's memory passed its budget of ${budgetMb} MiB (XIGUA_JOB_MEMORY_MB); use fewer rows, features or a smaller model`);
}

/** What a job's error says to the client: the reason when it is theirs, never a stack or an internal message. */
export function describeFailure(error: unknown, context: { jobId: string; memoryMb: number; heapMb: number }): Failure {
  const e = (error ?? {}) as { code?: unknown; name?: unknown; message?: unknown; path?: unknown; stack?: unknown };
  const message = typeof e.message === "string" ? e.message : String(error);
  const internal = typeof e.stack === "string" ? e.stack : message;
  if (e.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return { problem: jobProblem("out_of_memory", `the job filled its worker's heap limit of ${context.heapMb} MiB (XIGUA_WORKER_HEAP_MB, at most XIGUA_JOB_MEMORY_MB)`), internal };
  }
  if (e.name === "MemoryLimitError" || (e.name === "RangeError" && ALLOCATION_FAILED.test(message))) {
    return { problem: memoryLimitProblem(context.memoryMb), internal };
  }
  const clientCode = typeof e.name === "string" ? CLIENT_ERRORS[e.name] : undefined;
  if (clientCode) {
    const path = typeof e.path === "string" ? e.path : undefined;
    return { problem: jobProblem(clientCode, message.slice(0, 1000), path ? [{ path, message: message.slice(0, 1000) }] : undefined) };
  }
  if (message.includes("Terminating worker thread") || /worker exited with code/.test(message)) {
    return { problem: jobProblem("worker_crashed", `the worker thread running this job stopped unexpectedly; see the server log (job ${context.jobId})`), internal };
  }
  return { problem: jobProblem("training_failed", `the job failed unexpectedly; see the server log (job ${context.jobId})`), internal };
}
