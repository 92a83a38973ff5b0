// art (seed 003, §5.5.3): ART 2-A categories on fixtures known by construction, and the vigilance
// property. On arbitrary data more vigilance need not mean more categories: online learning makes
// the categories depend on the order rows arrive in (a search over random tables finds cases). It
// does hold, and is tested, on rows in direction bundles: within a bundle rows are ≤ 10° apart
// (cosine ≥ 0.985), bundles ≥ 80° apart (cosine ≤ 0.174); a prototype stays inside the cone of the
// rows it learnt from, so any vigilance between the two cosines finds exactly the bundles.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { art, artParams, artState } from "../../../src/models/neural/art.js";
import { ctx, frameOf, partition } from "../cluster/helpers.js";

/** Rows of bundle b at angle base + 90°·b ± 5°, lengths 0.5 … 5; returns the frame and each row's bundle. */
function bundles(spec: { base: number; rows: { bundle: number; jitter: number; length: number }[] }) {
  const n = spec.rows.length;
  const X = new Float64Array(2 * n);
  spec.rows.forEach((r, i) => {
    const angle = ((spec.base + 90 * r.bundle + r.jitter) * Math.PI) / 180;
    X[2 * i] = r.length * Math.cos(angle);
    X[2 * i + 1] = r.length * Math.sin(angle);
  });
  return { X: frameOf(X, n, 2), truth: spec.rows.map((r) => r.bundle) };
}

const bundleSpec = fc.integer({ min: 1, max: 4 }).chain((k) =>
  fc.record({
    base: fc.double({ min: 0, max: 360, noNaN: true }),
    rows: fc.array(fc.record({ bundle: fc.integer({ min: 0, max: k - 1 }), jitter: fc.double({ min: -5, max: 5, noNaN: true }), length: fc.double({ min: 0.5, max: 5, noNaN: true }) }), { minLength: 1, maxLength: 40 }),
  }),
);

describe("art", () => {
  test("property: any vigilance between the bundles' cosines finds exactly the bundles; vigilance 1 finds at least as many categories", () => {
    fc.assert(
      fc.property(bundleSpec, fc.double({ min: 0.2, max: 0.98, noNaN: true }), fc.integer({ min: 0, max: 1000 }), ({ base, rows }, vigilance, seed) => {
        const { X, truth } = bundles({ base, rows });
        const k = new Set(truth).size;
        const state = art.fit({ X, target: null }, artParams.parse({ vigilance }), ctx(seed));
        assert.equal(state.sizes.length, k);
        assert.deepEqual(partition(state.labels), partition(truth));
        const strict = art.fit({ X, target: null }, artParams.parse({ vigilance: 1 }), ctx(seed));
        assert.ok(strict.sizes.length >= k);
      }),
      { numRuns: 150, seed: 18 },
    );
  });

  test("three directions in 3-D at different lengths: three categories whose prototypes are the directions", () => {
    const dirs = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const n = 30;
    const X = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) X[3 * i + j] = (1 + (i % 7)) * (dirs[i % 3][j] + 0.02 * Math.sin(i * (j + 1)));
    const state = art.fit({ X: frameOf(X, n, 3), target: null }, artParams.parse({ vigilance: 0.95 }), ctx(2));
    assert.equal(state.sizes.length, 3);
    assert.deepEqual(partition(state.labels), [0, 1, 2].map((b) => Array.from({ length: 10 }, (_, t) => 3 * t + b)));
    for (let c = 0; c < 3; c++) {
      const z = state.prototypes.subarray(3 * c, 3 * c + 3);
      assert.ok(Math.max(...z) > 0.99, `prototype ${c}: ${Array.from(z)}`);
      assert.ok(Math.abs(Math.hypot(...z) - 1) < 1e-12, "prototypes are unit vectors");
    }
    // A new row far out along the second direction belongs to that direction's category.
    const p = art.predict(state, frameOf([0, 100, 1], 1, 3));
    assert.ok(p.task === "clustering");
    assert.equal(p.labels[0], state.labels[1]);
  });

  test("vigilance 0.2 merges the two bundles 60° apart that 0.9 keeps apart; max_categories caps the count", () => {
    const angles = [0, 2, 4, 60, 62, 64];
    const X = Float64Array.from(angles.flatMap((a) => [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)]));
    const frame = frameOf(X, 6, 2);
    assert.equal(art.fit({ X: frame, target: null }, artParams.parse({ vigilance: 0.2 }), ctx(1)).sizes.length, 1);
    assert.equal(art.fit({ X: frame, target: null }, artParams.parse({ vigilance: 0.9 }), ctx(1)).sizes.length, 2);
    assert.equal(art.fit({ X: frame, target: null }, artParams.parse({ vigilance: 1, max_categories: 4 }), ctx(1)).sizes.length, 4);
  });

  test("a row of zeros has no direction: noise, in training and at predict", () => {
    const state = art.fit({ X: frameOf([1, 0, 0, 0, 0, 1], 3, 2), target: null }, artParams.parse({}), ctx(1));
    assert.equal(state.labels[1], -1);
    const p = art.predict(state, frameOf([0, 0], 1, 2));
    assert.ok(p.task === "clustering" && p.labels[0] === -1);
    assert.throws(() => art.fit({ X: frameOf([0, 0], 1, 2), target: null }, artParams.parse({}), ctx(1)), /all zeros/);
  });

  test("same seed, same categories; the schema refuses labels outside them; explain within max_values", () => {
    const { X } = bundles({ base: 10, rows: Array.from({ length: 20 }, (_, i) => ({ bundle: i % 3, jitter: (i % 5) - 2, length: 1 + i / 10 })) });
    const a = art.fit({ X, target: null }, artParams.parse({}), ctx(3));
    assert.deepEqual(art.fit({ X, target: null }, artParams.parse({}), ctx(3)), a);
    assert.ok(artState.safeParse(a).success);
    assert.ok(!artState.safeParse({ ...a, labels: Int32Array.of(0, 7) }).success);
    assert.ok(!artState.safeParse({ ...a, prototypes: a.prototypes.subarray(1) }).success);
    const full = art.explain!(a) as { n_categories: number; categories: { rows: number }[] };
    assert.equal(full.categories.length, 3);
    assert.equal(full.categories.reduce((s, c) => s + c.rows, 0), 20);
    const cut = art.explain!(a, { maxValues: 4 }) as { categories: unknown[]; categories_truncated?: boolean };
    assert.equal(cut.categories.length, 1);
    assert.equal(cut.categories_truncated, true);
  });
});
