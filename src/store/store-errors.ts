/**
 * A store that cannot be reached: the database is down, restarting, or the
 * connection dropped mid-query. The server answers 503 (try again) rather than
 * 500, and jobs treat it as the store's failure, not the job's.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

/** Socket-level codes of a connection that failed or dropped. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** SQLSTATEs of a server that is shutting down or starting: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SERVER_GONE_CODES = new Set(["57P01", "57P02", "57P03"]);

/** pg's own errors for a connection that ended or never came up carry no code, only these messages. */
const CONNECTION_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];

/** Whether an error from the PostgreSQL driver means the database could not be reached (rather than a query that was wrong). */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || SERVER_GONE_CODES.has(code) || /^08/.test(code))) return true;
  if (CONNECTION_MESSAGES.some((m) => error.message.startsWith(m))) return true;
  // Node's connect to a host with several addresses fails with every address's error.
  if (error instanceof AggregateError) return error.errors.some(isConnectionFailure);
  return false;
}
