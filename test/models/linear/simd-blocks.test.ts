import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { BLOCK, blockGradient, blockScores, columnMajor, KERNEL_MIN_DOUBLES, reusingDesignMemory } from "../../../src/models/linear/blocks.js";
import { createBlockKernel } from "../../../src/models/linear/simd-blocks.js";

/** The same bytes: the kernel must reproduce the JavaScript loops exactly, not approximately. */
function assertSameBits(actual: Float64Array, expected: Float64Array, what: string): void {
  assert.deepEqual(new Uint8Array(actual.buffer, actual.byteOffset, actual.byteLength), new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength), what);
}

describe("WebAssembly SIMD block kernel", () => {
  test("is available (a missing kernel fails rather than skips)", () => {
    assert.notEqual(createBlockKernel(4, 3), null);
  });

  // p from 1 to 23 covers every remainder of the four-column score groups and the eight-column
  // gradient passes; odd n puts columns off 16-byte alignment, odd block lengths use the spare lane.
  // The last two sizes are above KERNEL_MIN_DOUBLES, so columnMajor's copy goes through the kernel too.
  for (const [n, p] of [[2049, 1], [1501, 2], [1103, 3], [777, 5], [1024, 8], [999, 11], [1200, 16], [1001, 19], [3001, 23]]) {
    test(`scores and gradients equal the JavaScript loops bit for bit (n = ${n}, p = ${p})`, () => {
      const rng = createRng(n * 31 + p);
      const columns = Array.from({ length: p }, () => Float64Array.from({ length: n }, () => 3 * rng.normal() + 1));
      const shift = Float64Array.from({ length: p }, () => rng.normal());
      const scale = Float64Array.from({ length: p }, () => 0.5 + rng.next());
      const z = columnMajor(columns, n, shift, scale); // in the kernel's memory when n·p >= KERNEL_MIN_DOUBLES
      const plain = Float64Array.from(z); // a plain copy: the JavaScript loops
      const kernel = createBlockKernel(n, p)!; // called directly, whatever the size
      kernel.z.set(plain);
      const x = Float64Array.from({ length: p + 5 }, () => rng.normal());
      for (const [start, len] of [[0, BLOCK], [0, 1], [n - 1, 1], [n - 37, 37], [Math.floor(n / 3), Math.min(BLOCK, n - Math.floor(n / 3))]]) {
        const c = rng.normal();
        const got = new Float64Array(BLOCK).fill(7);
        const want = new Float64Array(BLOCK).fill(7);
        const rows = Math.min(len, n - start);
        const viaColumnMajor = new Float64Array(BLOCK).fill(7);
        kernel.scores(p, x, 3, c, start, rows, got);
        blockScores(plain, n, p, x, 3, c, null, start, rows, want);
        blockScores(z, n, p, x, 3, c, null, start, rows, viaColumnMajor);
        assertSameBits(got, want, `scores at ${start}+${rows}`);
        assertSameBits(viaColumnMajor, want, `blockScores at ${start}+${rows}`);
        const r = Float64Array.from({ length: BLOCK }, () => rng.normal());
        const g0 = Float64Array.from({ length: p + 4 }, () => rng.normal());
        const gGot = Float64Array.from(g0);
        const gWant = Float64Array.from(g0);
        const gVia = Float64Array.from(g0);
        kernel.gradient(p, r, start, rows, gGot, 2);
        blockGradient(plain, n, p, r, null, start, rows, gWant, 2);
        blockGradient(z, n, p, r, null, start, rows, gVia, 2);
        assertSameBits(gGot, gWant, `gradient at ${start}+${rows}`);
        assertSameBits(gVia, gWant, `blockGradient at ${start}+${rows}`);
      }
    });
  }

  test("a later fit's design reuses the memory of an earlier one, whose design is then detached, with the same doubles as a fresh one", () => {
    const n = KERNEL_MIN_DOUBLES;
    const rng = createRng(3);
    const columns = [Float64Array.from({ length: n }, () => rng.normal()), Float64Array.from({ length: n }, () => rng.normal())];
    const shift = Float64Array.of(0.5, -1);
    const scale = Float64Array.of(2, 3);
    const x = Float64Array.of(0.25, -0.75);
    const scoresOf = (z: Float64Array) => {
      const out = new Float64Array(BLOCK);
      blockScores(z, n, 2, x, 0, 0.1, null, 1, BLOCK - 1, out);
      return out;
    };
    const fresh = scoresOf(columnMajor(columns, n, shift, scale));
    let first: Float64Array | null = null;
    reusingDesignMemory(() => void (first = columnMajor(columns, n, shift, scale)));
    const earlier = first! as Float64Array;
    assert.equal(earlier.length, 2 * n);
    const again = reusingDesignMemory(() => scoresOf(columnMajor(columns, n, shift, scale)));
    assert.equal(earlier.length, 0, "the earlier design's view is detached");
    assert.throws(() => scoresOf(earlier));
    assertSameBits(again, fresh, "scores over reused memory");
  });
});
