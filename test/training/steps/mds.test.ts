import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Column, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { mdsFitted, mdsStep, type MdsFitted } from "../../../src/training/steps/mds.js";
import { throwsDataError } from "../../data/helpers.js";
import { assertSameFrame, throughArtifact, valuesOf } from "../../data/transforms/sklearn.js";
import { fitStep } from "./helpers.js";

/**
 * Points of a plane placed in 5 dimensions: x = o + u·e1 + v·e2 with e1, e2
 * orthonormal. They embed exactly in 2 dimensions, with their (u, v) distances.
 */
function planar(uv: readonly [number, number][]): Frame {
  const e1 = [0.5, 0.5, 0.5, 0.5, 0];
  const e2 = [0.5, -0.5, 0.5, -0.5, 0];
  const origin = [3, -1, 2, 0, 7];
  return makeFrame(
    origin.map((o, j): Column => ({ type: "numeric", name: `x${j}`, values: Float64Array.from(uv, ([u, v]) => o + u * e1[j] + v * e2[j]) })),
  );
}

function randomPoints(n: number, seed: number): [number, number][] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => [rng.normal() * 3, rng.normal()]);
}

function embedded(frame: Frame): [number, number][] {
  const a = valuesOf(frame, "mds1");
  const b = valuesOf(frame, "mds2");
  return Array.from(a, (v, i) => [v, b[i]]);
}

const dist = (p: readonly number[], q: readonly number[]) => Math.hypot(p[0] - q[0], p[1] - q[1]);

describe("mds (classical, seed 002)", () => {
  const uv = randomPoints(30, 1);
  const frame = planar(uv);

  test("preserves every pairwise distance of points that embed exactly in 2 dimensions", () => {
    const z = embedded(fitStep("mds", frame, { n_components: 2 }).out);
    for (let i = 0; i < uv.length; i++) for (let j = 0; j < i; j++) assert.ok(Math.abs(dist(z[i], z[j]) - dist(uv[i], uv[j])) < 1e-9, `${i}, ${j}`);
  });

  test("out-of-sample rows (Gower's formula) land at their true distances from the training rows", () => {
    const { out, apply } = fitStep("mds", frame, { n_components: 2 });
    const fresh = randomPoints(8, 2);
    const zTrain = embedded(out);
    const zNew = embedded(apply(planar(fresh)));
    for (let a = 0; a < fresh.length; a++) for (let i = 0; i < uv.length; i++) assert.ok(Math.abs(dist(zNew[a], zTrain[i]) - dist(fresh[a], uv[i])) < 1e-9);
  });

  test("with fewer landmarks than rows (landmark MDS, seeded) the embedding is still exact for such points", () => {
    const many = randomPoints(60, 3);
    const z = embedded(fitStep("mds", planar(many), { n_components: 2, max_landmarks: 10 }, null, 5).out);
    for (let i = 0; i < many.length; i += 7) for (let j = 0; j < many.length; j += 5) assert.ok(Math.abs(dist(z[i], z[j]) - dist(many[i], many[j])) < 1e-8);
    const again = embedded(fitStep("mds", planar(many), { n_components: 2, max_landmarks: 10 }, null, 5).out);
    assert.deepEqual(again, z, "same seed, same landmarks, same coordinates");
  });

  test("the eigenvalues of B are the variances of the coordinates times n; a third dimension of planar points is 0", () => {
    const { fitted, out } = fitStep("mds", frame, { n_components: 3 });
    const f = fitted as MdsFitted;
    const z1 = valuesOf(out, "mds1");
    assert.ok(Math.abs(z1.reduce((s, v) => s + v * v, 0) - f.eigenvalues[0]) < 1e-8 * f.eigenvalues[0]);
    assert.equal(f.eigenvalues[2], 0);
    assert.ok(valuesOf(out, "mds3").every((v) => v === 0));
  });

  test("errors, describe, save → load → identical coordinates", () => {
    throwsDataError(() => fitStep("mds", planar([[0, 0], [1, 1]]), { n_components: 2 }), "n_components");
    const { fitted, apply } = fitStep("mds", frame, { n_components: 2, max_landmarks: 12 });
    const fresh = planar(randomPoints(5, 9));
    assertSameFrame(mdsStep.apply(throughArtifact(mdsFitted, fitted as MdsFitted), fresh), apply(fresh));
    assert.equal(mdsStep.describe!(fitted as MdsFitted).landmarks, 12);
  });
});
