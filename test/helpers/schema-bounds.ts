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
  /**
   * Tag values of the tagged-union branches on the way to the field, nested where they
   * belong (`{ solver: "adam" }`, `{ cut: { kind: "n_clusters" } }`), to send beside it.
   */
  readonly branch: Readonly<Record<string, unknown>>;
}

function maximumOf(s: JsonSchema, field: "maximum" | "maxItems"): number | null {
  // A literal (entropy_base's 2) or an enum of numbers is bounded by its values.
  if (field === "maximum" && typeof s.const === "number") return s.const;
  if (field === "maximum" && Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v) => typeof v === "number")) return Math.max(...(s.enum as number[]));
  const m = (s[field] ?? (field === "maximum" ? s.exclusiveMaximum : undefined)) as number | undefined;
  return typeof m === "number" && m < Number.MAX_SAFE_INTEGER ? m : null;
}

/** The single-valued properties of an object branch: the tag(s) that select it in a tagged union. */
function tagsOf(schema: JsonSchema): Record<string, unknown> {
  const tags: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    if (sub && "const" in sub) tags[name] = sub.const;
    else if (Array.isArray(sub?.enum) && sub.enum.length === 1) tags[name] = sub.enum[0];
  }
  return tags;
}

function walk(s: unknown, key: string, description: string | undefined, branch: Record<string, unknown>, out: NumericField[]): void {
  if (s === null || typeof s !== "object") return;
  const schema = s as JsonSchema;
  const described = (schema.description as string | undefined) ?? description;
  for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(schema[k])) for (const b of schema[k] as unknown[]) walk(b, key, described, branch, out);
  if (schema.type === "integer" || schema.type === "number") out.push({ key, kind: schema.type, max: maximumOf(schema, "maximum"), description: described, branch });
  if (schema.properties) {
    // A union's tag travels with its own object: params.solver at the top, params.cut.kind inside cut.
    const tags = placeTags(branch, key, tagsOf(schema));
    for (const [name, sub] of Object.entries(schema.properties as Record<string, unknown>)) walk(sub, key ? `${key}.${name}` : name, undefined, tags, out);
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") walk(schema.additionalProperties, `${key}{}`, described, branch, out);
  if (schema.type === "array" && schema.items && typeof schema.items === "object") {
    const items = schema.items as JsonSchema;
    if (items.type === "integer" || items.type === "number") out.push({ key, kind: "length", max: maximumOf(schema, "maxItems"), description: described, branch });
    walk(items, `${key}[]`, described, branch, out);
  }
}

function placeTags(branch: Record<string, unknown>, key: string, tags: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(tags).length === 0 || key.includes("[]") || key.includes("{}")) return branch; // no single object to put them in
  return mergeDeep(branch, nest(key === "" ? [] : key.split("."), tags)) as Record<string, unknown>;
}

/** `["cut", "n_clusters"], 5` → `{ cut: { n_clusters: 5 } }`. */
export function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((acc, k) => ({ [k]: acc }), value);
}

/** b over a, objects merged key by key (arrays and scalars of b replace a's). */
export function mergeDeep(a: unknown, b: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(a) || !isObject(b)) return b;
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? mergeDeep(out[k], v) : v;
  return out;
}

export function numericFields(schema: z.ZodType): NumericField[] {
  const out: NumericField[] = [];
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }), "", undefined, {}, out);
  // A field in several branches (a union member, a tagged union's shared option) is listed once per branch; keep the loosest.
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
