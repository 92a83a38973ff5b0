/**
 * Isolation trees (Liu, Ting & Zhou 2008, "Isolation Forest"): each node splits on a
 * random feature at a uniformly random threshold between that feature's minimum and
 * maximum over the node's rows, until a row is alone, the rows are identical on every
 * feature the tree may use, or the height limit ⌈log₂ ψ⌉ is reached. Anomalies, few and
 * different, are isolated near the root: a short path means an anomaly.
 *
 * The impurity engine (tree/) has no use here (no target, no split search), so this is
 * a small dedicated builder; it keeps the engine's flat-array style: node i's feature,
 * threshold, children and training-row count in parallel typed arrays, −1 for a leaf.
 */
import type { Rng } from "../../data/random.js";

export interface IsolationTree {
  /** Split feature per node (an index into the forest's features); −1 at a leaf. */
  feature: Int32Array<ArrayBuffer>;
  /** Rows with x[feature] ≤ threshold go left. */
  threshold: Float64Array<ArrayBuffer>;
  left: Int32Array<ArrayBuffer>;
  right: Int32Array<ArrayBuffer>;
  /** Training rows (of the tree's sample) that reached the node. */
  size: Int32Array<ArrayBuffer>;
}

const EULER_GAMMA = 0.5772156649015329;

/**
 * c(n) = 2H(n−1) − 2(n−1)/n, the average path length of an unsuccessful search in a
 * binary search tree of n points, with H(i) ≈ ln i + γ as in the paper (and scikit-learn):
 * the path length a leaf of n unsplit rows stands for. c(1) = 0, c(2) = 1.
 */
export function averagePathLength(n: number): number {
  if (n <= 1) return 0;
  if (n === 2) return 1;
  return 2 * (Math.log(n - 1) + EULER_GAMMA) - (2 * (n - 1)) / n;
}

/** s(x, ψ) = 2^(−E[h(x)] / c(ψ)): near 1 an anomaly, well below 0.5 a normal row. */
export function anomalyScore(meanPathLength: number, sampleSize: number): number {
  const c = averagePathLength(sampleSize);
  return c > 0 ? 2 ** (-meanPathLength / c) : 0.5;
}

/** The height limit ⌈log₂ ψ⌉ (the paper's; scikit-learn's max_depth). */
export function heightLimit(sampleSize: number): number {
  return Math.ceil(Math.log2(Math.max(sampleSize, 2)));
}

/**
 * One tree over `rows` of the row-major matrix X (n × d), splitting only on `features`.
 * `rows` is reordered in place (partitioned node by node).
 */
export function growIsolationTree(X: Float64Array, d: number, rows: Int32Array, features: Int32Array, limit: number, rng: Rng): IsolationTree {
  const feature: number[] = [];
  const threshold: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const size: number[] = [];
  const order = new Int32Array(features.length);

  const leaf = (node: number): void => {
    feature[node] = -1;
    threshold[node] = 0;
    left[node] = -1;
    right[node] = -1;
  };
  const newNode = (count: number): number => {
    size.push(count);
    feature.push(-1);
    threshold.push(0);
    left.push(-1);
    right.push(-1);
    return size.length - 1;
  };

  // Iterative depth-first build: [node, first row, end row, depth].
  const stack: [number, number, number, number][] = [[newNode(rows.length), 0, rows.length, 0]];
  while (stack.length > 0) {
    const [node, start, end, depth] = stack.pop()!;
    if (end - start <= 1 || depth >= limit) {
      leaf(node);
      continue;
    }
    // A random feature with more than one value at this node, drawn without replacement until one
    // is found (scikit-learn's random splitter skips constant ones): only the drawn features are scanned.
    order.set(features);
    let j = -1;
    let lo = 0;
    let hi = 0;
    for (let remaining = features.length; remaining > 0 && j < 0; remaining--) {
      const pick = rng.int(remaining);
      const f = order[pick];
      order[pick] = order[remaining - 1];
      lo = Infinity;
      hi = -Infinity;
      for (let r = start; r < end; r++) {
        const v = X[rows[r] * d + f];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi > lo) j = f;
    }
    if (j < 0) {
      leaf(node);
      continue;
    }
    let t = lo + rng.next() * (hi - lo);
    // Rounding can land on the maximum, which would send every row left.
    if (t >= hi) t = lo;
    let mid = start;
    for (let r = start; r < end; r++) {
      if (X[rows[r] * d + j] <= t) {
        const tmp = rows[mid];
        rows[mid] = rows[r];
        rows[r] = tmp;
        mid++;
      }
    }
    const l = newNode(mid - start);
    const rt = newNode(end - mid);
    feature[node] = j;
    threshold[node] = t;
    left[node] = l;
    right[node] = rt;
    stack.push([rt, mid, end, depth + 1], [l, start, mid, depth + 1]);
  }
  return { feature: Int32Array.from(feature), threshold: Float64Array.from(threshold), left: Int32Array.from(left), right: Int32Array.from(right), size: Int32Array.from(size) };
}

/** h(x): edges from the root to x's leaf, plus c(leaf size) for the rows the leaf left unsplit. */
export function pathLength(tree: IsolationTree, X: Float64Array, d: number, row: number): number {
  let node = 0;
  let depth = 0;
  while (tree.feature[node] >= 0) {
    node = X[row * d + tree.feature[node]] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
    depth++;
  }
  return depth + averagePathLength(tree.size[node]);
}

/** Leaf depths weighted by the training rows in them: the tree's mean depth of a training row. */
export function meanDepth(tree: IsolationTree): number {
  let total = 0;
  let rows = 0;
  const stack: [number, number][] = [[0, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (tree.feature[node] < 0) {
      total += depth * tree.size[node];
      rows += tree.size[node];
    } else stack.push([tree.left[node], depth + 1], [tree.right[node], depth + 1]);
  }
  return rows > 0 ? total / rows : 0;
}
