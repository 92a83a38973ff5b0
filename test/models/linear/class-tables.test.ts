/**
 * class-tables.ts: the WebAssembly SIMD gather, scatter and finalise give the same doubles as
 * the JavaScript loops (odd and even class counts, missing codes, a short last block), and the
 * JavaScript loops the same as the per-class sums they replace.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { classTables, type OneHotBlock } from "../../../src/models/linear/class-tables.js";
import { BLOCK } from "../../../src/models/linear/blocks.js";

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

for (const K of [1, 2, 3, 12]) {
  test(`class tables agree with the JavaScript loops and the per-class sums, K = ${K}`, () => {
    const rnd = random(K);
    const n = 2 * BLOCK + 77;
    const L = 37;
    const blocks: OneHotBlock[] = [0, 1].map(() => ({
      codes: Int32Array.from({ length: n }, () => (rnd() < 0.1 ? -1 : Math.floor(rnd() * L))),
      inverse: Float64Array.from({ length: L }, () => rnd() * 3),
      shifted: Float64Array.from({ length: L }, () => rnd() - 0.5),
    }));
    const simd = classTables(blocks, n, K, true);
    const js = classTables(blocks, n, K, false);
    const weights = blocks.map(() => Float64Array.from({ length: L * K }, () => rnd() - 0.5));
    for (const t of [simd, js]) weights.forEach((w, b) => t.weights[b].set(w));
    // The per-class reference: level sums and gradient as features.ts computes them one class at a time.
    const expected = blocks.map(() => new Float64Array(L * K));
    for (let start = 0; start < n; start += BLOCK) {
      const len = Math.min(BLOCK, n - start);
      const scores = Float64Array.from({ length: len * K }, () => rnd());
      const sums = Float64Array.from({ length: K }, () => rnd());
      for (const t of [simd, js]) {
        t.block.set(scores);
        t.sums.set(sums);
        blocks.forEach((_, b) => t.gather(b, null, start, len));
      }
      assert.deepEqual(simd.block, js.block);
      for (let i = 0; i < len; i++) {
        for (let k = 0; k < K; k++) {
          let s = scores[i * K + k];
          blocks.forEach(({ codes }, b) => {
            if (codes[start + i] >= 0) s += weights[b][codes[start + i] * K + k];
          });
          assert.equal(js.block[i * K + k], s);
        }
      }
      const residuals = js.block.slice(0, len * K);
      for (const t of [simd, js]) blocks.forEach((_, b) => (t.scatter(b, null, start, len), t.finalise(b)));
      blocks.forEach(({ codes, inverse, shifted }, b) => {
        for (let k = 0; k < K; k++) {
          const perLevel = new Float64Array(L);
          for (let i = 0; i < len; i++) if (codes[start + i] >= 0) perLevel[codes[start + i]] += residuals[i * K + k];
          for (let l = 0; l < L; l++) expected[b][l * K + k] += perLevel[l] * inverse[l] - shifted[l] * sums[k];
        }
      });
      blocks.forEach((_, b) => {
        assert.deepEqual(simd.gradients[b], js.gradients[b]);
        assert.deepEqual(js.gradients[b], expected[b]);
      });
    }
  });
}

test("class tables take a mini-batch's rows through `order`", () => {
  const blocks: OneHotBlock[] = [{ codes: Int32Array.from([2, -1, 0, 1]), inverse: Float64Array.from([1, 2, 4]), shifted: new Float64Array(3) }];
  const t = classTables(blocks, 4, 2);
  t.weights[0].set([1, 10, 2, 20, 3, 30]);
  t.block.fill(0, 0, 6);
  t.gather(0, Int32Array.from([3, 0, 1]), 0, 3);
  assert.deepEqual(Array.from(t.block.subarray(0, 6)), [2, 20, 3, 30, 0, 0]);
});
