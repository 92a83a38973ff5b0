/**
 * tan: on watermelon 2.0 the tree and row 1's probability written out from the counts,
 * each edge's CMI against the reference computed by filtering rows, the spanning tree's
 * cycle property; a generated chain x0 → x1 → x2 → x3 where the CMI ranking is
 * unambiguous gives the expected tree from either end; missing values; round trip.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { tan, tanParams } from "../../../src/models/bayes/tan.js";
import { ctx, realData, watermelon, accuracy } from "../tree/fixtures.js";
import { labelsOf, near, probaOf, roundTrip, row } from "./helpers.js";
import { cmiReference, rowsOf } from "./reference.js";

const wm2 = watermelon("2.0");
const t2 = wm2.target as { y: Int32Array; classes: readonly string[] };
const YES = t2.classes.indexOf("是");
const ref = rowsOf(wm2.X, t2.y, t2.classes);
const names = wm2.X.columns.map((c) => c.name);

interface Explained {
  root: string;
  edges: { parent: string; child: string; cmi: number }[];
}

describe("tan on watermelon 2.0", () => {
  const s = tan.fit(wm2, tanParams.parse({}), ctx());
  const e = tan.explain!(s) as Explained;

  test("the tree from the first attribute (色泽), with each edge's CMI as the reference computes it", () => {
    assert.equal(e.root, "色泽");
    assert.deepEqual(
      e.edges.map((x) => `${x.parent}→${x.child}`).sort(),
      ["色泽→纹理", "纹理→脐部", "纹理→触感", "脐部→根蒂", "根蒂→敲声"].sort(),
    );
    for (const x of e.edges) near(x.cmi, cmiReference(ref.rows, ref.labels, t2.classes, names.indexOf(x.parent), names.indexOf(x.child)), 1e-12, `CMI ${x.parent}, ${x.child}`);
  });

  test("it is a maximum spanning tree: no pair outside it has more CMI than the weakest edge on its tree path", () => {
    const parent = new Map(e.edges.map((x) => [x.child, x]));
    const pathToRoot = (a: string) => {
      const out: Explained["edges"] = [];
      for (let at = parent.get(a); at; at = parent.get(at.parent)) out.push(at);
      return out;
    };
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = pathToRoot(names[i]);
        const b = pathToRoot(names[j]);
        const path = [...a.filter((x) => !b.includes(x)), ...b.filter((x) => !a.includes(x))];
        const cmi = cmiReference(ref.rows, ref.labels, t2.classes, i, j);
        assert.ok(cmi <= Math.min(...path.map((x) => x.cmi)) + 1e-12, `${names[i]}, ${names[j]}: ${cmi}`);
      }
    }
  });

  test("row 1 (青绿, 蜷缩, 浊响, 清晰, 凹陷, 硬滑): P(c) · P(色泽 | c) · Π P(x_j | c, parent), Laplace-corrected, from the counts", () => {
    // 是 = rows 1–8, 否 = rows 9–17.
    // P(c): 9/19, 10/19. 色泽 青绿 | c: 是 rows 1,4,6 → 4/11; 否 rows 10,13,17 → 4/12.
    // 纹理 清晰 | c, 青绿: 是 1,4,6 all 清晰 → (3+1)/(3+3); 否 10 of 10,13,17 → (1+1)/(3+3).
    // 脐部 凹陷 | c, 清晰: 是 1–5 of 1–6,8 → (5+1)/(7+3); 否 none of 10,15 → 1/(2+3).
    // 触感 硬滑 | c, 清晰: 是 1–5,8 → (6+1)/(7+2); 否 none → 1/(2+2).
    // 根蒂 蜷缩 | c, 凹陷: 是 1–5 all → (5+1)/(5+3); 否 none of 13,14 → 1/(2+3).
    // 敲声 浊响 | c, 蜷缩: 是 1,3,5 of 1–5 → (3+1)/(5+3); 否 12,16 of 12,16,17 → (2+1)/(3+3).
    const yes = (9 / 19) * (4 / 11) * (4 / 6) * (6 / 10) * (7 / 9) * (6 / 8) * (4 / 8);
    const no = (10 / 19) * (4 / 12) * (2 / 6) * (1 / 5) * (1 / 4) * (1 / 5) * (3 / 6);
    const p = tan.predict(s, row(wm2.X, 0));
    near(probaOf(p)[YES], yes / (yes + no), 1e-12, "P(是 | row 1)");
    assert.equal(labelsOf(p)[0], YES);
  });

  test("a missing parent value leaves the child with P(x_j | c); a missing child contributes no factor", () => {
    const x = row(wm2.X, 0);
    // 纹理 missing: 纹理's own factor goes; 脐部 and 触感 fall back to P(凹陷 | c), P(硬滑 | c).
    const blank = makeFrame(x.columns.map((c) => (c.name === "纹理" ? { ...c, codes: Int32Array.of(-1) } : c)));
    const yes = (9 / 19) * (4 / 11) * ((5 + 1) / (8 + 3)) * ((6 + 1) / (8 + 2)) * (6 / 8) * (4 / 8);
    const no = (10 / 19) * (4 / 12) * ((2 + 1) / (9 + 3)) * ((6 + 1) / (9 + 2)) * (1 / 5) * (3 / 6);
    near(probaOf(tan.predict(s, blank))[YES], yes / (yes + no), 1e-12, "P(是) with 纹理 missing");
  });

  test("root names the tree's root; an unknown name is refused; save → load → identical predictions; same seed, same model", () => {
    const r = tan.fit(wm2, tanParams.parse({ root: "纹理" }), ctx());
    const er = tan.explain!(r) as Explained;
    assert.equal(er.root, "纹理");
    // The same undirected tree, directed away from 纹理.
    const undirected = (x: Explained) => x.edges.map((y) => [y.parent, y.child].sort().join("-")).sort();
    assert.deepEqual(undirected(er), undirected(e));
    assert.ok(er.edges.some((x) => x.parent === "纹理" && x.child === "色泽"));
    assert.throws(() => tan.fit(wm2, tanParams.parse({ root: "甜度" }), ctx()), /not one of the features/);
    assert.deepEqual(tan.predict(roundTrip(tan, s), wm2.X), tan.predict(s, wm2.X));
    assert.deepEqual(tan.fit(wm2, tanParams.parse({}), ctx(9)), s);
    assert.throws(() => tan.state.parse({ ...s, parent: Int32Array.from(s.parent, (p, j) => (p < 0 ? 1 : j === 1 ? 0 : p)) }));
  });
});

/** y uniform; x0 uniform; x_{t+1} copies x_t except with probability noise[t], then uniform. Four levels each. */
function chain(n: number, noise: number[], seed: number): { X: Frame; y: Int32Array } {
  const rng = createRng(seed);
  const y = Int32Array.from({ length: n }, () => rng.int(2));
  const cols: Int32Array[] = [Int32Array.from({ length: n }, () => rng.int(4))];
  for (const p of noise) {
    const prev = cols[cols.length - 1];
    cols.push(Int32Array.from(prev, (v) => (rng.next() < p ? rng.int(4) : v)));
  }
  const levels = ["a", "b", "c", "d"];
  return { X: makeFrame(cols.map((codes, j) => ({ type: "categorical" as const, name: `x${j}`, levels, codes }))), y };
}

describe("tan on a chain with an unambiguous CMI ranking", () => {
  const { X, y } = chain(4000, [0.25, 0.3, 0.35], 5);
  const train = { X, target: { task: "classification" as const, classes: ["n", "p"], y } };
  const refRows = rowsOf(X, y, ["n", "p"]);

  test("every pair of chain neighbours carries at least 0.1 nat more CMI than any other pair", () => {
    const cmi = (i: number, j: number) => cmiReference(refRows.rows, refRows.labels, ["n", "p"], i, j);
    const chainPairs = [cmi(0, 1), cmi(1, 2), cmi(2, 3)];
    const others = [cmi(0, 2), cmi(0, 3), cmi(1, 3)];
    assert.ok(Math.min(...chainPairs) > Math.max(...others) + 0.1, `${chainPairs} vs ${others}`);
  });

  test("from x0 the edges run x0 → x1 → x2 → x3; from x3 they run back", () => {
    const fromStart = tan.explain!(tan.fit(train, tanParams.parse({}), ctx())) as Explained;
    assert.deepEqual(fromStart.edges.map((e) => `${e.parent}→${e.child}`), ["x0→x1", "x1→x2", "x2→x3"]);
    const fromEnd = tan.explain!(tan.fit(train, tanParams.parse({ root: "x3" }), ctx())) as Explained;
    assert.deepEqual(fromEnd.edges.map((e) => `${e.parent}→${e.child}`), ["x1→x0", "x2→x1", "x3→x2"]);
    assert.ok(fromStart.edges[0].cmi > fromStart.edges[1].cmi && fromStart.edges[1].cmi > fromStart.edges[2].cmi, "CMI falls along the chain as the noise grows");
  });
});

test("tan: accuracy on iris and wine (numeric attributes in equal-frequency bins)", () => {
  for (const name of ["iris", "wine"] as const) {
    const d = realData(name);
    const s = tan.fit(d.train, tanParams.parse({}), ctx());
    const acc = accuracy(labelsOf(tan.predict(s, d.testX)), (d.testTarget as { y: Int32Array }).y);
    assert.ok(acc >= 0.85, `${name}: ${acc}`);
  }
});
