/**
 * /predict is the hot path: zod's per-cell union check costs more than parsing the
 * JSON itself (≈23 µs against ≈9 µs for a 30-feature row). Well-formed bodies take
 * this hand-written check of the same schema; anything it does not accept is handed
 * to zod, so error messages and paths stay exactly zod's. The OpenAPI document still
 * comes from the zod schema. Bodies too large for the request thread (routes/predict.ts)
 * run the same two checks on the compute pool (predict.ts, parsePredictBody).
 */
import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";

function isCell(v: unknown): boolean {
  const t = typeof v;
  return v === null || t === "string" || t === "boolean" || (t === "number" && Number.isFinite(v));
}

/** True when `body` certainly satisfies predictBody (rows of scalar cells, optional flags, no other keys). */
export function isWellFormedPredictBody(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  for (const key in b) if (key !== "rows" && key !== "probabilities" && key !== "decision_threshold") return false;
  const rows = b.rows;
  if (!Array.isArray(rows) || rows.length === 0) return false;
  if (b.probabilities !== undefined && typeof b.probabilities !== "boolean") return false;
  const t = b.decision_threshold;
  if (t !== undefined && t !== "rescale" && !(typeof t === "number" && t >= 0 && t <= 1)) return false;
  for (const row of rows) {
    if (typeof row !== "object" || row === null || Array.isArray(row) || Object.getPrototypeOf(row) !== Object.prototype) return false;
    for (const key in row) if (!isCell((row as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** True when `params` certainly satisfies modelRefParams: one non-empty `id` within the router's length limit. */
export function isWellFormedModelRef(params: unknown, maxLength: number): boolean {
  if (typeof params !== "object" || params === null) return false;
  const id = (params as { id?: unknown }).id;
  if (typeof id !== "string" || id.length === 0 || id.length > maxLength) return false;
  for (const key in params) if (key !== "id") return false;
  return true;
}

/**
 * A validator compiler: for the body (and the params, when `fastParams` is given) the
 * fast check first, zod (for its errors) when the fast check says no; other parts zod.
 */
export function fastBodyValidator(schema: z.ZodType, fast: (body: unknown) => boolean, fastParams?: (params: unknown) => boolean): FastifySchemaCompiler<z.ZodType> {
  const slow = validatorCompiler({ schema, method: "", url: "", httpPart: "body" });
  return ({ schema: partSchema, httpPart, method, url }) => {
    if (httpPart === "body") return (data) => (fast(data) ? { value: data } : slow(data));
    const zod = validatorCompiler({ schema: partSchema, httpPart, method, url });
    if (httpPart === "params" && fastParams) return (data) => (fastParams(data) ? { value: data } : zod(data));
    return zod;
  };
}
