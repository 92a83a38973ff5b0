/**
 * optics against scikit-learn 1.2's OPTICS (fixtures from scripts/fixtures/optics_sklearn.py:
 * blobs plus uniform noise, with and without max_eps): the same ordering, reachability, core
 * distances (to 1e-9) and predecessors, and the same labels from xi and from eps cuts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { dbscanLabels } from "../../../src/models/cluster/dbscan.js";
import { optics, opticsParams, type OpticsState } from "../../../src/models/cluster/optics.js";
import { opticsGraph, round15 } from "../../../src/models/cluster/optics-graph.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, watermelon4 } from "./helpers.js";

interface Case {
  name: string;
  n: number;
  d: number;
  X: number[];
  min_samples: number;
  max_eps: number | null;
  xi: number;
  min_cluster_size: number | null;
  ordering: number[];
  reachability: (number | null)[];
  core_distances: (number | null)[];
  predecessor: number[];
  labels_xi: number[];
  labels_dbscan: Record<string, number[]>;
}
const ref = JSON.parse(readFileSync(new URL("../../fixtures/cluster/optics_sklearn.json", import.meta.url), "utf8")) as { sklearn: string; cases: Case[] };

function closeOrInf(actual: ArrayLike<number>, expected: (number | null)[], what: string) {
  assert.equal(actual.length, expected.length);
  expected.forEach((e, i) => {
    if (e === null) assert.equal(actual[i], Infinity, `${what}[${i}]`);
    else assert.ok(Math.abs(actual[i] - e) <= 1e-9, `${what}[${i}]: ${actual[i]} vs ${e}`);
  });
}

describe(`scikit-learn ${ref.sklearn} OPTICS parity`, () => {
  for (const c of ref.cases) {
    const X = frameOf(c.X, c.n, c.d);
    test(`${c.name} (min_samples ${c.min_samples}, max_eps ${c.max_eps ?? "∞"}): ordering, reachability, core distances, predecessors, xi labels`, () => {
      const params = opticsParams.parse({ min_samples: c.min_samples, max_eps: c.max_eps, cluster_method: { kind: "xi", xi: c.xi, min_cluster_size: c.min_cluster_size } });
      const s = optics.fit({ X, target: null }, params, ctx());
      assert.deepEqual(Array.from(s.ordering), c.ordering);
      closeOrInf(s.reachability, c.reachability, "reachability");
      closeOrInf(s.core_distances, c.core_distances, "core_distances");
      assert.deepEqual(Array.from(s.predecessor), c.predecessor);
      assert.deepEqual(Array.from(s.labels), c.labels_xi);
      assert.equal(s.n_clusters, Math.max(...c.labels_xi) + 1);
    });
    for (const [eps, expected] of Object.entries(c.labels_dbscan)) {
      test(`${c.name}: the dbscan cut at eps ${eps}`, () => {
        const params = opticsParams.parse({ min_samples: c.min_samples, max_eps: c.max_eps, cluster_method: { kind: "dbscan", eps: Number(eps) } });
        const s = optics.fit({ X, target: null }, params, ctx());
        assert.deepEqual(Array.from(s.labels), expected);
      });
    }
  }
});

test("the dbscan cut at max_eps finds DBSCAN's core rows and clusters (border rows may differ, as scikit-learn documents)", () => {
  const { X: B } = blobs(150, 2, 3, 8);
  const s = optics.fit({ X: frameOf(B, 150, 2), target: null }, opticsParams.parse({ min_samples: 5, max_eps: 1.2, cluster_method: { kind: "dbscan", eps: 1.2 } }), ctx());
  const ref2 = dbscanLabels(B, 150, 2, 1.2, 5);
  for (let i = 0; i < 150; i++) assert.equal(s.core_distances[i] <= 1.2, ref2.core[i] === 1, `row ${i} core`);
  // Core rows: the same partition (label numbers aside).
  const pairs = new Map<number, number>();
  for (let i = 0; i < 150; i++) {
    if (!ref2.core[i]) continue;
    const seen = pairs.get(ref2.labels[i]);
    if (seen === undefined) pairs.set(ref2.labels[i], s.labels[i]);
    else assert.equal(s.labels[i], seen, `row ${i}`);
  }
  assert.equal(new Set(pairs.values()).size, pairs.size);
});

/** scikit-learn's loop as written: an argmin scan over the unprocessed rows and brute-force distances. */
function naiveOptics(X: Float64Array, n: number, d: number, minSamples: number, maxEps: number) {
  const dist = (i: number, j: number) => Math.sqrt(Array.from({ length: d }, (_, t) => (X[i * d + t] - X[j * d + t]) ** 2).reduce((a, b) => a + b, 0));
  const core = Array.from({ length: n }, (_, i) => {
    const c = Array.from({ length: n }, (_, j) => dist(i, j)).sort((a, b) => a - b)[minSamples - 1];
    return c > maxEps ? Infinity : round15(c);
  });
  const reach = new Array<number>(n).fill(Infinity);
  const pred = new Array<number>(n).fill(-1);
  const done = new Array<boolean>(n).fill(false);
  const ordering: number[] = [];
  for (let step = 0; step < n; step++) {
    let p = -1;
    for (let i = 0; i < n; i++) if (!done[i] && (p < 0 || reach[i] < reach[p])) p = i;
    done[p] = true;
    ordering.push(p);
    if (core[p] === Infinity) continue;
    for (let i = 0; i < n; i++) {
      if (done[i] || dist(p, i) > maxEps) continue;
      const r = round15(Math.max(dist(p, i), core[p]));
      if (r < reach[i]) {
        reach[i] = r;
        pred[i] = p;
      }
    }
  }
  return { ordering, reach, core, pred };
}

test("property: the heap-ordered graph equals scikit-learn's argmin loop, ties included (points on a small grid)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 3, max: 40 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 2, max: 6 }), fc.option(fc.integer({ min: 1, max: 4 })), fc.integer({ min: 0, max: 10_000 }), (n, d, minSamples, eps, seed) => {
      fc.pre(minSamples <= n);
      let s = seed;
      const X = Float64Array.from({ length: n * d }, () => ((s = (s * 1103515245 + 12345) % 2147483648), s % 6));
      const maxEps = eps ?? Infinity;
      const g = opticsGraph(X, n, d, minSamples, maxEps);
      const ref = naiveOptics(X, n, d, minSamples, maxEps);
      assert.deepEqual(Array.from(g.ordering), ref.ordering);
      assert.deepEqual(Array.from(g.reachability), ref.reach);
      assert.deepEqual(Array.from(g.coreDistances), ref.core);
      assert.deepEqual(Array.from(g.predecessor), ref.pred);
    }),
    { numRuns: 150 },
  );
});

test("round15 is numpy's around(x, 15)", () => {
  assert.equal(round15(0.1 + 0.2), 0.3);
  assert.equal(round15(1.0000000000000002), 1);
  // Values numpy gives (scale by 1e15, round half to even, scale back).
  assert.equal(round15(123456.789), 123456.78900000002);
  assert.equal(round15(0.5e-15), 0);
  assert.equal(round15(1.5e-15), 2e-15);
  assert.equal(round15(2.5e-15), 2e-15);
  assert.equal(round15(Infinity), Infinity);
});

test("explain: the reachability plot in OPTICS order within max_values, ∞ as null; transductive; limits", () => {
  const X = watermelon4();
  const s = optics.fit({ X, target: null }, opticsParams.parse({ min_samples: 4, max_eps: 0.2 }), ctx());
  type Explained = { ordering: number[]; reachability: (number | null)[]; core_distances: (number | null)[]; predecessor: number[]; ordering_truncated?: boolean; noise_count: number; sizes: number[] };
  const all = optics.explain!(s, {}) as Explained;
  assert.deepEqual(all.ordering, Array.from(s.ordering));
  assert.equal(all.reachability[0], null, "the first row is reached from nowhere");
  assert.equal(all.predecessor[0], -1);
  all.ordering.forEach((r, i) => assert.equal(all.core_distances[i], Number.isFinite(s.core_distances[r]) ? s.core_distances[r] : null));
  assert.equal(all.noise_count + all.sizes.reduce((a, b) => a + b, 0), 30);
  const few = optics.explain!(s, { maxValues: 30 }) as Explained;
  assert.ok(few.sizes.length + 4 * few.ordering.length <= 30);
  assert.equal(few.ordering_truncated, true);
  assert.equal(optics.transductive, true);
  assert.throws(() => optics.predict(s, X), /transductive/);
  assert.deepEqual(optics.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s))))) as OpticsState, s);
  assert.throws(() => optics.fit({ X, target: null }, opticsParams.parse({ min_samples: 31 }), ctx()), /only 30 training rows/);
  assert.throws(() => optics.fit({ X, target: null }, opticsParams.parse({ max_eps: 0.1, cluster_method: { kind: "dbscan", eps: 0.2 } }), ctx()), /above max_eps/);
});
