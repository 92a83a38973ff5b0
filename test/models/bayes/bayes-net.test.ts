/**
 * bayes_net: variable elimination equals brute-force enumeration; EM never lowers its
 * objective and recovers known CPTs from data with values hidden at random; BIC hill
 * climbing finds the generating skeleton; given structures are checked; round trip.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { bayesNet, bayesNetParams, classScores, type BayesNetState } from "../../../src/models/bayes/bayes-net.js";
import { logGamma } from "../../../src/models/bayes/bayes-net-structure.js";
import { ctx, watermelon } from "../tree/fixtures.js";
import { labelsOf, near, probaOf, roundTrip } from "./helpers.js";

/** Truth: C ∈ {c0, c1} → A ∈ {a0, a1, a2}; C → B ∈ {b0, b1}; A → B; D ∈ {d0, d1} independent noise. */
const P_C = [0.4, 0.6];
const P_A = [
  [0.7, 0.2, 0.1],
  [0.1, 0.3, 0.6],
];
const P_B = [
  [0.9, 0.1], // c0, a0
  [0.6, 0.4], // c0, a1
  [0.2, 0.8], // c0, a2
  [0.5, 0.5], // c1, a0
  [0.3, 0.7], // c1, a1
  [0.05, 0.95], // c1, a2
];

function draw(p: number[], u: number): number {
  let acc = 0;
  for (let k = 0; k < p.length; k++) if (u < (acc += p[k])) return k;
  return p.length - 1;
}

function generate(n: number, hide: number, seed: number): { X: Frame; y: Int32Array } {
  const rng = createRng(seed);
  const y = new Int32Array(n);
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  const dn = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = draw(P_C, rng.next());
    a[i] = draw(P_A[y[i]], rng.next());
    b[i] = draw(P_B[y[i] * 3 + a[i]], rng.next());
    dn[i] = rng.int(2);
    if (rng.next() < hide) a[i] = -1;
    if (rng.next() < hide) b[i] = -1;
  }
  return {
    X: makeFrame([
      { type: "categorical", name: "A", levels: ["a0", "a1", "a2"], codes: a },
      { type: "categorical", name: "B", levels: ["b0", "b1"], codes: b },
      { type: "categorical", name: "D", levels: ["d0", "d1"], codes: dn },
    ]),
    y,
  };
}

const classes = ["c0", "c1"];
const TRUE_EDGES: [string, string][] = [
  ["$class", "A"],
  ["$class", "B"],
  ["A", "B"],
];

interface Explained {
  edges: [string, string][];
  cpts: { variable: string; parents: string[]; probabilities: number[] }[];
}

/** P(class = k, observed) by summing the full joint over every unobserved variable. */
function bruteForce(s: BayesNetState, observed: Int32Array): number[] {
  const V = s.features.length + 1;
  const card = [...s.levels, s.classes.length];
  const parents = Array.from({ length: V }, (_, v) => Array.from(s.parents.subarray(s.parent_offset[v], s.parent_offset[v + 1])));
  const out = new Array(s.classes.length).fill(0);
  const x = new Array(V).fill(0);
  const walk = (v: number) => {
    if (v === V) {
      let p = 1;
      for (let u = 0; u < V; u++) {
        let config = 0;
        for (const q of parents[u]) config = config * card[q] + x[q];
        p *= s.cpt[s.cpt_offset[u] + config * card[u] + x[u]];
      }
      out[x[V - 1]] += p;
      return;
    }
    const values = v < V - 1 && observed[v] >= 0 ? [observed[v]] : Array.from({ length: card[v] }, (_, k) => k);
    for (const k of values) {
      x[v] = k;
      walk(v + 1);
    }
  };
  walk(0);
  return out;
}

describe("bayes_net inference", () => {
  test("variable elimination equals brute-force enumeration for every pattern of observed attributes", () => {
    const wm = watermelon("2.0");
    for (const edges of [null, [["$class", "纹理"], ["纹理", "脐部"], ["脐部", "根蒂"], ["$class", "根蒂"], ["根蒂", "敲声"], ["色泽", "触感"], ["触感", "$class"]]] as const) {
      const s = bayesNet.fit(wm, bayesNetParams.parse({ edges, max_parents: 3 }), ctx());
      const d = s.features.length;
      const rng = createRng(2);
      // The first five rows are complete (the direct path), the rest miss about half their attributes.
      for (let trial = 0; trial < 60; trial++) {
        const row = rng.int(17);
        const observed = Int32Array.from({ length: d + 1 }, (_, j) => (j < d && (trial < 5 || rng.next() < 0.5) ? (wm.X.columns[j] as { codes: Int32Array }).codes[row] : -1));
        const scores = new Float64Array(2);
        classScores(s, Int32Array.from(observed), scores, 0);
        const exact = bruteForce(s, observed);
        const z = exact[0] + exact[1];
        const m = Math.max(scores[0], scores[1]);
        const e0 = Math.exp(scores[0] - m);
        const e1 = Math.exp(scores[1] - m);
        near(e0 / (e0 + e1), exact[0] / z, 1e-12, `trial ${trial}`);
        // With attributes missing the answer comes from elimination, which keeps P(class, evidence) itself
        // (a complete row only sums the families that contain the class).
        if (observed.subarray(0, d).includes(-1)) near(Math.exp(scores[0]), exact[0], 1e-12, `joint, trial ${trial}`);
      }
    }
  });
});

describe("bayes_net EM", () => {
  const { X, y } = generate(6000, 0.25, 11);
  const train = { X, target: { task: "classification" as const, classes, y } };
  const s = bayesNet.fit(train, bayesNetParams.parse({ edges: TRUE_EDGES, max_iter: 200, tol: 1e-10 }), ctx());

  test("the objective (log-likelihood + alpha · Σ log θ) never decreases", () => {
    assert.ok(s.em_objective.length > 3, `${s.em_objective.length} iterations`);
    for (let t = 1; t < s.em_objective.length; t++) assert.ok(s.em_objective[t] >= s.em_objective[t - 1] - 1e-9 * Math.abs(s.em_objective[t]), `step ${t}: ${s.em_objective[t - 1]} → ${s.em_objective[t]}`);
    assert.ok(s.em_objective[s.em_objective.length - 1] > s.em_objective[0], "and rises");
  });

  test("recovers the generating CPTs with a quarter of A and B hidden", () => {
    const e = bayesNet.explain!(s) as Explained;
    const cpt = (v: string) => e.cpts.find((c) => c.variable === v)!;
    assert.deepEqual(cpt("A").parents, ["$class"]);
    P_A.flat().forEach((p, i) => near(cpt("A").probabilities[i], p, 0.04, `P(A | C) ${i}`));
    assert.deepEqual(cpt("B").parents, ["A", "$class"]);
    // B's table rows run over (A, C) with C fastest: row a·2 + c.
    for (let a = 0; a < 3; a++) for (let c = 0; c < 2; c++) near(cpt("B").probabilities[(a * 2 + c) * 2 + 1], P_B[c * 3 + a][1], 0.06, `P(b1 | a${a}, c${c})`);
    P_C.forEach((p, k) => near(cpt("$class").probabilities[k], p, 0.03, `P(C = ${k})`));
  });

  test("without missing values there is no EM, and the CPTs are the smoothed frequencies", () => {
    const full = generate(500, 0, 3);
    const t = bayesNet.fit({ X: full.X, target: { task: "classification", classes, y: full.y } }, bayesNetParams.parse({ edges: [["$class", "A"]] }), ctx());
    assert.equal(t.em_objective.length, 0);
    const a = (full.X.columns[0] as { codes: Int32Array }).codes;
    const n0 = full.y.filter((c) => c === 0).length;
    const n00 = full.y.filter((c, i) => c === 0 && a[i] === 0).length;
    const e = bayesNet.explain!(t) as Explained;
    near(e.cpts.find((c) => c.variable === "A")!.probabilities[0], (n00 + 1) / (n0 + 3), 1e-12, "P(a0 | c0)");
  });
});

describe("bayes_net structure", () => {
  test("BIC and K2 hill climbing find the generating skeleton and leave the noise attribute alone", () => {
    const { X, y } = generate(5000, 0, 7);
    for (const score of ["bic", "k2"] as const) {
      const s = bayesNet.fit({ X, target: { task: "classification", classes, y } }, bayesNetParams.parse({ score }), ctx());
      const e = bayesNet.explain!(s) as Explained;
      const skeleton = e.edges.map((x) => [...x].sort().join("-")).sort();
      assert.deepEqual(skeleton, ["$class-A", "$class-B", "A-B"].sort(), score);
    }
  });

  test("log Γ: Γ(1) = Γ(2) = 1, Γ(5) = 24, Γ(½) = √π, Γ(10.5) and a large argument", () => {
    near(logGamma(1), 0, 1e-14, "Γ(1)");
    near(logGamma(2), 0, 1e-14, "Γ(2)");
    near(logGamma(5), Math.log(24), 1e-13, "Γ(5)");
    near(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-13, "Γ(½)");
    near(logGamma(10.5), 13.940625219403763, 1e-12, "Γ(10.5)");
    // Stirling with two correction terms at 1e6.
    const x = 1e6;
    near(logGamma(x), (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3), 1e-6, "Γ(1e6)");
  });

  test("given edges: unknown names, cycles and too many parents are refused", () => {
    const wm = watermelon("2.0");
    const fit = (edges: [string, string][], extra = {}) => bayesNet.fit(wm, bayesNetParams.parse({ edges, ...extra }), ctx());
    assert.throws(() => fit([["甜度", "$class"]]), /neither a feature/);
    assert.throws(() => fit([["色泽", "根蒂"], ["根蒂", "敲声"], ["敲声", "色泽"]]), /cycle/);
    assert.throws(() => fit([["色泽", "$class"], ["根蒂", "$class"], ["敲声", "$class"]]), /max_parents/);
  });

  test("prediction with any attribute missing; save → load → identical predictions; same seed → same model", () => {
    const wm = watermelon("2.0-alpha");
    const s = bayesNet.fit(wm, bayesNetParams.parse({}), ctx(5));
    assert.ok(s.em_objective.length > 0, "watermelon 2.0α misses values: EM ran");
    const p = bayesNet.predict(s, wm.X);
    probaOf(p).forEach((v) => assert.ok(v >= 0 && v <= 1));
    assert.deepEqual(bayesNet.predict(roundTrip(bayesNet, s), wm.X), p);
    assert.deepEqual(bayesNet.fit(wm, bayesNetParams.parse({}), ctx(5)), s);
    assert.equal(labelsOf(p).length, 17);
  });
});
