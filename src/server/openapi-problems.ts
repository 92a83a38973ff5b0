/**
 * The problem types in the OpenAPI document: the Problem component's `code` is
 * an enum of the catalogue, and `x-problem-types` plus a table in its
 * description give each code's type URI, status and title. The wire schema
 * stays a plain string so a problem stored by an older release still serialises.
 */
import { PROBLEM_TYPES } from "./errors.js";

type Schema = { description?: string; properties?: Record<string, Schema>; enum?: string[]; [key: string]: unknown };
type Document = { components?: { schemas?: Record<string, Schema> } };

function table(): string {
  const rows = PROBLEM_TYPES.map((p) => `| \`${p.code}\` | ${p.status} | ${p.title} |`);
  return ["| code | status | title |", "| --- | --- | --- |", ...rows].join("\n");
}

export function withProblemTypes<T>(doc: T): T {
  const problem = (doc as Document).components?.schemas?.Problem;
  if (!problem?.properties?.code) return doc;
  problem.properties.code.enum = PROBLEM_TYPES.map((p) => p.code);
  if (problem.properties.type) problem.properties.type.description = "`urn:xigua:problem:` followed by the code.";
  problem.description = `${problem.description ?? ""} Every \`code\` the service uses (the status is that of the HTTP answer, or of the failed job's \`error\`):\n\n${table()}`;
  problem["x-problem-types"] = PROBLEM_TYPES.map((p) => ({ ...p }));
  return doc;
}
