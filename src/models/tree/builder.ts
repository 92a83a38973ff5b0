/**
 * The tree while it grows and is pruned: growable per-node arrays plus the split
 * rule of each internal node. `freeze` renumbers the reachable nodes (pruning turns
 * internal nodes into leaves and orphans their subtrees) into the flat state.
 */
import type { SplitRule } from "./arena.js";
import type { Candidate } from "./split-search.js";
import type { ColumnSchema } from "../../data/frame.js";
import type { Criterion, TreeState } from "./tree-state.js";
import { LEAF } from "./tree-state.js";

export class TreeBuilder {
  readonly kind: number[] = [];
  readonly rule: (SplitRule | null)[] = [];
  readonly childStart: number[] = [];
  readonly childCount: number[] = [];
  readonly parent: number[] = [];
  readonly branchFraction: number[] = [];
  readonly samples: number[] = [];
  readonly impurity: number[] = [];
  readonly score: number[] = [];
  readonly value: number[] = [];
  /**
   * Per split node, its attribute candidates as the state keeps them (feature, score,
   * threshold; in feature order): entries [candFrom, candFrom + candCount) of the three flat
   * lists. Not the Candidate objects: their rules (a categorical one holds its level arrays)
   * would live as long as the tree, and a large tree's thousands of them made every
   * collection slow; nor an object per candidate, which the collector also paid for.
   */
  private readonly candFrom: number[] = [];
  private readonly candCount: number[] = [];
  /** Typed and grown by doubling: pushes of a score and a threshold per candidate onto plain arrays were most of setSplit. */
  private candF = new Int32Array(256);
  private candS = new Float64Array(256);
  private candT = new Float64Array(256);
  private candLength = 0;
  /** A perceptron leaf's model (leaf-model.ts layout), set after pruning; null elsewhere. */
  readonly leafModel: (Float64Array | null)[] = [];

  /** `width` numbers of `value` per node: K class weights, or 1 mean. */
  constructor(readonly width: number) {}

  get size(): number {
    return this.kind.length;
  }

  add(parent: number, fraction: number, samples: number, impurity: number, value: ArrayLike<number>): number {
    const id = this.kind.length;
    this.kind.push(LEAF);
    this.rule.push(null);
    this.childStart.push(-1);
    this.childCount.push(0);
    this.parent.push(parent);
    this.branchFraction.push(fraction);
    this.samples.push(samples);
    this.impurity.push(impurity);
    this.score.push(NaN);
    for (let k = 0; k < this.width; k++) this.value.push(value[k]);
    this.candFrom.push(-1);
    this.candCount.push(0);
    this.leafModel.push(null);
    return id;
  }

  valueOf(node: number): number[] {
    return this.value.slice(node * this.width, (node + 1) * this.width);
  }

  setSplit(node: number, chosen: Candidate, candidates: readonly Candidate[], firstChild: number): void {
    this.kind[node] = chosen.rule.kind;
    this.rule[node] = chosen.rule;
    this.score[node] = chosen.score;
    this.childStart[node] = firstChild;
    this.childCount[node] = chosen.rule.nBranches;
    // An oblique candidate is not an attribute: its score is the split's own; the attribute candidates stay for comparison.
    let inOrder = true;
    for (let i = 0, prev = -1; i < candidates.length && inOrder; i++) {
      const f = candidates[i].feature;
      if (f < 0) continue;
      inOrder = f > prev;
      prev = f;
    }
    // The grower judges features in column order unless max_features draws them at random.
    const list = inOrder ? candidates : [...candidates].sort((a, b) => a.feature - b.feature);
    if (this.candLength + list.length > this.candF.length) this.growCandidates(this.candLength + list.length);
    const { candF, candS, candT } = this;
    let at = this.candLength;
    this.candFrom[node] = at;
    for (const c of list) {
      if (c.feature < 0) continue;
      candF[at] = c.feature;
      candS[at] = c.score;
      candT[at] = c.threshold;
      at++;
    }
    this.candCount[node] = at - this.candFrom[node];
    this.candLength = at;
  }

  private growCandidates(atLeast: number): void {
    const size = Math.max(atLeast, 2 * this.candF.length);
    const f = new Int32Array(size);
    const sc = new Float64Array(size);
    const t = new Float64Array(size);
    f.set(this.candF);
    sc.set(this.candS);
    t.set(this.candT);
    this.candF = f;
    this.candS = sc;
    this.candT = t;
  }

  makeLeaf(node: number): void {
    this.kind[node] = LEAF;
  }

  freeze(head: { task: "classification" | "regression"; criterion: Criterion; entropy_base: 2 | "e"; features: ColumnSchema[]; classes: string[]; featureScale: Float64Array<ArrayBuffer> }): TreeState {
    const order: number[] = [0];
    for (let q = 0; q < order.length; q++) {
      const i = order[q];
      if (this.kind[i] === LEAF) continue;
      for (let c = 0; c < this.childCount[i]; c++) order.push(this.childStart[i] + c);
    }
    const n = order.length;
    const newId = new Int32Array(this.kind.length);
    for (let i = 0; i < n; i++) newId[order[i]] = i;
    // Level maps are a column's level count each (hundreds for a name column): one buffer, sized first, not pushes.
    // The candidate lists too: typed arrays of the final length, written in place (pushes onto growing arrays were most of freeze).
    let mapLength = 0;
    let candLength = 0;
    for (const old of order) {
      const rule = this.rule[old];
      if (this.kind[old] === LEAF || !rule) continue;
      if (rule.levelMap) mapLength += rule.levelMap.length;
      candLength += this.candCount[old];
    }
    const levelMap = new Int32Array(mapLength);
    let mapAt = 0;
    const W = this.width;
    const d = head.features.length;
    const s = {
      ...head,
      kind: new Uint8Array(n),
      feature: new Int32Array(n).fill(-1),
      threshold: new Float64Array(n).fill(NaN),
      childStart: new Int32Array(n).fill(-1),
      childCount: new Int32Array(n),
      mapOffset: new Int32Array(n).fill(-1),
      branchFraction: new Float64Array(n),
      samples: new Float64Array(n),
      impurity: new Float64Array(n),
      score: new Float64Array(n).fill(NaN),
      value: new Float64Array(n * W),
      candOffset: new Int32Array(n + 1),
    };
    const oblique: number[] = [];
    const candFeature = new Int32Array(candLength);
    const candScore = new Float64Array(candLength);
    const candThreshold = new Float64Array(candLength);
    let candAt = 0;
    const leafModelOffset = new Int32Array(n).fill(-1);
    const leafModels: number[] = [];
    order.forEach((old, i) => {
      const model = this.kind[old] === LEAF ? this.leafModel[old] : null;
      if (model) {
        leafModelOffset[i] = leafModels.length;
        for (let q = 0; q < model.length; q++) leafModels.push(model[q]);
      }
      s.branchFraction[i] = this.branchFraction[old];
      s.samples[i] = this.samples[old];
      s.impurity[i] = this.impurity[old];
      for (let k = 0; k < W; k++) s.value[i * W + k] = this.value[old * W + k];
      const rule = this.rule[old];
      if (this.kind[old] !== LEAF && rule) {
        s.kind[i] = rule.kind;
        s.feature[i] = rule.feature;
        s.threshold[i] = rule.threshold;
        s.childStart[i] = newId[this.childStart[old]];
        s.childCount[i] = this.childCount[old];
        s.score[i] = this.score[old];
        if (rule.levelMap) {
          s.mapOffset[i] = mapAt;
          levelMap.set(rule.levelMap, mapAt);
          mapAt += rule.levelMap.length;
        } else if (rule.weights) {
          s.mapOffset[i] = oblique.length;
          for (let j = 0; j < d; j++) oblique.push(rule.weights[j]);
        }
        const { candF, candS, candT } = this;
        for (let c = this.candFrom[old], e = c + this.candCount[old]; c < e; c++) {
          candFeature[candAt] = candF[c];
          candScore[candAt] = candS[c];
          candThreshold[candAt] = candT[c];
          candAt++;
        }
      }
      s.candOffset[i + 1] = candAt;
    });
    return {
      ...s,
      levelMap,
      obliqueWeights: Float64Array.from(oblique),
      candFeature,
      candScore,
      candThreshold,
      // Only a tree with perceptron leaves carries the fields: every other artifact stays as it was.
      ...(leafModels.length > 0 ? { leafModelOffset, leafModels: Float64Array.from(leafModels) } : {}),
    };
  }
}
