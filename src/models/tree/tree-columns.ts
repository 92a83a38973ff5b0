/**
 * The feature columns a tree reads, resolved once per fit or predict call:
 * numeric values or categorical codes by feature index, in the order of the
 * schema the tree was fitted on. At predict time a categorical column whose
 * levels differ from the fitted ones is recoded (unseen levels become missing),
 * so the walk itself never looks anything up by name.
 */
import type { ColumnSchema, Frame } from "../../data/frame.js";
import { frameSchema } from "../../data/frame.js";
import { UnusableInputError } from "../contract.js";

export interface TreeColumns {
  readonly n: number;
  readonly schema: readonly ColumnSchema[];
  /** Per feature: its values if numeric, else null. */
  readonly num: readonly (Float64Array | null)[];
  /** Per feature: its codes (-1 = missing) if categorical, else null. */
  readonly cat: readonly (Int32Array | null)[];
  /** Per feature: number of levels (0 for numeric). */
  readonly nLevels: Int32Array;
}

export function columnsForFit(X: Frame): TreeColumns {
  return columnsFor(frameSchema(X), X);
}

// Per-schema facts computed once: single-row predicts call columnsFor on every request.
const levelCounts = new WeakMap<readonly ColumnSchema[], Int32Array>();

function levelCountsOf(schema: readonly ColumnSchema[]): Int32Array {
  let counts = levelCounts.get(schema);
  if (!counts) {
    counts = Int32Array.from(schema, (s) => (s.type === "categorical" ? s.levels.length : 0));
    levelCounts.set(schema, counts);
  }
  return counts;
}

export function columnsFor(schema: readonly ColumnSchema[], X: Frame): TreeColumns {
  const d = schema.length;
  const num: (Float64Array | null)[] = [];
  const cat: (Int32Array | null)[] = [];
  // Match by position first, by name only when the order differs.
  let inOrder = X.columns.length >= d;
  for (let j = 0; inOrder && j < d; j++) inOrder = X.columns[j].name === schema[j].name;
  const byName = inOrder ? null : new Map(X.columns.map((c) => [c.name, c]));
  for (let j = 0; j < d; j++) {
    const s = schema[j];
    const c = byName ? byName.get(s.name) : X.columns[j];
    if (!c) throw new UnusableInputError(`missing feature column ${s.name}`);
    if (c.type !== s.type) throw new UnusableInputError(`feature ${s.name} is ${c.type}, the model was fitted on ${s.type}`);
    if (c.type === "numeric") {
      num.push(c.values);
      cat.push(null);
      continue;
    }
    const levels = (s as { levels: string[] }).levels;
    num.push(null);
    cat.push(sameLevels(c.levels, levels) ? c.codes : recode(c.codes, c.levels, levels));
  }
  return { n: X.rowCount, schema, num, cat, nLevels: levelCountsOf(schema) };
}

function sameLevels(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function recode(codes: Int32Array, from: readonly string[], to: readonly string[]): Int32Array {
  const index = new Map(to.map((l, i) => [l, i]));
  const table = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) table[i] = index.get(from[i]) ?? -1;
  const out = new Int32Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    out[i] = c >= 0 && c < table.length ? table[c] : -1;
  }
  return out;
}
