import assert from "node:assert/strict";
import { test } from "node:test";
import { expectedImprovement, normalCdf, normalPdf } from "../../../src/evaluation/bayesian/expected-improvement.js";
import { fitGaussianProcess, matern52 } from "../../../src/evaluation/bayesian/gaussian-process.js";

const points = (rows: number[][]) => Float64Array.from(rows.flat());

test("matern52: 1 at distance 0, the closed form at ℓ, decreasing", () => {
  assert.equal(matern52(0, 0.3), 1);
  const s = Math.sqrt(5);
  assert.ok(Math.abs(matern52(0.3, 0.3) - (1 + s + 5 / 3) * Math.exp(-s)) < 1e-15);
  assert.ok(matern52(0.1, 0.3) > matern52(0.2, 0.3));
});

test("normal cdf and pdf: known values", () => {
  assert.ok(Math.abs(normalCdf(0) - 0.5) < 1e-7);
  assert.ok(Math.abs(normalCdf(1) - 0.8413447460685429) < 1e-7);
  assert.ok(Math.abs(normalCdf(-1.96) - 0.024997895148220435) < 1e-7);
  assert.ok(Math.abs(normalPdf(1) - 0.24197072451914337) < 1e-15);
});

test("expected improvement: hand-computed values", () => {
  // μ = best: σ φ(0).
  assert.ok(Math.abs(expectedImprovement(0, 1, 0) - 0.3989422804014327) < 1e-7);
  // μ − best = σ = 1: Φ(1) + φ(1).
  assert.ok(Math.abs(expectedImprovement(1, 1, 0) - (0.8413447460685429 + 0.24197072451914337)) < 1e-7);
  // μ − best = −2σ: σ(φ(2) − 2(1 − Φ(2))).
  assert.ok(Math.abs(expectedImprovement(-2, 1, 0) - (0.05399096651318806 - 2 * 0.02275013194817921)) < 1e-7);
  // ξ shifts the incumbent.
  assert.ok(Math.abs(expectedImprovement(1, 1, 0, 1) - 0.3989422804014327) < 1e-7);
  // No uncertainty: the plain improvement, or 0.
  assert.equal(expectedImprovement(2, 0, 0.5), 1.5);
  assert.equal(expectedImprovement(0.2, 0, 0.5), 0);
});

test("GP with tiny noise: the posterior mean interpolates the observations and the sd vanishes there", () => {
  const xs = [[0.1, 0.2], [0.5, 0.9], [0.8, 0.4], [0.3, 0.6], [0.95, 0.05]];
  const y = xs.map(([a, b]) => Math.sin(3 * a) + b * b);
  const gp = fitGaussianProcess(points(xs), xs.length, 2, y, { lengthScale: 0.4, noiseRatio: 1e-10 });
  xs.forEach((x, i) => {
    const p = gp.predict(x);
    assert.ok(Math.abs(p.mean - y[i]) < 1e-6, `mean ${p.mean} at ${x} vs ${y[i]}`);
    assert.ok(p.sd < 1e-3, `sd ${p.sd} at ${x}`);
  });
  // Away from the data the posterior is uncertain.
  assert.ok(gp.predict([0.6, 0.1]).sd > 10 * gp.predict(xs[0]).sd);
});

test("GP: EI is 0 at the observed best point when the fit interpolates (no noise)", () => {
  const xs = [[0.1], [0.4], [0.7], [0.9]];
  const y = [0.2, 1.5, 0.9, -0.3];
  const gp = fitGaussianProcess(points(xs), 4, 1, y, { lengthScale: 0.3, noiseRatio: 1e-12 });
  const p = gp.predict([0.4]);
  // Only the 1e-10 jitter's sd (~1e-5) is left: EI ≤ φ(0) σ.
  const atBest = expectedImprovement(p.mean, p.sd, 1.5);
  assert.ok(atBest < 1e-4, `EI ${atBest}`);
  // Between observations there is something to gain.
  const q = gp.predict([0.55]);
  assert.ok(expectedImprovement(q.mean, q.sd, 1.5) > 1000 * atBest);
});

test("GP: the likelihood grid prefers a long length scale for a smooth function and more noise for noisy data", () => {
  const xs = Array.from({ length: 20 }, (_, i) => [i / 19]);
  const smooth = fitGaussianProcess(points(xs), 20, 1, xs.map(([a]) => a * a));
  assert.ok(smooth.hyper.lengthScale >= 0.4, `length scale ${smooth.hyper.lengthScale}`);
  // Alternating ±1 around a line is noise at any length scale the grid offers.
  const noisy = fitGaussianProcess(points(xs), 20, 1, xs.map(([a], i) => a + (i % 2 === 0 ? 0.5 : -0.5)));
  assert.ok(noisy.hyper.noiseRatio > smooth.hyper.noiseRatio, `noise ${noisy.hyper.noiseRatio} vs ${smooth.hyper.noiseRatio}`);
});

test("GP: a repeated point (a singular kernel without noise) still factors, with jitter", () => {
  const gp = fitGaussianProcess(points([[0.5], [0.5], [0.2]]), 3, 1, [1, 1, 0], { lengthScale: 0.3, noiseRatio: 0 });
  assert.ok(Math.abs(gp.predict([0.5]).mean - 1) < 1e-4);
});
