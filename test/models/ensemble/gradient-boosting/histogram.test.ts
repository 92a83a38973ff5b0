/**
 * The fast histogram path (gathered gradients, four features a pass, stale pooled
 * buffers, the sibling by subtraction) equals the plain definition, for any bins,
 * gradients, row subsets and splits (scikit-learn tests its histogram.pyx the same way).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  buildHistogram,
  buildHistogramSimd,
  buildRootHistogram,
  buildRootHistogramSimd,
  countHistogram,
  histogramSize,
  HistogramPool,
  naiveHistogram,
  SLOTS,
  subtractInto,
  subtractIntoSimd,
} from "../../../../src/models/ensemble/gradient-boosting/histogram.js";
import { createSimdHistogramSpace } from "../../../../src/models/ensemble/gradient-boosting/simd-histogram.js";

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * (1 + Math.abs(a) + Math.abs(b));

/** Compares the used bins (real bins 0..nBins-1 and the missing bin) of every feature. */
function assertSameUsed(fast: Float64Array, naive: Float64Array, maxBins: number, nBins: Int32Array, features: Int32Array): void {
  const stride = maxBins + 1;
  for (const f of features) {
    for (let b = 0; b < stride; b++) {
      if (b >= nBins[f] && b !== maxBins) continue;
      for (let s = 0; s < SLOTS; s++) {
        const k = (f * stride + b) * SLOTS + s;
        assert.ok(close(fast[k], naive[k]), `feature ${f} bin ${b} slot ${s}: ${fast[k]} vs ${naive[k]}`);
      }
    }
  }
}

const problem = fc
  .record({ maxBins: fc.integer({ min: 2, max: 12 }), d: fc.integer({ min: 1, max: 9 }), n: fc.integer({ min: 1, max: 60 }), seed: fc.integer() })
  .chain(({ maxBins, d, n }) =>
    fc.record({
      maxBins: fc.constant(maxBins),
      nBins: fc.array(fc.integer({ min: 1, max: maxBins }), { minLength: d, maxLength: d }),
      cells: fc.array(fc.array(fc.nat(), { minLength: n, maxLength: n }), { minLength: d, maxLength: d }),
      g: fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: n, maxLength: n }),
      h: fc.array(fc.double({ min: 0, max: 5, noNaN: true }), { minLength: n, maxLength: n }),
      inNode: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      goesLeft: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      unitHessian: fc.boolean(),
      skip: fc.array(fc.boolean(), { minLength: d, maxLength: d }),
    }),
  );

test("built histograms and subtracted siblings equal the naive sums", () => {
  fc.assert(
    fc.property(problem, ({ maxBins, nBins: nb, cells, g, h: hRaw, inNode, goesLeft, unitHessian, skip }) => {
      const nBins = Int32Array.from(nb);
      const d = nBins.length;
      // Bin values inside each feature's real bins, or the missing bin.
      const bins = cells.map((col, f) => Uint8Array.from(col, (c) => (c % (nBins[f] + 1) === nBins[f] ? maxBins : c % nBins[f])));
      const h = unitHessian ? hRaw.map(() => 1) : hRaw;
      const node = Int32Array.from(inNode.flatMap((x, i) => (x ? [i] : [])));
      const left = Int32Array.from(Array.from(node).filter((r) => goesLeft[r]));
      const right = Int32Array.from(Array.from(node).filter((r) => !goesLeft[r]));
      // A feature sample (colsample): skipped features are neither built nor compared.
      const features = Int32Array.from(Array.from({ length: d }, (_, f) => f).filter((f) => !skip[f]));
      const pool = new HistogramPool(histogramSize(d, maxBins));
      // Stale contents in the pooled buffers: the build must not depend on them.
      const dirty = pool.acquire();
      dirty.fill(123.5);
      pool.release(dirty);
      const build = (rows: Int32Array) => {
        const hist = pool.acquire();
        const og = Float64Array.from(rows, (r) => g[r]);
        const oh = Float64Array.from(rows, (r) => h[r]);
        buildHistogram(hist, bins, maxBins, nBins, features, rows, 0, rows.length, og, oh);
        return hist;
      };
      const root = pool.acquire();
      buildRootHistogram(root, bins, maxBins, nBins, features, Float64Array.from(g), Float64Array.from(h), countHistogram(bins, maxBins));
      assertSameUsed(root, naiveHistogram(bins, maxBins, Array.from(g, (_, i) => i), g, h), maxBins, nBins, features);
      const parent = build(node);
      assertSameUsed(parent, naiveHistogram(bins, maxBins, node, g, h), maxBins, nBins, features);
      const small = build(left);
      assertSameUsed(small, naiveHistogram(bins, maxBins, left, g, h), maxBins, nBins, features);
      subtractInto(parent, small, maxBins, nBins, features);
      assertSameUsed(parent, naiveHistogram(bins, maxBins, right, g, h), maxBins, nBins, features);
    }),
    { numRuns: 200 },
  );
});

test("rows outside a node's range are not counted", () => {
  const bins = [Uint8Array.of(0, 1, 1, 0, 2)];
  const nBins = Int32Array.of(2);
  const rows = Int32Array.of(4, 1, 2, 0, 3);
  const hist = new Float64Array(histogramSize(1, 2));
  // rows[1..3) = rows 1 and 2, both in bin 1.
  buildHistogram(hist, bins, 2, nBins, Int32Array.of(0), rows, 1, 3, Float64Array.of(0.5, 0.25), Float64Array.of(1, 2));
  assert.deepEqual(Array.from(hist.subarray(0, 9)), [0, 0, 0, 0.75, 3, 2, 0, 0, 0]);
});

test("the WebAssembly SIMD kernels give the JavaScript kernels' histograms bit for bit", () => {
  fc.assert(
    fc.property(problem, ({ maxBins, nBins: nb, cells, g, h, inNode, skip }) => {
      const nBins = Int32Array.from(nb);
      const d = nBins.length;
      const n = g.length;
      const bins = cells.map((col, f) => Uint8Array.from(col, (c) => (c % (nBins[f] + 1) === nBins[f] ? maxBins : c % nBins[f])));
      const node = Int32Array.from(inNode.flatMap((x, i) => (x ? [i] : [])));
      const features = Int32Array.from(Array.from({ length: d }, (_, f) => f).filter((f) => !skip[f]));
      const size = histogramSize(d, maxBins);
      const space = createSimdHistogramSpace(n, d, size, 2);
      assert.ok(space, "WebAssembly SIMD is available here");
      bins.forEach((col, f) => space.bins[f].set(col));
      g.forEach((v, i) => ((space.gh[2 * i] = v), (space.gh[2 * i + 1] = h[i])));
      // The node's rows sit in the middle of the row array: [1, 1 + m).
      space.rows.fill(0);
      space.rows.set(node.subarray(0, Math.min(node.length, n - 1)), 1);
      const m = Math.min(node.length, n - 1);
      const [simdRoot, simdNode] = space.histograms;
      simdRoot.fill(7.5);
      simdNode.fill(-3);
      const counts = countHistogram(bins, maxBins);
      buildRootHistogramSimd(space, simdRoot, maxBins, nBins, features, counts);
      buildHistogramSimd(space, simdNode, maxBins, nBins, features, 1, 1 + m);
      const jsRoot = new Float64Array(size);
      buildRootHistogram(jsRoot, bins, maxBins, nBins, features, Float64Array.from(g), Float64Array.from(h), counts);
      const rows = space.rows.slice(1, 1 + m);
      const jsNode = new Float64Array(size);
      buildHistogram(jsNode, bins, maxBins, nBins, features, rows, 0, m, Float64Array.from(rows, (r) => g[r]), Float64Array.from(rows, (r) => h[r]));
      const compare = (what: string) => {
        for (const f of features) {
          for (let b = 0; b <= maxBins; b++) {
            if (b >= nBins[f] && b !== maxBins) continue;
            for (let s = 0; s < SLOTS; s++) {
              const k = (f * (maxBins + 1) + b) * SLOTS + s;
              assert.equal(simdRoot[k], jsRoot[k], `${what} root: feature ${f} bin ${b} slot ${s}`);
              assert.equal(simdNode[k], jsNode[k], `${what} node: feature ${f} bin ${b} slot ${s}`);
            }
          }
        }
      };
      compare("built");
      // The sibling by subtraction, both ways (odd and even numbers of doubles per feature).
      subtractIntoSimd(space, simdRoot, simdNode, maxBins, nBins, features);
      subtractInto(jsRoot, jsNode, maxBins, nBins, features);
      compare("subtracted");
    }),
    { numRuns: 200 },
  );
});

test("the SIMD partition is the stable partition of a node's rows by its split table", () => {
  fc.assert(
    fc.property(
      fc.record({
        col: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 80 }),
        table: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 256, maxLength: 256 }),
        seed: fc.nat(),
        cut: fc.tuple(fc.nat(), fc.nat()),
      }),
      ({ col, table, seed, cut }) => {
        const n = col.length;
        const space = createSimdHistogramSpace(n, 1, histogramSize(1, 255), 3);
        assert.ok(space);
        space.bins[0].set(col);
        // Some order of the row ids (a previous partition's), and a node's range inside it.
        const order = Array.from({ length: n }, (_, i) => (i * (2 * (seed % 7) + 1) + seed) % n);
        if (new Set(order).size !== n) order.sort((a, b) => a - b);
        space.rows.set(order);
        const start = Math.min(cut[0], cut[1]) % (n + 1);
        const end = Math.min(n, start + (Math.max(cut[0], cut[1]) % (n + 1)));
        space.table.set(table);
        const base = space.rows.byteOffset;
        const mid = (space.partition(space.bins[0].byteOffset, space.table.byteOffset, base + 4 * start, base + 4 * end, space.scratch.byteOffset) - base) >> 2;
        const node = order.slice(start, end);
        const left = node.filter((r) => table[col[r]] === 1);
        const right = node.filter((r) => table[col[r]] === 0);
        assert.equal(mid, start + left.length);
        assert.deepEqual(Array.from(space.rows), [...order.slice(0, start), ...left, ...right, ...order.slice(end)]);
      },
    ),
    { numRuns: 300 },
  );
});
