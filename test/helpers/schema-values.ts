/**
 * Values a hostile or careless client would send for a field, derived from the
 * field's JSON Schema (as GET /v1/algorithms, GET /v1/steps and the OpenAPI
 * document publish it): every bound, one past it, huge and negative numbers,
 * each enum member and a non-member, wrong types, long and nested values.
 * scikit-learn's `_param_validation.py` derives invalid values from declared
 * constraints the same way; here the constraints are the published schemas.
 */
import fc from "fast-check";

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  default?: unknown;
};

/**
 * A number JSON can carry but JSON.stringify cannot write (1e400 parses to
 * Infinity): stand-in strings replaced in the payload text by `encodeBody`.
 */
export const RAW_NUMBERS = { "__raw_1e400__": "1e400", "__raw_-1e400__": "-1e400", "__raw_1e-400__": "1e-400" } as const;

export function encodeBody(body: unknown): string {
  let text = JSON.stringify(body) ?? "null";
  for (const [marker, raw] of Object.entries(RAW_NUMBERS)) text = text.split(JSON.stringify(marker)).join(raw);
  return text;
}

const HUGE = [1e9, 5e9, 1e15, 2 ** 53 + 2, 1e308, -1e308, Number.MAX_VALUE, 5e-324, ...Object.keys(RAW_NUMBERS)];
const SMALL = [0, -1, 1, 0.5];

/** Nested `depth` levels, below the body-depth limit: recursion that survives it must not blow up either. */
export function nested(depth: number, leaf: unknown = 1, asObject = false): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
}

export const WRONG_TYPES: unknown[] = [null, true, false, "1", "", "x".repeat(5000), "__proto__", [], [1], [[1, 2], [3]], {}, { a: 1 }, JSON.parse('{"__proto__": {"polluted": 1}}'), nested(40), nested(40, 1, true)];

function branches(schema: JsonSchema): JsonSchema[] {
  const alts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return [schema, ...alts.flatMap(branches)];
}

function types(schema: JsonSchema): Set<string> {
  const out = new Set<string>();
  for (const b of branches(schema)) for (const t of [b.type ?? []].flat()) out.add(t);
  return out;
}

function numberBoundaries(schema: JsonSchema, integer: boolean): number[] {
  const out: number[] = [];
  for (const b of branches(schema)) {
    for (const bound of [b.minimum, b.maximum, b.exclusiveMinimum, b.exclusiveMaximum]) {
      if (bound === undefined || !Number.isFinite(bound) || Math.abs(bound) >= Number.MAX_SAFE_INTEGER) continue;
      out.push(bound, bound - 1, bound + 1, bound * 10, bound === 0 ? 1e-12 : bound * (1 + 1e-9), bound === 0 ? -1e-12 : bound * (1 - 1e-9));
      if (integer) out.push(bound + 0.5);
    }
  }
  return out;
}

export interface SampleOptions {
  /** How many values of a type the field does not take (all when omitted); they exercise one type check, so a few suffice per field. */
  wrongTypes?: number;
  /** Where in the wrong-type list to start, so successive fields cover all of it. */
  offset?: number;
}

/** Every boundary and hostile value for one field (duplicates removed by JSON text). */
export function boundaryValues(schema: JsonSchema, options: SampleOptions = {}, depth = 0): unknown[] {
  const values: unknown[] = [];
  const t = types(schema);
  const integer = t.has("integer");
  const numeric = integer || t.has("number");
  if (numeric) values.push(...numberBoundaries(schema, integer), ...SMALL, ...HUGE);
  for (const b of branches(schema)) {
    if (b.enum) values.push(...b.enum, "nope", String(b.enum[0]).toUpperCase());
    if (b.const !== undefined) values.push(b.const);
    if (b.type === "string") {
      if (b.minLength !== undefined) values.push("y".repeat(Math.max(0, b.minLength - 1)));
      if (b.maxLength !== undefined && b.maxLength < 100_000) values.push("y".repeat(b.maxLength + 1));
    }
    if (b.type === "array" && depth < 2) {
      const items = b.items ? boundaryValues(b.items, options, depth + 1) : [1];
      const valid = b.items ? sampleValid(b.items) : 1;
      values.push([], [valid], items.slice(0, 24), ...items.slice(0, 12).map((v) => [v]));
      if (b.maxItems !== undefined && b.maxItems < 100_000) values.push(Array(b.maxItems + 1).fill(valid));
      if (b.minItems !== undefined && b.minItems > 0) values.push(Array(b.minItems - 1).fill(valid));
      values.push(Array(10_000).fill(valid));
    }
    if (b.type === "object" && depth < 2) {
      values.push({});
      const props = Object.entries(b.properties ?? {});
      const base = Object.fromEntries(props.filter(([k]) => b.required?.includes(k)).map(([k, s]) => [k, sampleValid(s)]));
      values.push(base, { ...base, unknown_key: 1 });
      for (const [k, s] of props) for (const v of boundaryValues(s, options, depth + 1).slice(0, 16)) values.push({ ...base, [k]: v });
      if (b.additionalProperties && typeof b.additionalProperties === "object") {
        for (const v of boundaryValues(b.additionalProperties, options, depth + 1).slice(0, 8)) values.push({ k: v });
      }
    }
  }
  const wrong = numeric ? WRONG_TYPES : [...WRONG_TYPES, ...SMALL, ...HUGE];
  const take = Math.min(options.wrongTypes ?? wrong.length, wrong.length);
  for (let i = 0; i < take; i++) values.push(wrong[((options.offset ?? 0) + i) % wrong.length]);
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = encodeBody(v) + typeof v;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One value the schema accepts (its default when it has one). */
export function sampleValid(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alt = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alt) return sampleValid(alt);
  switch ([schema.type].flat()[0]) {
    case "integer":
    case "number": {
      const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      return schema.maximum !== undefined ? Math.min(lo, schema.maximum) : lo;
    }
    case "boolean":
      return true;
    case "string":
      return "a".repeat(Math.max(1, schema.minLength ?? 1));
    case "array":
      return Array(schema.minItems ?? 0).fill(schema.items ? sampleValid(schema.items) : 1);
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => schema.required?.includes(k)).map(([k, s]) => [k, sampleValid(s)]));
    default:
      return null;
  }
}

/** Resolves local `$ref`s ("#/components/schemas/X") against the document, to a bounded depth. */
export function resolveRefs(schema: JsonSchema, doc: { components?: { schemas?: Record<string, JsonSchema> } }, depth = 0): JsonSchema {
  if (depth > 8) return {};
  if (schema.$ref) {
    const name = schema.$ref.split("/").at(-1)!;
    return resolveRefs(doc.components?.schemas?.[name] ?? {}, doc, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.items) out.items = resolveRefs(schema.items, doc, depth + 1);
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, resolveRefs(s, doc, depth + 1)]));
  for (const key of ["anyOf", "oneOf", "allOf"] as const) if (schema[key]) out[key] = schema[key]!.map((s) => resolveRefs(s, doc, depth + 1));
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") out.additionalProperties = resolveRefs(schema.additionalProperties, doc, depth + 1);
  return out;
}

/**
 * Random values for a schema: mostly shaped like it (right keys, boundary or
 * random leaves) so requests get past the first check, sometimes anything at all.
 */
export function arbitraryFor(schema: JsonSchema, depth = 0, overrides: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<unknown> {
  const boundary = boundaryValues(schema, { wrongTypes: 6 });
  const anything = fc.anything({ maxDepth: 2, maxKeys: 3, withNullPrototype: false });
  const shaped: fc.Arbitrary<unknown>[] = [];
  if (depth < 4) {
    for (const b of branches(schema)) {
      if (b.type === "object" && b.properties) {
        // A named field (an id, rows with real column names) can be steered to values that get past the first check.
        const props = Object.fromEntries(Object.entries(b.properties).map(([k, s]) => [k, overrides[k] ? fc.oneof({ weight: 3, arbitrary: overrides[k] }, arbitraryFor(s, depth + 1)) : arbitraryFor(s, depth + 1, overrides)]));
        shaped.push(fc.record(props, { requiredKeys: [] }));
      }
      if (b.type === "array") shaped.push(fc.array(b.items ? arbitraryFor(b.items, depth + 1, overrides) : anything, { maxLength: 4 }));
      if (b.type === "number") shaped.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
      if (b.type === "integer") shaped.push(fc.integer());
      if (b.type === "string") shaped.push(fc.string({ maxLength: 8 }));
    }
  }
  return fc.oneof(
    { weight: 4, arbitrary: shaped.length ? fc.oneof(...shaped) : fc.constantFrom(...boundary) },
    { weight: 3, arbitrary: fc.constantFrom(...boundary) },
    { weight: 1, arbitrary: anything },
  );
}
