/**
 * The numeric fields of a params / step-options JSON Schema (as GET /v1/algorithms
 * and GET /v1/steps publish it), with their upper bounds, for the tests that hold
 * every size-driving field to a documented maximum.
 */
import { z } from "zod";
import { listAlgorithms } from "../../src/models/registry.js";
import { listSteps } from "../../src/training/steps.js";

type JsonSchema = Record<string, unknown>;

export interface NumericField {
  /** `max_depth`, `hidden_layer_sizes[]` (array items), `class_weight{}` (record values), `gamma.value`. */
  readonly key: string;
  /** What is bounded: a number's value, or an array of numbers' length. */
  readonly kind: "integer" | "number" | "length";
  /** Inclusive or exclusive maximum; null when there is none (zod's int() alone publishes MAX_SAFE_INTEGER, which counts as none). */
  readonly max: number | null;
  readonly description: string | undefined;
}

function maximumOf(s: JsonSchema, field: "maximum" | "maxItems"): number | null {
  const m = (s[field] ?? (field === "maximum" ? s.exclusiveMaximum : undefined)) as number | undefined;
  return typeof m === "number" && m < Number.MAX_SAFE_INTEGER ? m : null;
}

function walk(s: unknown, key: string, description: string | undefined, out: NumericField[]): void {
  if (s === null || typeof s !== "object") return;
  const schema = s as JsonSchema;
  const described = (schema.description as string | undefined) ?? description;
  for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(schema[k])) for (const branch of schema[k] as unknown[]) walk(branch, key, described, out);
  if (schema.type === "integer" || schema.type === "number") out.push({ key, kind: schema.type, max: maximumOf(schema, "maximum"), description: described });
  if (schema.properties) for (const [name, sub] of Object.entries(schema.properties as Record<string, unknown>)) walk(sub, key ? `${key}.${name}` : name, undefined, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") walk(schema.additionalProperties, `${key}{}`, described, out);
  if (schema.type === "array" && schema.items && typeof schema.items === "object") {
    const items = schema.items as JsonSchema;
    if (items.type === "integer" || items.type === "number") out.push({ key, kind: "length", max: maximumOf(schema, "maxItems"), description: described });
    walk(items, `${key}[]`, described, out);
  }
}

export function numericFields(schema: z.ZodType): NumericField[] {
  const out: NumericField[] = [];
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }), "", undefined, out);
  // A field that is a union of several numeric branches is listed once per branch; keep the loosest.
  const byKey = new Map<string, NumericField>();
  for (const f of out) {
    const id = `${f.key}:${f.kind}`;
    const seen = byKey.get(id);
    if (!seen || (seen.max !== null && (f.max === null || f.max > seen.max))) byKey.set(id, f);
  }
  return [...byKey.values()];
}

/** Every algorithm's params and every step's options, from the registries. */
export function everySchema(): { owner: string; kind: "algorithm" | "step"; name: string; schema: z.ZodType }[] {
  return [
    ...listAlgorithms().map((a) => ({ owner: `algorithm ${a.name}`, kind: "algorithm" as const, name: a.name, schema: a.params })),
    ...listSteps().map((s) => ({ owner: `step ${s.name}`, kind: "step" as const, name: s.name, schema: s.spec })),
  ];
}
