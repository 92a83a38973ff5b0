/**
 * Profiling driver for issue 17: 30 fits of logistic_regression (lbfgs, defaults) on the
 * same 100,000 × 20 synthetic data as bench.ts, with nothing else in the process, so a
 * CPU profile shows only the fit. Run:
 *   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/linear/profile-logistic.ts
 */
import { makeFrame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { logisticRegression } from "../../src/models/linear/logistic-regression.js";

const P = 20;
const N = 100_000;
const FITS = 30;

const rng = createRng(2026);
const beta = Float64Array.from({ length: P }, () => rng.normal());
const columns = Array.from({ length: P }, () => new Float64Array(N));
const y = new Int32Array(N);
for (let i = 0; i < N; i++) {
  let s = 0;
  const common = rng.normal();
  for (let j = 0; j < P; j++) {
    const v = 0.3 * common + rng.normal();
    columns[j][i] = v;
    s += beta[j] * v;
  }
  const u = rng.next();
  y[i] = s + Math.log(u / (1 - u)) > 0 ? 1 : 0;
}
const X = makeFrame(columns.map((values, j) => ({ type: "numeric" as const, name: `x${j}`, values })));
const ctx = { rng: createRng(1), progress: () => {} };
const data = { X, target: { task: "classification" as const, y, classes: ["0", "1"] } };
const params = logisticRegression.params.parse({});
let iterations = 0;
for (let r = 0; r < FITS; r++) iterations = logisticRegression.fit(data, params, ctx).diagnostics.iterations;
console.log(`${FITS} fits, ${iterations} iterations each`);
