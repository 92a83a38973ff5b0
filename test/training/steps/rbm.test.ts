// rbm (seed 003's Boltzmann machine, restricted, by CD-k): on two noisy binary patterns known by
// construction, a hidden unit learns to tell them apart and the reconstruction error falls; the
// min–max reading of the inputs makes positive affine changes of a column irrelevant.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { rbmFitted, rbmStep, type RbmFitted } from "../../../src/training/steps/rbm.js";
import { assertSameFrame, throughArtifact, valuesOf } from "../../data/transforms/sklearn.js";
import { fitStep } from "./helpers.js";

/** 80 rows of 6 bits: pattern A = 111000 (rows 0–39) or B = 000111, each bit flipped with probability 0.05. */
function patterns(scale = 1, shift = 0): Frame {
  const rng = createRng(5);
  const bits = Array.from({ length: 80 }, (_, i) => Array.from({ length: 6 }, (_, j) => ((i < 40) === j < 3 ? 1 : 0) ^ (rng.next() < 0.05 ? 1 : 0)));
  return makeFrame(Array.from({ length: 6 }, (_, j) => ({ type: "numeric" as const, name: `b${j}`, values: Float64Array.from(bits, (row) => row[j] * scale + shift) })));
}

const options = { n_components: 3, n_iter: 100, learning_rate: 0.1 };

describe("rbm", () => {
  test("a hidden unit separates the two patterns; the reconstruction error falls", () => {
    const { fitted, out } = fitStep("rbm", patterns(), options, null, 1);
    const f = fitted as RbmFitted;
    assert.deepEqual(
      out.columns.map((c) => c.name),
      ["rbm1", "rbm2", "rbm3"],
    );
    const separating = [1, 2, 3].some((k) => {
      const h = valuesOf(out, `rbm${k}`);
      const a = Array.from(h.subarray(0, 40));
      const b = Array.from(h.subarray(40));
      // Every A row on one side of every B row, with room between the means.
      const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
      return (Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a)) && Math.abs(mean(a) - mean(b)) > 0.5;
    });
    assert.ok(separating, "some hidden unit tells A from B");
    const curve = f.reconstruction_error;
    assert.equal(curve.length, 100);
    assert.ok(curve[curve.length - 1] < curve[0] / 2, `${curve[0]} → ${curve[curve.length - 1]}`);
  });

  test("columns in other units (× 10 + 5) give the same step: inputs are read by their training min and max", () => {
    const plain = fitStep("rbm", patterns(), options, null, 3);
    const moved = fitStep("rbm", patterns(10, 5), options, null, 3);
    assert.deepEqual((moved.fitted as RbmFitted).weights, (plain.fitted as RbmFitted).weights);
    assertSameFrame(moved.out, plain.out);
  });

  test("same seed, same machine; through the artifact codec it transforms identically; a missing cell reads as the minimum", () => {
    const frame = patterns();
    const a = fitStep("rbm", frame, options, null, 7);
    assert.deepEqual(fitStep("rbm", frame, options, null, 7).fitted, a.fitted);
    const loaded = throughArtifact(rbmFitted, a.fitted as RbmFitted);
    assertSameFrame(rbmStep.apply(loaded, frame), a.out);
    const holes = makeFrame(frame.columns.map((c, j) => (c.type === "numeric" ? { ...c, values: c.values.map((v, i) => (i === 0 && j === 0 ? NaN : v)) } : c)));
    const zeros = makeFrame(frame.columns.map((c, j) => (c.type === "numeric" ? { ...c, values: c.values.map((v, i) => (i === 0 && j === 0 ? 0 : v)) } : c)));
    const { apply } = fitStep("rbm", frame, options, null, 7);
    assertSameFrame(apply(holes), apply(zeros));
    assert.ok(rbmFitted.safeParse(loaded).success);
    assert.ok(!rbmFitted.safeParse({ ...loaded, hidden_bias: loaded.hidden_bias.subarray(1) }).success);
  });
});
