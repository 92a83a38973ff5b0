// som / som_projection (seed 003, §5.5.4): fixtures whose answer is known by construction —
// a line maps in order onto a 1 × k map; the U-matrix is high on the border between two blobs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { frameSchema, makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { encodeRows } from "../../../src/data/rows.js";
import { som, somParams, somProjection, somState } from "../../../src/models/neural/som.js";
import { uMatrix, unitPositions } from "../../../src/models/neural/som-engine.js";
import { loadArtifact, serializeArtifact, type FittedModel } from "../../../src/training/artifact.js";
import { fitPipeline, predictPipeline } from "../../../src/training/pipeline.js";
import { ctx, frameOf } from "../cluster/helpers.js";

/** n points evenly along the segment from (0, 0) to (10, 5). */
function line(n: number): Frame {
  const X = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    X[2 * i] = (10 * i) / (n - 1);
    X[2 * i + 1] = (5 * i) / (n - 1);
  }
  return frameOf(X, n, 2);
}

/** Two tight blobs of 40 rows each around (0, 0) and (20, 20). */
function blobs(seed: number): Frame {
  const rng = createRng(seed);
  const X = new Float64Array(160);
  for (let i = 0; i < 80; i++) {
    const c = i < 40 ? 0 : 20;
    X[2 * i] = c + rng.normal() * 0.5;
    X[2 * i + 1] = c + rng.normal() * 0.5;
  }
  return frameOf(X, 80, 2);
}

function monotone(a: ArrayLike<number>): boolean {
  let up = true;
  let down = true;
  for (let i = 1; i < a.length; i++) {
    if (a[i] < a[i - 1]) up = false;
    if (a[i] > a[i - 1]) down = false;
  }
  return up || down;
}

describe("som", () => {
  test("points on a line map in order onto a 1 × 8 map (for every seed tried)", () => {
    const X = line(40);
    for (const seed of [1, 2, 3, 4, 5]) {
      const state = som.fit({ X, target: null }, somParams.parse({ grid_rows: 1, grid_cols: 8, max_iter: 3000 }), ctx(seed));
      const first = Float64Array.from({ length: 8 }, (_, u) => state.weights[2 * u]);
      assert.ok(monotone(first), `seed ${seed}: unit weights ${Array.from(first)}`);
      assert.ok(monotone(state.labels), `seed ${seed}: best-matching units along the line ${Array.from(state.labels)}`);
      assert.equal(new Set(state.labels).size, 8, "every unit wins a stretch of the line");
    }
  });

  test("two separated blobs: the U-matrix is high on the units between them, low inside each", () => {
    const X = blobs(11);
    for (const topology of ["rectangular", "hexagonal"] as const) {
      const state = som.fit({ X, target: null }, somParams.parse({ grid_rows: 6, grid_cols: 6, topology, max_iter: 4000 }), ctx(2));
      // Each unit's side: the blob centre its weights are nearer to.
      const side = Array.from({ length: 36 }, (_, u) => (state.weights[2 * u] + state.weights[2 * u + 1] > 20 ? 1 : 0));
      // No row of one blob shares a unit with a row of the other.
      const owner = new Map<number, number>();
      state.labels.forEach((u, i) => {
        const blob = i < 40 ? 0 : 1;
        assert.notEqual(owner.get(u), 1 - blob, `unit ${u} wins rows of both blobs`);
        owner.set(u, blob);
      });
      const u = uMatrix(state.weights, { rows: 6, cols: 6, topology }, 2);
      const P = unitPositions({ rows: 6, cols: 6, topology });
      const border: number[] = [];
      const inside: number[] = [];
      for (let a = 0; a < 36; a++) {
        let mixed = false;
        for (let b = 0; b < 36; b++) if (b !== a && (P[2 * a] - P[2 * b]) ** 2 + (P[2 * a + 1] - P[2 * b + 1]) ** 2 <= 1 + 1e-9 && side[b] !== side[a]) mixed = true;
        (mixed ? border : inside).push(u[a]);
      }
      const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
      assert.ok(border.length > 0 && inside.length > 0);
      assert.ok(mean(border) > 5 * mean(inside), `${topology}: border ${mean(border)}, inside ${mean(inside)}`);
    }
  });

  test("hexagonal positions: an inner unit has six neighbours at distance 1, a rectangular one four", () => {
    for (const [topology, expected] of [
      ["hexagonal", 6],
      ["rectangular", 4],
    ] as const) {
      const P = unitPositions({ rows: 5, cols: 5, topology });
      const centre = 2 * 5 + 2;
      let near = 0;
      for (let b = 0; b < 25; b++) if (b !== centre && Math.abs((P[2 * centre] - P[2 * b]) ** 2 + (P[2 * centre + 1] - P[2 * b + 1]) ** 2 - 1) < 1e-9) near++;
      assert.equal(near, expected, topology);
    }
    // The U-matrix of weights equal to the positions is 1 everywhere: every neighbour is at distance 1.
    const P = unitPositions({ rows: 4, cols: 5, topology: "hexagonal" });
    assert.ok(Array.from(uMatrix(P, { rows: 4, cols: 5, topology: "hexagonal" }, 2)).every((v) => Math.abs(v - 1) < 1e-12));
  });

  test("same seed, same map; another seed, another map; predict labels a batch as row by row", () => {
    const X = blobs(3);
    const params = somParams.parse({ grid_rows: 3, grid_cols: 4, max_iter: 500 });
    const a = som.fit({ X, target: null }, params, ctx(9));
    assert.deepEqual(som.fit({ X, target: null }, params, ctx(9)), a);
    assert.notDeepEqual(som.fit({ X, target: null }, params, ctx(10)).weights, a.weights);
    const batch = som.predict(a, X);
    assert.ok(batch.task === "clustering");
    assert.deepEqual(Array.from(batch.labels), Array.from(a.labels), "training rows keep their unit");
  });

  test("explain: grid-shaped U-matrix and hits, weights while max_values lasts", () => {
    const state = som.fit({ X: blobs(3), target: null }, somParams.parse({ grid_rows: 3, grid_cols: 4, max_iter: 500 }), ctx(1));
    const full = som.explain!(state) as { u_matrix: number[][]; hits: number[][]; weights: unknown[]; truncated?: boolean };
    assert.equal(full.u_matrix.length, 3);
    assert.equal(full.u_matrix[0].length, 4);
    assert.equal(full.hits.flat().reduce((s, h) => s + h, 0), 80);
    assert.equal(full.weights.length, 12);
    assert.equal(full.truncated, undefined);
    const cut = som.explain!(state, { maxValues: 30 }) as { u_matrix: number[][]; hits: number[][]; weights: unknown[]; truncated?: boolean };
    assert.equal(cut.u_matrix.flat().length + cut.hits.flat().length + 2 * cut.weights.length, 30);
    assert.equal(cut.truncated, true);
  });

  test("the state schema refuses weights of the wrong size and labels outside the map", () => {
    const state = som.fit({ X: blobs(3), target: null }, somParams.parse({ grid_rows: 2, grid_cols: 2, max_iter: 100 }), ctx(1));
    assert.ok(somState.safeParse(state).success);
    assert.ok(!somState.safeParse({ ...state, grid_cols: 3 }).success);
    assert.ok(!somState.safeParse({ ...state, labels: Int32Array.of(0, 4) }).success);
  });
});

describe("som_projection", () => {
  test("each row goes to its best-matching unit's grid position; the line keeps its order", () => {
    const X = line(30);
    const state = somProjection.fit({ X, target: null }, somParams.parse({ grid_rows: 1, grid_cols: 6, max_iter: 3000 }), ctx(4));
    const p = somProjection.predict(state, X);
    assert.ok(p.task === "projection");
    assert.equal(p.dims, 2);
    for (let i = 0; i < 30; i++) {
      assert.equal(p.values[2 * i], 0);
      assert.equal(p.values[2 * i + 1], state.labels[i]);
    }
    assert.ok(monotone(Array.from({ length: 30 }, (_, i) => p.values[2 * i + 1])));
    const hex = somProjection.fit({ X, target: null }, somParams.parse({ grid_rows: 2, grid_cols: 3, topology: "hexagonal", max_iter: 500 }), ctx(4));
    const P = unitPositions({ rows: 2, cols: 3, topology: "hexagonal" });
    const q = somProjection.predict(hex, X);
    assert.ok(q.task === "projection");
    for (let i = 0; i < 30; i++) assert.deepEqual([q.values[2 * i], q.values[2 * i + 1]], [P[2 * hex.labels[i]], P[2 * hex.labels[i] + 1]]);
  });

  test("through the pipeline and the artifact: serialize → load → identical projections of raw rows", () => {
    const X = makeFrame([
      { type: "numeric", name: "x1", values: Float64Array.from({ length: 40 }, (_, i) => (i % 2 ? i : NaN)) },
      { type: "numeric", name: "x2", values: Float64Array.from({ length: 40 }, (_, i) => i * 0.5) },
      { type: "categorical", name: "g", codes: Int32Array.from({ length: 40 }, (_, i) => i % 3), levels: ["u", "v", "w"] },
    ]);
    const params = somParams.parse({ grid_rows: 2, grid_cols: 3, max_iter: 300 });
    const pipeline = fitPipeline(somProjection, params, [], { X, target: null }, { rng: createRng(5), progress: () => {} });
    const model: FittedModel = { algorithm: somProjection, params, task: "projection", features: frameSchema(X), target: null, classes: null, positiveClass: null, classCounts: null, pipeline, trainedAt: "2026-01-01T00:00:00Z" };
    const loaded = loadArtifact(serializeArtifact(model).bytes);
    assert.deepEqual(loaded.pipeline, pipeline);
    const rows = [{ x1: 1, x2: 0.5, g: "u" }, { x1: null, x2: 3 }, { g: "never seen" }];
    const before = predictPipeline(somProjection, pipeline, encodeRows(rows, model.features));
    assert.ok(before.task === "projection" && before.values.length === 6);
    assert.deepEqual(predictPipeline(loaded.algorithm, loaded.pipeline, encodeRows(rows, loaded.features)), before);
  });
});
