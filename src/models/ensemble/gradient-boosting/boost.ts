/**
 * The boosting loop (scikit-learn's `gradient_boosting.py`, LightGBM's `src/boosting/gbdt.cpp`):
 *
 *   bin the training rows once → raw = baseline → per iteration:
 *     gradients/hessians of the loss at raw → (row sample) → per output k:
 *       (feature sample) → grow a tree on (g_k, h_k) → raw_k += tree
 *     → losses on training and validation rows → early stop?
 *
 * Trees are flattened into the state's arrays as they are grown, with bin
 * thresholds turned back into raw-value thresholds (binning.ts), so the fitted
 * model predicts on raw values and carries no bins.
 */
import type { FitContext, TrainingSet } from "../../contract.js";
import { throwIfAborted, UnusableInputError } from "../../contract.js";
import { holdOut } from "../../tree/fit-inputs.js";
import { columnsForFit } from "../../tree/tree-columns.js";
import type { Rng } from "../../../data/random.js";
import { applyBins, fitBins, type BinMapper } from "./binning.js";
import { growTree, leafOfBinned, type GrownTree } from "./grower.js";
import { countHistogram, histogramSize, HistogramPool } from "./histogram.js";
import { createSimdHistogramSpace } from "./simd-histogram.js";
import { makeLoss, weightedMedian, type LossData, type LossName } from "./losses.js";
import type { GradientBoostingParams } from "./params.js";
import { CATEGORICAL, MISSING_LEFT, type BoosterState } from "./state.js";

/**
 * Histogram buffers kept in the SIMD kernels' memory (simd-histogram.ts), allocated up front:
 * enough for trees of 62 leaves, within 64 MiB (d × 256 × 24 bytes each). Histograms beyond
 * them are ordinary arrays built by the JavaScript kernels.
 */
const SIMD_HISTOGRAMS = 64;
const SIMD_HISTOGRAM_BYTES = 64 * 2 ** 20;
/** scikit-learn's early_stopping="auto" threshold. */
const AUTO_EARLY_STOPPING_ROWS = 10_000;
const REGRESSION_LOSSES: readonly LossName[] = ["squared_error", "absolute_error", "huber"];

/** Growing copies of the state's node arrays. */
class Forest {
  feature: number[] = [];
  threshold: number[] = [];
  flags: number[] = [];
  left: number[] = [];
  right: number[] = [];
  value: number[] = [];
  gain: number[] = [];
  catOffset: number[] = [];
  catLeft: number[] = [];
  treeStart: number[] = [0];

  add(t: GrownTree, mapper: BinMapper): void {
    const base = this.feature.length;
    for (let i = 0; i < t.feature.length; i++) {
      const f = t.feature[i];
      this.feature.push(f);
      this.left.push(f < 0 ? -1 : base + t.left[i]);
      this.right.push(f < 0 ? -1 : base + t.right[i]);
      this.value.push(t.value[i]);
      this.gain.push(t.gain[i]);
      let flags = t.missingLeft[i] ? MISSING_LEFT : 0;
      let threshold = 0;
      let offset = -1;
      if (f >= 0 && t.categorical[i]) {
        flags |= CATEGORICAL;
        offset = this.catLeft.length;
        const map = mapper.levelBin[f] as Int32Array;
        const goLeft = t.goLeft[i] as Uint8Array;
        for (let l = 0; l < map.length; l++) this.catLeft.push(map[l] < 0 ? (t.missingLeft[i] ? 1 : 0) : goLeft[map[l]]);
      } else if (f >= 0) {
        const edges = mapper.thresholds[f] as Float64Array;
        // The last real bin has no upper edge: that split is "present vs missing".
        threshold = t.binThreshold[i] < edges.length ? edges[t.binThreshold[i]] : Number.MAX_VALUE;
      }
      this.flags.push(flags);
      this.threshold.push(threshold);
      this.catOffset.push(offset);
    }
    this.treeStart.push(this.feature.length);
  }
}

/** Seeded Bernoulli row sample, ascending (so histogram gathers read rows in order); never empty. */
function sampleRows(n: number, fraction: number, rng: Rng, out: Int32Array): number {
  if (fraction >= 1) {
    for (let i = 0; i < n; i++) out[i] = i;
    return n;
  }
  let m = 0;
  for (let i = 0; i < n; i++) if (rng.next() < fraction) out[m++] = i;
  if (m === 0) out[m++] = rng.int(n);
  return m;
}

/** Seeded feature sample for one tree, ascending; at least one. */
function sampleFeatures(d: number, fraction: number, rng: Rng): Int32Array {
  const all = Int32Array.from({ length: d }, (_, j) => j);
  if (fraction >= 1) return all;
  const take = Math.max(1, Math.round(fraction * d));
  for (let i = 0; i < take; i++) {
    const j = i + rng.int(d - i);
    const t = all[i];
    all[i] = all[j];
    all[j] = t;
  }
  return all.subarray(0, take).sort();
}

export function fitBooster(train: TrainingSet, p: GradientBoostingParams, ctx: FitContext): BoosterState {
  const target = train.target;
  if (!target) throw new UnusableInputError("gradient_boosting needs a target");
  const classification = target.task === "classification";
  const lossName: LossName = p.loss ?? (classification ? "log_loss" : "squared_error");
  if (classification && lossName !== "log_loss") throw new UnusableInputError(`loss ${lossName} is for regression; classification uses log_loss`);
  if (!classification && !REGRESSION_LOSSES.includes(lossName)) throw new UnusableInputError(`loss ${lossName} is for classification; regression uses ${REGRESSION_LOSSES.join(", ")}`);
  const C = classification ? target.classes.length : 0;
  if (classification && C < 2) throw new UnusableInputError("gradient_boosting needs at least two classes");
  const cols = columnsForFit(train.X);
  const n = cols.n;
  if (n === 0) throw new UnusableInputError("gradient_boosting needs at least one training row");
  const d = cols.schema.length;

  const early = p.early_stopping === "auto" ? n > AUTO_EARLY_STOPPING_ROWS : p.early_stopping;
  let trainRows: Int32Array = Int32Array.from({ length: n }, (_, i) => i);
  let valRows: Int32Array = new Int32Array(0);
  if (early && n >= 2) {
    const split = holdOut(n, p.validation_fraction, target, ctx.rng);
    trainRows = split.grow;
    valRows = split.validation;
  }
  const mapper = fitBins(cols, trainRows, p.max_bins);
  const nt = trainRows.length;
  // Histograms a tree holds at once: one per pending leaf, plus the two of a split in progress.
  const leaves = Math.min(p.max_leaf_nodes, Math.ceil(nt / p.min_samples_leaf));
  const slots = Math.min(leaves + 2, SIMD_HISTOGRAMS, Math.floor(SIMD_HISTOGRAM_BYTES / (8 * histogramSize(d, p.max_bins))));
  const simd = slots >= 3 ? createSimdHistogramSpace(nt, d, histogramSize(d, p.max_bins), slots) : null;
  let bins = applyBins(mapper, cols, trainRows);
  if (simd) {
    bins.forEach((col, f) => simd.bins[f].set(col));
    bins = simd.bins;
  }
  const valBins = applyBins(mapper, cols, valRows);
  const take = (rows: Int32Array): LossData => ({
    y: Float64Array.from(rows, (r) => target.y[r]),
    w: train.weights ? Float64Array.from(rows, (r) => (train.weights as Float64Array)[r]) : null,
  });
  const tr = take(trainRows);
  const va = take(valRows);
  const nv = valRows.length;

  const loss = makeLoss(lossName, C, p.huber_quantile);
  const K = loss.outputs;
  const baseline = loss.baseline(tr);
  const raw = new Float64Array(K * nt);
  const rawVal = new Float64Array(K * nv);
  for (let k = 0; k < K; k++) {
    raw.fill(baseline[k], k * nt, (k + 1) * nt);
    rawVal.fill(baseline[k], k * nv, (k + 1) * nv);
  }
  const g = new Float64Array(K * nt);
  const h = new Float64Array(K * nt);
  const rows = simd ? simd.rows : new Int32Array(nt);
  const sample = new Int32Array(nt);
  const scratch = new Int32Array(nt);
  const og = new Float64Array(nt);
  const oh = new Float64Array(nt);
  const pool = new HistogramPool(histogramSize(d, p.max_bins), simd?.histograms);
  const rootCounts = countHistogram(bins, p.max_bins);
  const grow = { maxLeafNodes: p.max_leaf_nodes, maxDepth: p.max_depth, learningRate: p.learning_rate, l2: p.l2_regularization, minSplitGain: p.min_split_gain, minChildWeight: p.min_child_weight, minSamplesLeaf: p.min_samples_leaf };

  const forest = new Forest();
  // trainLoss[t]: the loss after t iterations, computed by the gradient pass of iteration t + 1 (the last one after the loop).
  const trainLoss: number[] = [];
  const validationLoss = nv > 0 ? [loss.value(va, rawVal)] : null;
  let iterations = 0;
  for (let it = 0; it < p.max_iter; it++) {
    throwIfAborted(ctx.signal);
    trainLoss.push(loss.gradients(tr, raw, g, h));
    const m = sampleRows(nt, p.subsample, ctx.rng, sample);
    for (let k = 0; k < K; k++) {
      // Each tree starts from the sample in row order (the grower partitions rows in place).
      rows.set(sample.subarray(0, m));
      const features = sampleFeatures(d, p.colsample, ctx.rng);
      const gk = g.subarray(k * nt, (k + 1) * nt);
      const hk = h.subarray(k * nt, (k + 1) * nt);
      if (simd) {
        const gh = simd.gh;
        for (let i = 0; i < nt; i++) {
          gh[2 * i] = gk[i];
          gh[2 * i + 1] = hk[i];
        }
      }
      const tree = growTree({ bins, mapper, features, g: gk, h: hk, rootCounts, rows, m, scratch, og, oh, simd }, grow, pool, ctx.signal);
      const rk = raw.subarray(k * nt, (k + 1) * nt);
      if (loss.medianLeaves) medianLeaves(tree, rows, tr, rk, p.learning_rate);
      if (m === nt) {
        for (let leaf = 0; leaf < tree.feature.length; leaf++) {
          if (tree.feature[leaf] >= 0) continue;
          const v = tree.value[leaf];
          for (let i = tree.start[leaf]; i < tree.end[leaf]; i++) rk[rows[i]] += v;
        }
      } else {
        for (let i = 0; i < nt; i++) rk[i] += tree.value[leafOfBinned(tree, bins, i)];
      }
      for (let i = 0; i < nv; i++) rawVal[k * nv + i] += tree.value[leafOfBinned(tree, valBins, i)];
      forest.add(tree, mapper);
    }
    iterations++;
    if (validationLoss) {
      validationLoss.push(loss.value(va, rawVal));
      if (noImprovement(validationLoss, p.n_iter_no_change, p.tol)) break;
    }
    ctx.progress((it + 1) / p.max_iter);
  }

  trainLoss.push(loss.value(tr, raw));
  return {
    task: classification ? "classification" : "regression",
    loss: lossName,
    classes: classification ? [...target.classes] : [],
    features: cols.schema.map((s) => (s.type === "categorical" ? { name: s.name, type: "categorical" as const, levels: [...s.levels] } : { name: s.name, type: "numeric" as const })),
    outputs: K,
    baseline: Float64Array.from(baseline),
    iterations,
    treeStart: Int32Array.from(forest.treeStart),
    feature: Int32Array.from(forest.feature),
    threshold: Float64Array.from(forest.threshold),
    flags: Uint8Array.from(forest.flags),
    left: Int32Array.from(forest.left),
    right: Int32Array.from(forest.right),
    value: Float64Array.from(forest.value),
    gain: Float64Array.from(forest.gain),
    catOffset: Int32Array.from(forest.catOffset),
    catLeft: Uint8Array.from(forest.catLeft),
    trainLoss: Float64Array.from(trainLoss),
    validationLoss: validationLoss ? Float64Array.from(validationLoss) : null,
  };
}

/**
 * scikit-learn's rule: stop when none of the last n losses beats the one before them by more than tol
 * (the list starts with the baseline's loss).
 */
export function noImprovement(losses: readonly number[], n: number, tol: number): boolean {
  if (losses.length <= n) return false;
  const reference = losses[losses.length - n - 1];
  for (let i = losses.length - n; i < losses.length; i++) if (losses[i] < reference - tol) return false;
  return true;
}

/** absolute_error: each leaf outputs the weighted median of its rows' residuals, shrunk (the gradient signs only chose the splits). */
function medianLeaves(tree: GrownTree, rows: Int32Array, d: LossData, raw: Float64Array, lr: number): void {
  for (let leaf = 0; leaf < tree.feature.length; leaf++) {
    if (tree.feature[leaf] >= 0) continue;
    const s = tree.start[leaf];
    const e = tree.end[leaf];
    const r = new Float64Array(e - s);
    const w = d.w ? new Float64Array(e - s) : null;
    for (let i = s; i < e; i++) {
      r[i - s] = d.y[rows[i]] - raw[rows[i]];
      if (w) w[i - s] = (d.w as Float64Array)[rows[i]];
    }
    tree.value[leaf] = lr * weightedMedian(r, w);
  }
}
