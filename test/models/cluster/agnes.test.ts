/** agnes: SEEDS.md's watermelon 4.0 partitions at 4 clusters; the merge list's shape; cuts; transductive. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { agnes, agnesParams } from "../../../src/models/cluster/agnes.js";
import { AGNES_MAX_ROWS } from "../../../src/models/cluster/limits.js";
import { linkage } from "../../../src/models/cluster/linkage.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, partition, seedPartition, watermelon4 } from "./helpers.js";

const X = watermelon4();
const fit4 = (linkageName: string) => agnes.fit({ X, target: null }, agnesParams.parse({ linkage: linkageName, cut: { kind: "n_clusters", n_clusters: 4 } }), ctx());

test("complete linkage at 4 clusters: SEEDS.md's partition", () => {
  const expected = [
    [1, 2, 3, 4, 21, 22, 26, 29],
    [5, 7, 9, 13, 14, 16, 17],
    [6, 8, 10, 11, 12, 15, 18, 19, 20],
    [23, 24, 25, 27, 28, 30],
  ];
  assert.deepEqual(partition(agnes.trainingLabels!(fit4("complete"))), seedPartition(expected));
});

test("average linkage at 4 clusters: SEEDS.md's partition", () => {
  const expected = [
    [1, 2, 22, 26, 29],
    [3, 4, 5, 7, 9, 13, 14, 16, 17, 21],
    [6, 8, 10, 11, 12, 18, 19, 20],
    [15, 23, 24, 25, 27, 28, 30],
  ];
  assert.deepEqual(partition(fit4("average").labels), seedPartition(expected));
});

test("single linkage at 4 clusters: SEEDS.md's partition ({1,2,22,26,29}, {11}, {15}, the rest)", () => {
  const small = [[1, 2, 22, 26, 29], [11], [15]];
  const rest = Array.from({ length: 30 }, (_, i) => i + 1).filter((r) => !small.flat().includes(r));
  assert.deepEqual(partition(fit4("single").labels), seedPartition([...small, rest]));
});

test("clusters are numbered by their lowest row; the merge list is scipy's shape", () => {
  for (const name of ["single", "complete", "average", "centroid", "ward"]) {
    const s = fit4(name);
    const firstSeen: number[] = [];
    for (const l of s.labels) if (!firstSeen.includes(l)) firstSeen.push(l);
    assert.deepEqual(firstSeen, [0, 1, 2, 3], name);
    assert.equal(s.a.length, 29);
    assert.equal(s.size[28], 30, `${name}: the last merge holds every row`);
    for (let i = 0; i < 29; i++) {
      assert.ok(s.a[i] < s.b[i] && s.b[i] < 30 + i, `${name}: merge ${i} joins existing clusters`);
      if (name !== "centroid") assert.ok(i === 0 || s.height[i] >= s.height[i - 1], `${name}: heights never decrease`);
    }
  }
});

test("ward's merge heights equal the square root of twice the SSE increase; complete's the largest pairwise distance", () => {
  const { X: B } = blobs(40, 3, 3, 2);
  for (const method of ["ward", "complete"] as const) {
    const m = linkage(B, 40, 3, method);
    // Replay the merges with explicit member lists.
    const members: number[][] = Array.from({ length: 40 }, (_, i) => [i]);
    for (let i = 0; i < 39; i++) {
      const [p, q] = [members[m.a[i]], members[m.b[i]]];
      const dist = (r: number, s: number) => Math.hypot(...[0, 1, 2].map((j) => B[r * 3 + j] - B[s * 3 + j]));
      let expected: number;
      if (method === "complete") expected = Math.max(...p.flatMap((r) => q.map((s) => dist(r, s))));
      else {
        const mean = (g: number[]) => [0, 1, 2].map((j) => g.reduce((t, r) => t + B[r * 3 + j], 0) / g.length);
        const [mp, mq] = [mean(p), mean(q)];
        expected = Math.sqrt(((2 * p.length * q.length) / (p.length + q.length)) * mp.reduce((t, v, j) => t + (v - mq[j]) ** 2, 0));
      }
      assert.ok(Math.abs(m.height[i] - expected) < 1e-9, `${method} merge ${i}: ${m.height[i]} vs ${expected}`);
      members.push([...p, ...q]);
    }
  }
});

test("distance_threshold cuts where scikit-learn does; explain lists the top merges within max_values", () => {
  const s = agnes.fit({ X, target: null }, agnesParams.parse({ linkage: "complete", cut: { kind: "distance_threshold", distance_threshold: 0.25 } }), ctx());
  const above = Array.from(s.height).filter((h) => h >= 0.25).length;
  assert.equal(s.n_clusters, above + 1);
  assert.equal(partition(s.labels).length, above + 1);
  type Explained = { sizes: number[]; sizes_truncated?: boolean; merges: number[][]; merges_truncated?: boolean; first_merge_listed: number };
  const e = agnes.explain!(s, { maxValues: 20 }) as Explained;
  assert.deepEqual(e.sizes.length, Math.min(s.n_clusters, 10));
  const listed = Math.floor((20 - e.sizes.length) / 4);
  assert.equal(e.merges.length, listed);
  assert.equal(e.first_merge_listed, 29 - listed);
  assert.deepEqual(e.merges[listed - 1], [s.a[28], s.b[28], s.height[28], 30]);
  assert.equal(e.merges_truncated, true);
  // Every row its own cluster: the sizes are cut too, and the whole stays within max_values.
  const all = agnes.fit({ X, target: null }, agnesParams.parse({ linkage: "single", cut: { kind: "distance_threshold", distance_threshold: 0 } }), ctx());
  assert.equal(all.n_clusters, 30);
  const few = agnes.explain!(all, { maxValues: 12 }) as Explained;
  assert.equal(few.sizes_truncated, true);
  assert.ok(few.sizes.length + 4 * few.merges.length <= 12);
});

test("transductive: predict refuses; the state round-trips; the matrix path has a row limit", () => {
  const s = fit4("ward");
  assert.equal(agnes.transductive, true);
  assert.throws(() => agnes.predict(s, X), /transductive/);
  assert.deepEqual(agnes.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s))))), s);
  const big = frameOf(new Float64Array((AGNES_MAX_ROWS + 1) * 1), AGNES_MAX_ROWS + 1, 1);
  assert.throws(() => agnes.fit({ X: big, target: null }, agnesParams.parse({ linkage: "average" }), ctx()), /at most 20,000 rows/);
});

test("values whose squared distances overflow are refused (Infinity − Infinity would make the dendrogram arbitrary)", () => {
  const huge = frameOf([1e300, 1, -1, 2, 0, 3, 1e300, 0], 4, 2);
  for (const linkageName of ["single", "complete", "average", "centroid", "ward"]) {
    assert.throws(() => agnes.fit({ X: huge, target: null }, agnesParams.parse({ linkage: linkageName, cut: { kind: "n_clusters", n_clusters: 2 } }), ctx()), /overflow.*rescale/);
  }
});

test("nearest-neighbour chain = the naive closest-pair algorithm (ward, complete, average): same heights and sizes", () => {
  let s = 5;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const n = 70;
  const d = 3;
  const X = Float64Array.from({ length: n * d }, rand);
  const update = {
    complete: (a: number, b: number) => Math.max(a, b),
    average: (a: number, b: number, _ab: number, na: number, nb: number) => (na * a + nb * b) / (na + nb),
    ward: (a: number, b: number, ab: number, na: number, nb: number, nk: number) => ((nk + na) * a + (nk + nb) * b - nk * ab) / (nk + na + nb),
  };
  for (const method of ["ward", "complete", "average"] as const) {
    // Full matrix (squared for ward), closest pair each step, Lance–Williams updates.
    const D = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => {
      let t = 0;
      for (let c = 0; c < d; c++) t += (X[i * d + c] - X[j * d + c]) ** 2;
      return method === "ward" ? t : Math.sqrt(t);
    }));
    const size = new Array<number>(n).fill(1);
    const want: [number, number][] = [];
    for (let k = 0; k < n - 1; k++) {
      let x = -1;
      let y = -1;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (size[i] && size[j] && (x < 0 || D[i][j] < D[x][y])) [x, y] = [i, j];
      const h = D[x][y];
      want.push([method === "ward" ? Math.sqrt(h) : h, size[x] + size[y]]);
      for (let i = 0; i < n; i++) if (size[i] && i !== x && i !== y) D[i][y] = D[y][i] = update[method](D[i][x], D[i][y], h, size[x], size[y], size[i]);
      size[y] += size[x];
      size[x] = 0;
    }
    want.sort((a, b) => a[0] - b[0]);
    const got = linkage(X, n, d, method);
    for (let k = 0; k < n - 1; k++) {
      assert.ok(Math.abs(got.height[k] - want[k][0]) <= 1e-12 * (1 + want[k][0]), `${method}: merge ${k} height ${got.height[k]} vs ${want[k][0]}`);
      assert.equal(got.size[k], want[k][1], `${method}: merge ${k} size`);
    }
  }
});
