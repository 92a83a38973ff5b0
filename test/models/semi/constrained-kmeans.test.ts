/**
 * constrained_kmeans (COP-k-means) on the book's 13.6 example: watermelon 4.0, k = 3, initial
 * centres rows 6, 12, 27, must-link {4, 25}, {12, 20}, cannot-link {2, 21}, {13, 23}, {19, 23}
 * (rows 1-based as in the book). Our run gives the book's Figure 13.5 partition after 5
 * iterations, which differs from plain k-means from the same start (SEEDS.md). Then: any
 * successful fit honours every constraint (fast-check), and an impossible set fails with
 * UnusableInputError.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { UnusableInputError, type Algorithm } from "../../../src/models/contract.js";
import { getAlgorithm } from "../../../src/models/registry.js";
import { ctx, frameOf, partition, seedPartition, watermelon4 } from "../cluster/helpers.js";

const cop = getAlgorithm("constrained_kmeans") as Algorithm;
const kmeans = getAlgorithm("kmeans") as Algorithm;
const r = (i: number) => i - 1;
const start = { kind: "rows", rows: [r(6), r(12), r(27)] };
const book = {
  n_clusters: 3,
  init: start,
  must_link: [
    [r(4), r(25)],
    [r(12), r(20)],
  ],
  cannot_link: [
    [r(2), r(21)],
    [r(13), r(23)],
    [r(19), r(23)],
  ],
};

test("watermelon 4.0 with the book's constraints: Figure 13.5's clusters after 5 iterations", () => {
  const X = watermelon4();
  const state = cop.fit({ X, target: null }, cop.params.parse(book), ctx()) as { labels: Int32Array; n_iter: number };
  assert.deepEqual(
    partition(state.labels),
    seedPartition([
      [3, 5, 7, 9, 13, 14, 16, 17, 21],
      [6, 8, 10, 11, 12, 15, 18, 19, 20],
      [1, 2, 4, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    ]),
  );
  assert.equal(state.n_iter, 5);
  const plain = kmeans.fit({ X, target: null }, kmeans.params.parse({ n_clusters: 3, init: start }), ctx()) as { labels: Int32Array };
  assert.equal(plain.labels[r(2)], plain.labels[r(21)], "plain k-means puts the cannot-link pair {2, 21} together");
  assert.notEqual(state.labels[r(2)], state.labels[r(21)]);
  assert.notDeepEqual(partition(plain.labels), partition(state.labels));
});

test("without constraints it is k-means from the same start", () => {
  const X = watermelon4();
  const ours = cop.fit({ X, target: null }, cop.params.parse({ n_clusters: 3, init: start }), ctx()) as { labels: Int32Array; centres: Float64Array };
  const plain = kmeans.fit({ X, target: null }, kmeans.params.parse({ n_clusters: 3, init: start }), ctx()) as { labels: Int32Array; centres: Float64Array };
  assert.deepEqual(Array.from(ours.labels), Array.from(plain.labels));
  ours.centres.forEach((v, i) => assert.ok(Math.abs(v - plain.centres[i]) < 1e-12));
});

test("every successful fit honours every constraint (fast-check)", () => {
  const pair = (n: number) => fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }));
  fc.assert(
    fc.property(
      fc.integer({ min: 3, max: 25 }).chain((n) =>
        fc.record({
          points: fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 2 * n, maxLength: 2 * n }),
          must: fc.array(pair(n), { maxLength: 4 }),
          cannot: fc.array(pair(n), { maxLength: 6 }),
          k: fc.integer({ min: 1, max: Math.min(n, 5) }),
          seed: fc.integer({ min: 1, max: 1000 }),
        }),
      ),
      ({ points, must, cannot, k, seed }) => {
        const n = points.length / 2;
        const params = cop.params.parse({ n_clusters: k, must_link: must, cannot_link: cannot, n_init: 3 });
        let labels: Int32Array;
        try {
          labels = (cop.fit({ X: frameOf(points, n, 2), target: null }, params, ctx(seed)) as { labels: Int32Array }).labels;
        } catch (e) {
          assert.ok(e instanceof UnusableInputError, String(e));
          return;
        }
        for (const [a, b] of must) assert.equal(labels[a], labels[b], `must-link ${a}, ${b}`);
        for (const [a, b] of cannot) assert.notEqual(labels[a], labels[b], `cannot-link ${a}, ${b}`);
      },
    ),
    { numRuns: 300 },
  );
});

test("an impossible set of constraints fails with UnusableInputError", () => {
  const X = frameOf([0, 0, 1, 1, 2, 2, 3, 3], 4, 2);
  const fit = (params: Record<string, unknown>) => () => cop.fit({ X, target: null }, cop.params.parse(params), ctx());
  // Three rows pairwise apart cannot go into two clusters.
  assert.throws(fit({ n_clusters: 2, cannot_link: [[0, 1], [1, 2], [0, 2]] }), (e: unknown) => e instanceof UnusableInputError && /row 2 can join none of the 2 clusters/.test(e.message));
  assert.throws(fit({ n_clusters: 2, must_link: [[0, 1]], cannot_link: [[1, 0]] }), UnusableInputError);
  assert.throws(fit({ n_clusters: 2, cannot_link: [[3, 3]] }), UnusableInputError);
  assert.throws(fit({ n_clusters: 2, must_link: [[0, 4]] }), /row 4, which is not a training row/);
  assert.throws(() => cop.params.parse({ must_link: [[0, -1]] }));
  assert.throws(() => cop.params.parse({ cannot_link: Array.from({ length: 100_001 }, () => [0, 1]) }));
});
