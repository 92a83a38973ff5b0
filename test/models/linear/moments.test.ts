import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { moments } from "../../../src/models/linear/design.js";

/** The one-column-at-a-time loop moments() used before it took two columns a pass. */
function reference(columns: Float64Array[], n: number, weights?: Float64Array) {
  let total = n;
  if (weights) {
    total = 0;
    for (let i = 0; i < n; i++) total += weights[i];
  }
  return columns.map((c) => {
    const k = n > 0 ? c[0] : 0;
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const d = c[i] - k;
      const wd = weights ? weights[i] * d : d;
      s1 += wd;
      s2 += wd * d;
    }
    const m1 = s1 / total;
    return { mean: k + m1, std: Math.sqrt(Math.max(0, s2 / total - m1 * m1)) };
  });
}

test("moments, two columns a pass, give the same doubles as one column at a time (odd and even p, weighted or not)", () => {
  const rng = createRng(23);
  for (const p of [1, 2, 5, 8]) {
    const n = 1001;
    const columns = Array.from({ length: p }, (_, j) => Float64Array.from({ length: n }, () => 1e3 * j + rng.normal() * (j + 1)));
    const weights = Float64Array.from({ length: n }, () => rng.next() * 2);
    for (const w of [undefined, weights]) {
      const got = moments(columns, n, w);
      const want = reference(columns, n, w);
      for (let j = 0; j < p; j++) {
        assert.ok(Object.is(got.mean[j], want[j].mean), `mean ${j} of ${p}`);
        assert.ok(Object.is(got.std[j], want[j].std), `std ${j} of ${p}`);
      }
    }
  }
});
