import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { BLOCK } from "../../../src/models/linear/blocks.js";
import { createLogisticTerms, EXP_LOG1P_MAX, EXP_LOG1P_MIN } from "../../../src/models/linear/simd-logistic.js";

/** Doubles next to x (by bit pattern), for the range tests' edges. */
function around(x: number, steps: number): number[] {
  const f = new Float64Array(1);
  const b = new BigInt64Array(f.buffer);
  f[0] = x;
  const base = b[0];
  return Array.from({ length: 2 * steps + 1 }, (_, i) => {
    b[0] = base + BigInt(i - steps);
    return f[0];
  });
}
const fromHighWord = (hi: number) => new Float64Array(new BigUint64Array([BigInt(hi) << 32n]).buffer)[0];

describe("the logistic loss terms, two rows at a time", () => {
  test("equal the JavaScript expressions over Math.exp and Math.log1p bit for bit, over the kernel's range, its edges and beyond", () => {
    const rng = createRng(17);
    const run = createLogisticTerms(BLOCK);
    const special = [
      // fdlibm's range tests: exp at ln2/2 and 1.5·ln2 and 2^-28; log1p's at e = 0x3fda827a…, 2^-29, 2^-54 (−log of them).
      ...[0x3fd62e42, 0x3fd62e43, 0x3ff0a2b1, 0x3ff0a2b2].flatMap((h) => around(fromHighWord(h), 3)),
      ...[0x3fda827a, 0x3fda8279].flatMap((h) => around(-Math.log(fromHighWord(h)), 3)),
      ...around(29 * Math.LN2, 3),
      ...around(54 * Math.LN2, 3),
      ...around(EXP_LOG1P_MIN, 2),
      ...around(EXP_LOG1P_MAX, 2),
      // Outside the kernel's range: Math's own values.
      0, -0, 1e-300, 5e-5, 708.5, 745, 800, Infinity, -Infinity, NaN,
    ];
    const s = new Float64Array(BLOCK);
    const prob = new Float64Array(BLOCK);
    const term = new Float64Array(BLOCK);
    let checked = 0;
    for (let round = 0; round < 1000; round++) {
      const len = round === 0 ? special.length : 1 + (round % BLOCK);
      for (let i = 0; i < len; i++) {
        const kind = round % 3;
        const a = round === 0 ? special[i] : kind === 0 ? Math.exp(Math.log(EXP_LOG1P_MIN) + rng.next() * Math.log(EXP_LOG1P_MAX / EXP_LOG1P_MIN)) : kind === 1 ? 3 * rng.next() : 40 * rng.next();
        s[i] = rng.next() < 0.5 ? a : -a;
      }
      run(s, len, prob, term);
      for (let i = 0; i < len; i++) {
        // logistic-loss.ts's expressions before the kernel.
        const si = s[i];
        const e = Math.exp(-Math.abs(si));
        const wantProb = si >= 0 ? 1 / (1 + e) : e / (1 + e);
        const wantTerm = (si > 0 ? si : 0) + Math.log1p(e);
        assert.ok(Object.is(prob[i], wantProb), `σ(${si}): ${prob[i]} vs ${wantProb}`);
        assert.ok(Object.is(term[i], wantTerm), `term(${si}): ${term[i]} vs ${wantTerm}`);
        checked++;
      }
    }
    assert.ok(checked > 100_000);
  });
});
