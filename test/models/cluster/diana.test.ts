/** diana: a hand-checked split sequence, and properties of the hierarchy (cut sizes, monotone heights, splinter rule). */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { diana, dianaParams } from "../../../src/models/cluster/diana.js";
import { diana as divide, splinter } from "../../../src/models/cluster/divisive.js";
import { DIANA_MAX_ROWS } from "../../../src/models/cluster/limits.js";
import { cutTree } from "../../../src/models/cluster/linkage.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, partition, watermelon4 } from "./helpers.js";

test("hand-checked: 1-D points 0, 1, 2, 10, 11", () => {
  // Split 1, {all} (diameter 11): mean dissimilarities 6, 5.25, 5, 7, 7.75 → splinter {11};
  //   10 is closer to it (1) than to the rest (mean 9) → moves; 0 then has 1.5 vs 10.5 → stop: {0,1,2} | {10,11}.
  // Split 2, {0,1,2} (diameter 2; {10,11} has 1): means 1.5, 1, 1.5 → splinter {0} (lowest row of the tie);
  //   1 has mean 1 to the rest and 1 to the splinter (gain 0, no move) → {0} | {1,2}.
  // Splits 3 and 4: {1,2} and {10,11} both have diameter 1; the one with the lower first row splits first.
  const m = divide(Float64Array.from([0, 1, 2, 10, 11]), 5, 1);
  assert.deepEqual(Array.from(m.a), [3, 1, 0, 5]);
  assert.deepEqual(Array.from(m.b), [4, 2, 6, 7]);
  assert.deepEqual(Array.from(m.height), [1, 1, 2, 11]);
  assert.deepEqual(Array.from(m.size), [2, 2, 3, 5]);
  assert.deepEqual(partition(cutTree(m, 5, 2)), [[0, 1, 2], [3, 4]]);
  assert.deepEqual(partition(cutTree(m, 5, 3)), [[0], [1, 2], [3, 4]]);
});

test("the splinter group grows while a row is closer on average to it than to the rest", () => {
  // 2-D: (10, 2) has the largest mean dissimilarity (33.7 vs at most 31.6); it pulls (10, 0) and (9, 0) over, the left triple stays.
  const P = [[0, 0], [0, 1], [1, 0], [9, 0], [10, 0], [10, 2]];
  const dist = (i: number, j: number) => Math.hypot(P[i][0] - P[j][0], P[i][1] - P[j][1]);
  const [rest, group] = splinter(Int32Array.from([0, 1, 2, 3, 4, 5]), dist);
  assert.deepEqual(Array.from(rest), [0, 1, 2]);
  assert.deepEqual(Array.from(group), [3, 4, 5]);
});

test("properties: a cut at k gives k clusters; heights are diameters and never decrease; children lie inside parents", () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1000 }), (n, d, seed) => {
      const { X } = blobs(n, d, 3, seed);
      const m = divide(X, n, d);
      const members: number[][] = Array.from({ length: n }, (_, i) => [i]);
      const dist = (r: number, s: number) => Math.sqrt(Array.from({ length: d }, (_, j) => (X[r * d + j] - X[s * d + j]) ** 2).reduce((a, b) => a + b, 0));
      for (let i = 0; i < n - 1; i++) {
        assert.ok(m.a[i] < m.b[i] && m.b[i] < n + i);
        const g = [...members[m.a[i]], ...members[m.b[i]]];
        members.push(g);
        assert.equal(m.size[i], g.length);
        const diameter = Math.max(...g.flatMap((r) => g.map((s) => dist(r, s))));
        assert.ok(Math.abs(m.height[i] - diameter) < 1e-12, `merge ${i}: height ${m.height[i]} is the diameter ${diameter}`);
        if (i > 0) assert.ok(m.height[i] >= m.height[i - 1]);
      }
      for (let k = 1; k <= n; k++) assert.equal(partition(cutTree(m, n, k)).length, k);
    }),
    { numRuns: 60 },
  );
});

test("watermelon 4.0: four clusters numbered by their lowest row; distance_threshold; explain; transductive; row limit", () => {
  const X = watermelon4();
  const s = diana.fit({ X, target: null }, dianaParams.parse({ cut: { kind: "n_clusters", n_clusters: 4 } }), ctx());
  assert.equal(s.n_clusters, 4);
  const first: number[] = [];
  for (const l of s.labels) if (!first.includes(l)) first.push(l);
  assert.deepEqual(first, [0, 1, 2, 3]);
  // The top split's height is the diameter of all 30 rows.
  assert.equal(s.size[28], 30);
  const t = diana.fit({ X, target: null }, dianaParams.parse({ cut: { kind: "distance_threshold", distance_threshold: s.height[26] } }), ctx());
  assert.equal(t.n_clusters, Array.from(s.height).filter((h) => h >= s.height[26]).length + 1);
  assert.deepEqual(partition(t.labels), partition(cutTree(s, 30, t.n_clusters)));
  const e = diana.explain!(s, { maxValues: 20 }) as { merges: number[][]; merges_truncated?: boolean };
  assert.deepEqual(e.merges.at(-1), [s.a[28], s.b[28], s.height[28], 30]);
  assert.equal(e.merges_truncated, true);
  assert.equal(diana.transductive, true);
  assert.throws(() => diana.predict(s, X), /transductive/);
  assert.deepEqual(diana.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s))))), s);
  const big = frameOf(new Float64Array(DIANA_MAX_ROWS + 1), DIANA_MAX_ROWS + 1, 1);
  assert.throws(() => diana.fit({ X: big, target: null }, dianaParams.parse({}), ctx()), /at most 5,000 rows/);
});
