/**
 * The tree state schema refuses anything that is not a tree, and the pruning
 * path computed with a heap equals the plain weakest-link loop it replaced.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeFrame } from "../../../src/data/frame.js";
import { ccpPath, type CcpTree, type PruningPath } from "../../../src/models/tree/prune.js";
import { predictTree } from "../../../src/models/tree/predict.js";
import { CATEGORICAL, LEAF, THRESHOLD, treeStateSchema, type TreeState } from "../../../src/models/tree/tree-state.js";
import { ladderTopology } from "../../helpers/ladder-tree.js";

/** A two-class ladder tree over one numeric feature x (topology: test/helpers/ladder-tree.ts). */
function ladder(levels: number, shared: boolean): TreeState {
  const { n, kind, childStart, childCount } = ladderTopology(levels, shared);
  const value = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) value.set([1 + (i % 3), 2], 2 * i);
  return {
    task: "classification",
    criterion: "gini_index",
    entropy_base: 2,
    features: [{ name: "x", type: "numeric" }],
    classes: ["a", "b"],
    kind,
    feature: Int32Array.from(kind, (k) => (k === LEAF ? -1 : 0)),
    threshold: Float64Array.from(kind, (k, i) => (k === LEAF ? NaN : i)),
    childStart,
    childCount,
    mapOffset: new Int32Array(n).fill(-1),
    branchFraction: new Float64Array(n).fill(0.5),
    samples: new Float64Array(n).fill(3),
    impurity: new Float64Array(n).fill(0.4),
    score: new Float64Array(n),
    value,
    levelMap: new Int32Array(0),
    obliqueWeights: new Float64Array(0),
    featureScale: Float64Array.of(1),
    candOffset: new Int32Array(n + 1),
    candFeature: new Int32Array(0),
    candScore: new Float64Array(0),
    candThreshold: new Float64Array(0),
  };
}

/** Reads of the node-kind array by a one-row predict with x missing: a few per node visited. */
function visitsOfMissingRow(s: TreeState): number {
  let reads = 0;
  const kind = new Proxy(s.kind, {
    get(target, prop) {
      if (typeof prop === "string" && /^\d+$/.test(prop)) reads++;
      const v = (target as unknown as Record<string | symbol, unknown>)[prop];
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  predictTree({ ...s, kind }, makeFrame([{ type: "numeric", name: "x", values: Float64Array.of(NaN) }]));
  return reads;
}

test("a DAG (nodes sharing children) doubles a missing value's work per level, and the schema refuses it", () => {
  const dag = ladder(14, true);
  // The defect: 29 nodes, yet the walk of one row visits ~2^15 nodes.
  assert.ok(visitsOfMissingRow(dag) > 2 ** 14, "the DAG's walk is exponential");
  const parsed = treeStateSchema.safeParse(dag);
  assert.equal(parsed.success, false);
  assert.match(parsed.error!.issues[0].message, /two parents/);
  assert.deepEqual(parsed.error!.issues[0].path, ["childStart", 2]);
  // The same ladder as a tree is accepted, and a missing value visits each node at most once.
  const tree = ladder(14, false);
  assert.equal(treeStateSchema.safeParse(tree).success, true);
  const reads = visitsOfMissingRow(tree);
  assert.ok(reads <= 4 * tree.kind.length, `a tree walk is linear: ${reads} reads for ${tree.kind.length} nodes`);
});

test("cycles, out-of-range children, orphans and bad feature indices are refused with the field's path", () => {
  const cases: [string, (s: TreeState) => void, RegExp, (string | number)[]][] = [
    ["a child before its parent (a cycle)", (s) => (s.childStart[3] = 1), /node 3 children/, ["childStart", 3]],
    ["children past the last node", (s) => (s.childStart[5] = s.kind.length - 1), /node 5 children/, ["childStart", 5]],
    ["an unreachable node", (s) => { s.kind[5] = LEAF; s.childStart[5] = -1; s.childCount[5] = 0; }, /no parent/, ["kind", 7]],
    ["a feature index past the features", (s) => (s.feature[0] = 1), /node 0 feature/, ["feature", 0]],
    ["a NaN threshold", (s) => (s.threshold[1] = NaN), /threshold\[1\] is NaN/, ["threshold", 1]],
    ["an infinite leaf value", (s) => (s.value[4] = Infinity), /value\[4\] is Infinity/, ["value", 4]],
    ["a value array of the wrong length", (s) => Object.assign(s, { value: s.value.subarray(1) }), /value has/, ["value"]],
    ["a fraction above 1", (s) => (s.branchFraction[2] = 1.5), /outside \[0, 1\]/, ["branchFraction", 2]],
    ["a repeated class", (s) => (s.classes = ["a", "a"]), /appears twice/, ["classes"]],
  ];
  for (const [name, corrupt, message, path] of cases) {
    const s = ladder(4, false);
    corrupt(s);
    const parsed = treeStateSchema.safeParse(s);
    assert.equal(parsed.success, false, name);
    assert.match(parsed.error!.issues[0].message, message, name);
    assert.deepEqual(parsed.error!.issues[0].path, path, name);
  }
});

test("categorical splits own disjoint stretches of the level map (sharing one would make checks cost nodes × levels)", () => {
  const categorical = (offsets: [number, number], levelMap: number[]): TreeState => {
    const s = ladder(3, false);
    s.features = [{ name: "x", type: "numeric" }, { name: "g", type: "categorical", levels: ["p", "q"] }];
    s.featureScale = Float64Array.of(1, 1);
    for (const [node, off] of [[0, offsets[0]], [1, offsets[1]]]) {
      s.kind[node] = CATEGORICAL;
      s.feature[node] = 1;
      s.mapOffset[node] = off;
    }
    s.levelMap = Int32Array.from(levelMap);
    return s;
  };
  assert.equal(treeStateSchema.safeParse(categorical([0, 2], [0, 1, 1, 0])).success, true);
  const shared = treeStateSchema.safeParse(categorical([0, 0], [0, 1]));
  assert.equal(shared.success, false);
  assert.deepEqual(shared.error!.issues[0].path, ["mapOffset", 1]);
  const unused = treeStateSchema.safeParse(categorical([0, 2], [0, 1, 1, 0, 1]));
  assert.deepEqual(unused.error!.issues[0].path, ["levelMap"]);
});

test("a non-finite number is flagged as such (a diverged fit), a shape error is not", () => {
  const s = ladder(3, false);
  s.value[0] = NaN;
  const issue = treeStateSchema.safeParse(s).error!.issues[0] as { params?: Record<string, unknown> };
  assert.equal(issue.params?.non_finite, true);
  const t = ladder(3, false);
  t.childStart[1] = 0;
  assert.equal((treeStateSchema.safeParse(t).error!.issues[0] as { params?: unknown }).params, undefined);
});

/** The weakest-link loop as it was: a scan of every node per step (the reference). */
function naivePath(t: CcpTree): PruningPath {
  const n = t.kind.length;
  const kind = Uint8Array.from(t.kind as ArrayLike<number>);
  const rootW = t.samples[0] > 0 ? t.samples[0] : 1;
  const R = Float64Array.from({ length: n }, (_, i) => (t.impurity[i] * t.samples[i]) / rootW);
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) if (kind[i] !== LEAF) for (let c = 0; c < t.childCount[i]; c++) parent[t.childStart[i] + c] = i;
  const active = new Uint8Array(n).fill(1);
  const RT = new Float64Array(n);
  const leaves = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (kind[i] === LEAF) {
      RT[i] = R[i];
      leaves[i] = 1;
    } else for (let c = 0; c < t.childCount[i]; c++) {
      RT[i] += RT[t.childStart[i] + c];
      leaves[i] += leaves[t.childStart[i] + c];
    }
  }
  const g = (i: number) => (leaves[i] > 1 ? Math.max(0, (R[i] - RT[i]) / (leaves[i] - 1)) : Infinity);
  const path: PruningPath = { ccp_alphas: [0], impurities: [RT[0]] };
  let alpha = 0;
  while (kind[0] !== LEAF) {
    let gmin = Infinity;
    for (let i = 0; i < n; i++) if (active[i] && kind[i] !== LEAF) gmin = Math.min(gmin, g(i));
    const cut = gmin + 1e-12 * Math.max(1, gmin);
    const weakest: number[] = [];
    for (let i = 0; i < n; i++) if (active[i] && kind[i] !== LEAF && g(i) <= cut) weakest.push(i);
    for (const i of weakest) {
      if (!active[i] || kind[i] === LEAF) continue;
      const stack = [i];
      while (stack.length) {
        const x = stack.pop()!;
        if (kind[x] === LEAF) continue;
        for (let c = 0; c < t.childCount[x]; c++) {
          active[t.childStart[x] + c] = 0;
          stack.push(t.childStart[x] + c);
        }
      }
      const dRT = R[i] - RT[i];
      const dLeaves = 1 - leaves[i];
      kind[i] = LEAF;
      for (let a = i; a >= 0; a = parent[a]) {
        RT[a] += dRT;
        leaves[a] += dLeaves;
      }
    }
    alpha = Math.max(alpha, gmin);
    path.ccp_alphas.push(alpha);
    path.impurities.push(RT[0]);
  }
  return path;
}

/** A random binary tree (breadth-first ids, so children come after parents) whose impurities shrink downwards, with ties. */
const randomTree = fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 120 }).map((draws): CcpTree => {
  const kind: number[] = [LEAF];
  const childStart: number[] = [-1];
  const samples: number[] = [200];
  const impurity: number[] = [0.5];
  for (let i = 0, d = 0; i < kind.length && d < draws.length; i++, d++) {
    const [split, drop, share] = draws[d];
    if (!split && i > 0) continue;
    kind[i] = THRESHOLD;
    childStart[i] = kind.length;
    const left = Math.max(1, Math.round((samples[i] * share) / 5));
    for (const w of [left, Math.max(1, samples[i] - left)]) {
      kind.push(LEAF);
      childStart.push(-1);
      samples.push(w);
      impurity.push(Math.max(0, impurity[i] - drop / 40));
    }
  }
  return {
    kind: Uint8Array.from(kind),
    childStart: Int32Array.from(childStart),
    childCount: Int32Array.from(kind, (k) => (k === LEAF ? 0 : 2)),
    samples: Float64Array.from(samples),
    impurity: Float64Array.from(impurity),
  };
});

test("the heap's pruning path equals the plain weakest-link loop on random trees", () => {
  fc.assert(
    fc.property(randomTree, (t) => {
      const fast = ccpPath(t);
      const slow = naivePath(t);
      assert.equal(fast.ccp_alphas.length, slow.ccp_alphas.length);
      fast.ccp_alphas.forEach((a, i) => assert.ok(Math.abs(a - slow.ccp_alphas[i]) <= 1e-12 * Math.max(1, Math.abs(a)), `alpha ${i}`));
      fast.impurities.forEach((r, i) => assert.ok(Math.abs(r - slow.impurities[i]) <= 1e-12, `impurity ${i}`));
    }),
    { numRuns: 300, seed: 10 },
  );
});
