/** Jobs by kind and status, for the metrics gauge (read at scrape time; indexed on status in both backends). */
import type { JobStatus } from "./models.js";

export type JobKind = "model" | "evaluation" | "search";

export interface JobCount {
  kind: JobKind;
  status: JobStatus;
  count: number;
}

/** The same SQL in both backends. */
export const JOB_COUNTS_SQL = `
  SELECT 'model' AS kind, status, count(*) AS n FROM models GROUP BY status
  UNION ALL SELECT 'evaluation' AS kind, status, count(*) AS n FROM evaluations GROUP BY status
  UNION ALL SELECT 'search' AS kind, status, count(*) AS n FROM searches GROUP BY status`;

export function toJobCounts(rows: { kind: string; status: string; n: number | string }[]): JobCount[] {
  return rows.map((r) => ({ kind: r.kind as JobKind, status: r.status as JobStatus, count: Number(r.n) }));
}
