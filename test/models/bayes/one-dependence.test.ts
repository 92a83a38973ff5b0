/**
 * spode and aode on watermelon 2.0, row 1 (青绿, 蜷缩, 浊响, 清晰, 凹陷, 硬滑): the SPODE with
 * super-parent 纹理 written out from the counts, and AODE against the book's eq. 7.23
 * computed by filtering rows (reference.ts); then m, missing values, cross-validated
 * choice of the super-parent, numeric bins, weights and the artifact round trip.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import { aode, aodeParams } from "../../../src/models/bayes/aode.js";
import { spode, spodeParams } from "../../../src/models/bayes/spode.js";
import { ctx, realData, watermelon, accuracy } from "../tree/fixtures.js";
import { labelsOf, near, probaOf, roundTrip, row } from "./helpers.js";
import { aodeReference, levelsOf, rowsOf } from "./reference.js";

const wm2 = watermelon("2.0");
const t2 = wm2.target as { y: Int32Array; classes: readonly string[] };
const YES = t2.classes.indexOf("是");
const row1 = row(wm2.X, 0);
const ref = rowsOf(wm2.X, t2.y, t2.classes);
const levels = levelsOf(wm2.X);

describe("spode on watermelon 2.0, row 1", () => {
  test("super-parent 纹理: P(c, 清晰) and the five P(x_j | c, 清晰), from the counts", () => {
    const s = spode.fit(wm2, spodeParams.parse({ super_parent: "纹理" }), ctx());
    // 清晰 rows: 是 1,2,3,4,5,6,8 (7); 否 10,15 (2). |D| = 17, N = 2 classes, N_纹理 = 3 levels.
    // 是: 青绿 in 1,4,6 → (3+1)/(7+3); 蜷缩 in 1–5 → (5+1)/(7+3); 浊响 in 1,3,5,6,8 → 6/10; 凹陷 in 1–5 → 6/10; 硬滑 in 1–5,8 → (6+1)/(7+2).
    const yes = ((7 + 1) / (17 + 2 * 3)) * (4 / 10) * (6 / 10) * (6 / 10) * (6 / 10) * (7 / 9);
    // 否 (rows 10, 15): 青绿 1 → 2/5; 蜷缩 0 → 1/5; 浊响 1 → 2/5; 凹陷 0 → 1/5; 硬滑 0 → 1/4.
    const no = ((2 + 1) / 23) * (2 / 5) * (1 / 5) * (2 / 5) * (1 / 5) * (1 / 4);
    const p = probaOf(spode.predict(s, row1));
    near(p[YES], yes / (yes + no), 1e-12, "P(是 | row 1)");
    near(p[1 - YES], no / (yes + no), 1e-12, "P(否 | row 1)");
    // The same number from the reference with 纹理 as the only super-parent.
    near(p[YES], aodeReference(ref.rows, ref.labels, levels, t2.classes, ref.rows[0], [3])[YES], 1e-12, "reference");
  });

  test("every super-parent matches the reference on every row", () => {
    wm2.X.columns.forEach((c, q) => {
      const s = spode.fit(wm2, spodeParams.parse({ super_parent: c.name }), ctx());
      const p = probaOf(spode.predict(s, wm2.X));
      ref.rows.forEach((x, i) => near(p[2 * i + YES], aodeReference(ref.rows, ref.labels, levels, t2.classes, x, [q])[YES], 1e-12, `${c.name}, row ${i + 1}`));
    });
  });

  test("chosen by cross-validated log-likelihood: the best of the per-attribute scores, seeded", () => {
    const s = spode.fit(wm2, spodeParams.parse({}), ctx(4));
    const e = spode.explain!(s) as { super_parent: string; chosen_by: string; cv_log_likelihood: Record<string, number> };
    assert.equal(e.chosen_by, "cross_validation");
    const best = Object.entries(e.cv_log_likelihood).reduce((a, b) => (b[1] > a[1] ? b : a));
    assert.equal(e.super_parent, best[0]);
    assert.deepEqual(spode.fit(wm2, spodeParams.parse({}), ctx(4)), s, "same seed, same model");
    assert.throws(() => spode.fit(wm2, spodeParams.parse({ super_parent: "甜度" }), ctx()), /not one of the features/);
  });
});

describe("aode on watermelon 2.0, row 1", () => {
  test("m = 0: the sum of all six SPODEs equals eq. 7.23 from the counts", () => {
    const s = aode.fit(wm2, aodeParams.parse({ m: 0 }), ctx());
    const expected = aodeReference(ref.rows, ref.labels, levels, t2.classes, ref.rows[0], [0, 1, 2, 3, 4, 5]);
    const p = probaOf(aode.predict(s, row1));
    near(p[YES], expected[YES], 1e-12, "P(是 | row 1)");
    assert.equal(labelsOf(aode.predict(s, row1))[0], YES);
    const all = probaOf(aode.predict(s, wm2.X));
    ref.rows.forEach((x, i) => near(all[2 * i + YES], aodeReference(ref.rows, ref.labels, levels, t2.classes, x, [0, 1, 2, 3, 4, 5])[YES], 1e-12, `row ${i + 1}`));
  });

  test("m: only super-parents whose value occurs at least m times; none → naive Bayes with the same correction", () => {
    // Row 1's values occur: 青绿 6, 蜷缩 8, 浊响 10, 清晰 9, 凹陷 7, 硬滑 12 times.
    const s = aode.fit(wm2, aodeParams.parse({ m: 9 }), ctx());
    const expected = aodeReference(ref.rows, ref.labels, levels, t2.classes, ref.rows[0], [2, 3, 5]);
    near(probaOf(aode.predict(s, row1))[YES], expected[YES], 1e-12, "浊响, 清晰, 硬滑 only");
    const none = aode.fit(wm2, aodeParams.parse({}), ctx()); // the book's m = 30 > 17 rows
    // Naive Bayes with Laplace: P(是) = 9/19 and (count + 1) / (8 + N_i).
    const yes = (9 / 19) * (4 / 11) * (6 / 11) * (7 / 11) * (8 / 11) * (6 / 11) * (7 / 10);
    const no = (10 / 19) * (4 / 12) * (4 / 12) * (5 / 12) * (3 / 12) * (3 / 12) * (7 / 11);
    near(probaOf(aode.predict(none, row1))[YES], yes / (yes + no), 1e-12, "naive Bayes fallback");
  });

  test("a missing super-parent value drops its SPODE; a missing child contributes no factor", () => {
    const s = aode.fit(wm2, aodeParams.parse({ m: 0 }), ctx());
    const blank = makeFrame(row1.columns.map((c) => (c.name === "纹理" ? { ...c, codes: Int32Array.of(-1) } : c)));
    const rows = ref.rows.map((r) => r.filter((_, j) => j !== 3));
    const lv = levels.filter((_, j) => j !== 3);
    // Without 纹理 anywhere, the other five SPODEs are those of the table without the column.
    const expected = aodeReference(rows, ref.labels, lv, t2.classes, rows[0], [0, 1, 2, 3, 4]);
    near(probaOf(aode.predict(s, blank))[YES], expected[YES], 1e-12, "P(是) with 纹理 missing");
  });

  test("weight 2 is a duplicated row; save → load → identical predictions", () => {
    const w = Float64Array.from({ length: 17 }, (_, i) => (i === 2 || i === 9 ? 2 : 1));
    const idx = [...Array.from({ length: 17 }, (_, i) => i), 2, 9];
    const dup = { X: takeRows(wm2.X, idx), target: { task: "classification" as const, classes: t2.classes, y: Int32Array.from(idx, (i) => t2.y[i]) } };
    for (const [alg, params] of [
      [aode, aodeParams.parse({ m: 2 })],
      [spode, spodeParams.parse({ super_parent: "脐部" })],
    ] as const) {
      const a = alg.fit({ ...wm2, weights: w }, params as never, ctx());
      const b = alg.fit(dup, params as never, ctx());
      probaOf(alg.predict(a, wm2.X)).forEach((v, i) => near(v, probaOf(alg.predict(b, wm2.X))[i], 1e-12, `${alg.name} ${i}`));
      const loaded = roundTrip(alg, a);
      assert.deepEqual(alg.predict(loaded, wm2.X), alg.predict(a, wm2.X));
    }
  });

  test("numeric attributes are cut into equal-frequency bins; accuracy on iris and wine", () => {
    for (const name of ["iris", "wine"] as const) {
      const d = realData(name);
      for (const [alg, params] of [
        [aode, aodeParams.parse({ m: 0 })],
        [spode, spodeParams.parse({})],
      ] as const) {
        const s = alg.fit(d.train, params as never, ctx());
        const e = alg.explain!(s) as { bin_edges: Record<string, number[]> };
        assert.equal(Object.keys(e.bin_edges).length, d.train.X.columns.length);
        for (const edges of Object.values(e.bin_edges)) assert.ok(edges.length <= 4, "at most n_bins − 1 = 4 interior edges");
        const acc = accuracy(labelsOf(alg.predict(s, d.testX)), (d.testTarget as { y: Int32Array }).y);
        assert.ok(acc >= 0.85, `${alg.name} on ${name}: ${acc}`);
      }
    }
  });

  test("the state schema refuses a tampered table", () => {
    const s = aode.fit(wm2, aodeParams.parse({ m: 0 }), ctx());
    assert.throws(() => aode.state.parse({ ...s, pair: s.pair.subarray(1) }));
    assert.throws(() => aode.state.parse({ ...s, parents: Int32Array.of(0, 9) }));
    const bad = Float64Array.from(s.pair);
    bad[3] = -1;
    assert.throws(() => aode.state.parse({ ...s, pair: bad }), /negative/);
  });
});
