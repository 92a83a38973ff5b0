/** Inputs a tree derives from the request before growing: class weights, the feature quota, the pruning hold-out. */
import type { Target } from "../contract.js";
import { UnusableInputError } from "../contract.js";
import type { Rng } from "../../data/random.js";
import type { TreeColumns } from "./tree-columns.js";

/** Weight per class index; "balanced" is scikit-learn's n / (K · count). */
export function classWeights(spec: "balanced" | Record<string, number> | null, y: Int32Array, classes: readonly string[]): Float64Array | null {
  if (spec === null) return null;
  const K = classes.length;
  const out = new Float64Array(K).fill(1);
  if (spec === "balanced") {
    const count = new Float64Array(K);
    for (let i = 0; i < y.length; i++) count[y[i]]++;
    for (let k = 0; k < K; k++) out[k] = count[k] > 0 ? y.length / (K * count[k]) : 1;
    return out;
  }
  for (const [label, weight] of Object.entries(spec)) {
    const k = classes.indexOf(label);
    if (k < 0) throw new UnusableInputError(`class_weight names ${label}, which is not a class of the target`);
    out[k] = weight;
  }
  return out;
}

export function resolveMaxFeatures(spec: number | "sqrt" | "log2" | null, d: number): number {
  if (spec === null) return d;
  if (spec === "sqrt") return Math.max(1, Math.floor(Math.sqrt(d)));
  if (spec === "log2") return Math.max(1, Math.floor(Math.log2(d)));
  return Math.max(1, Math.min(d, spec));
}

export function hasMissing(cols: TreeColumns): boolean {
  for (let f = 0; f < cols.schema.length; f++) {
    const v = cols.num[f];
    const c = cols.cat[f];
    for (let i = 0; i < cols.n; i++) if (v ? Number.isNaN(v[i]) : (c as Int32Array)[i] < 0) return true;
  }
  return false;
}

/**
 * Rows to grow on and rows to prune with: a seeded draw of `fraction` of the rows,
 * stratified by class so that each class keeps its share on both sides.
 */
export function holdOut(n: number, fraction: number, target: Target, rng: Rng, explicit?: Int32Array): { grow: Int32Array; validation: Int32Array } {
  const isVal = new Uint8Array(n);
  if (explicit) {
    for (const r of explicit) {
      if (!(r >= 0 && r < n)) throw new UnusableInputError("validation row out of range");
      isVal[r] = 1;
    }
  } else {
    const groups: number[][] = [];
    if (target.task === "classification") {
      for (let k = 0; k < target.classes.length; k++) groups.push([]);
      for (let i = 0; i < n; i++) groups[target.y[i]].push(i);
    } else groups.push(Array.from({ length: n }, (_, i) => i));
    for (const g of groups) {
      for (let i = g.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [g[i], g[j]] = [g[j], g[i]];
      }
      const take = Math.min(g.length - 1, Math.round(g.length * fraction));
      for (let i = 0; i < take; i++) isVal[g[i]] = 1;
    }
  }
  const grow: number[] = [];
  const validation: number[] = [];
  for (let i = 0; i < n; i++) (isVal[i] ? validation : grow).push(i);
  if (grow.length === 0) throw new UnusableInputError("no rows left to grow the tree after holding out the validation rows");
  return { grow: Int32Array.from(grow), validation: Int32Array.from(validation) };
}
