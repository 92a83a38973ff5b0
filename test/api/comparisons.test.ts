import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, countRows, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
let wm2: string;
let reg: string;
const features = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"];
before(async () => {
  t = await testApp({ workers: 1 });
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  wm2 = (await uploadCsv(t.app, "wm2", fixture("watermelon-2.0.csv"))).id;
  const rows = Array.from({ length: 80 }, (_, i) => `${i % 8},${(i * 3) % 5},${(i % 8) * 2 + ((i * 3) % 5) + ((i * 7) % 3) - 1}`);
  reg = (await uploadCsv(t.app, "reg", `a,b,y\n${rows.join("\n")}\n`)).id;
});
after(() => t.close());

async function evaluate(body: Record<string, unknown>) {
  const res = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: body });
  assert.equal(res.statusCode, 202, res.body);
  const done = await waitFor(t.app, res.headers.location as string);
  assert.equal(done.status, "succeeded", JSON.stringify(done));
  return done as Record<string, unknown> & { id: string; metrics: Record<string, number> };
}

const compare = (ids: string[], extra: object = {}) => t.app.inject({ method: "POST", url: "/v1/comparisons", payload: { evaluation_ids: ids, ...extra } });

describe("evaluations of an algorithm spec (no model kept)", () => {
  test("k-fold: folds, mean ± std, a pooled confusion matrix over every row, progress 1", async () => {
    const e = await evaluate({ dataset_id: wm3, algorithm: "cart", target: "好瓜", features, validation: { method: "kfold", k: 5 }, seed: 1 });
    assert.equal(e.method, "kfold");
    assert.equal(e.model_id, undefined);
    assert.equal((e.folds as unknown[]).length, 5);
    assert.equal(e.progress, 1);
    const matrix = (e.confusion_matrix as { matrix: number[][] }).matrix;
    assert.equal(matrix.flat().reduce((a, b) => a + b, 0), 17);
    assert.ok(typeof (e.metrics_std as Record<string, number>).accuracy === "number");
    const models = await countRows(t, "SELECT count(*) AS n FROM models");
    assert.equal(models, 0);
  });

  test("repeated k-fold, leave-one-out, bootstrap with the .632 estimate", async () => {
    const repeated = await evaluate({ dataset_id: wm3, algorithm: "baseline", target: "好瓜", validation: { method: "kfold", k: 3, repeats: 4 }, seed: 2 });
    assert.equal((repeated.folds as unknown[]).length, 12);
    const loo = await evaluate({ dataset_id: wm3, algorithm: "cart", target: "好瓜", features, validation: { method: "loo" }, seed: 2 });
    assert.equal((loo.folds as unknown[]).length, 17);
    const boot = await evaluate({ dataset_id: reg, algorithm: "cart", target: "y", validation: { method: "bootstrap", rounds: 10 }, seed: 2 });
    const est = boot.estimate_632 as Record<string, number>;
    assert.ok(est.mse >= 0);
    assert.ok(boot.oob_fraction as number > 0.25 && (boot.oob_fraction as number) < 0.5);
  });

  test("bias–variance decomposition for regression", async () => {
    const e = await evaluate({ dataset_id: reg, algorithm: "cart", target: "y", validation: { method: "bias_variance", rounds: 8 }, seed: 4 });
    const bv = e.bias_variance as Record<string, number>;
    assert.equal(bv.n_models, 8);
    assert.ok(Math.abs(bv.error - (bv.bias2 + bv.variance + bv.noise)) < 1e-9, JSON.stringify(bv));
  });

  test("binary curves are thinned by curve_points, keeping the end points", async () => {
    const e = await evaluate({ dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["密度", "含糖率"], params: { max_depth: 3 }, validation: { method: "kfold", k: 3 }, seed: 5 });
    const full = (await t.app.inject({ url: `/v1/evaluations/${e.id}?curve_points=1000` })).json().curves.roc;
    const thin = (await t.app.inject({ url: `/v1/evaluations/${e.id}?curve_points=3` })).json().curves.roc;
    assert.ok(thin.fpr.length <= 3 && thin.fpr.length >= 2);
    assert.equal(thin.fpr[0], full.fpr[0]);
    assert.equal(thin.fpr.at(-1), full.fpr.at(-1));
  });

  test("errors: none as a scheme, bias_variance on classes, model_id with algorithm, neither", async () => {
    const post = (payload: object) => t.app.inject({ method: "POST", url: "/v1/evaluations", payload });
    assert.equal((await post({ dataset_id: wm3, algorithm: "cart", target: "好瓜", validation: { method: "none" } })).statusCode, 422);
    assert.equal((await post({ dataset_id: wm3, algorithm: "cart", target: "好瓜", validation: { method: "bias_variance" } })).statusCode, 422);
    assert.equal((await post({ dataset_id: wm3, model_id: "md_x", algorithm: "cart" })).statusCode, 400);
    assert.equal((await post({ dataset_id: wm3 })).statusCode, 400);
    assert.equal((await post({ dataset_id: wm3, algorithm: "nope", target: "好瓜" })).statusCode, 422);
  });
});

describe("POST /v1/comparisons", () => {
  test("same folds → paired t-test; 5×2 → also the 5×2cv t-test", async () => {
    const spec = { dataset_id: wm3, target: "好瓜", features, validation: { method: "kfold", k: 5 }, seed: 9 };
    const a = await evaluate({ ...spec, algorithm: "cart" });
    const b = await evaluate({ ...spec, algorithm: "baseline" });
    assert.equal(a.folds_fingerprint, b.folds_fingerprint);
    const res = await compare([a.id, b.id]);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.metric, "accuracy");
    const t1 = body.tests.find((x: { name: string }) => x.name === "paired_t_test");
    assert.ok(t1 && t1.df === 4 && t1.p_value >= 0 && t1.p_value <= 1);
    assert.equal(t1.significant, t1.p_value < 0.05);
    assert.ok(body.tests.some((x: { name: string }) => x.name === "mcnemar_exact" || x.name === "mcnemar"), "pooled out-of-fold rows are the same rows too");

    const f2 = { ...spec, validation: { method: "five_by_two" } };
    const c = await evaluate({ ...f2, algorithm: "cart" });
    const d = await evaluate({ ...f2, algorithm: "baseline" });
    const five = (await compare([c.id, d.id], { alpha: 0.1 })).json();
    const cv = five.tests.find((x: { name: string }) => x.name === "five_by_two_cv_t_test");
    assert.ok(cv);
    assert.equal(cv.df, 5);
    assert.equal(cv.alpha, 0.1);
  });

  test("different folds → 422", async () => {
    const a = await evaluate({ dataset_id: wm3, algorithm: "cart", target: "好瓜", features, validation: { method: "kfold", k: 4 }, seed: 1 });
    const b = await evaluate({ dataset_id: wm3, algorithm: "baseline", target: "好瓜", features, validation: { method: "kfold", k: 4 }, seed: 2 });
    const res = await compare([a.id, b.id]);
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /different folds/);
  });

  test("two models scored on the same rows → McNemar", async () => {
    const train = async (algorithm: string) => {
      const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm3, algorithm, target: "好瓜", features, validation: { method: "none" } } });
      return (await waitFor(t.app, `/v1/models/${res.json().id}`)).id as string;
    };
    const [m1, m2] = [await train("cart"), await train("baseline")];
    const e1 = await evaluate({ model_id: m1, dataset_id: wm2 });
    const e2 = await evaluate({ model_id: m2, dataset_id: wm2 });
    const body = (await compare([e1.id, e2.id])).json();
    const mc = body.tests.find((x: { name: string }) => x.name.startsWith("mcnemar"));
    assert.ok(mc, JSON.stringify(body));
    // cart fits watermelon 2.0's 17 rows perfectly; the baseline gets the 8 good melons wrong.
    assert.equal(mc.b, 8);
    assert.equal(mc.c, 0);
    assert.ok(mc.p_value < 0.05);
  });

  test("3 learners on 2 datasets → Friedman with Nemenyi; an incomplete table → 422", async () => {
    const ids: string[] = [];
    for (const dataset_id of [wm3, wm2]) {
      for (const [algorithm, params] of [["cart", {}], ["cart", { max_depth: 1 }], ["baseline", {}]] as const) {
        ids.push((await evaluate({ dataset_id, algorithm, params, target: "好瓜", features, validation: { method: "kfold", k: 3 }, seed: 3 })).id);
      }
    }
    const res = await compare(ids);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.learners.length, 3);
    assert.equal(body.average_ranks.length, 3);
    assert.ok(Math.abs(body.average_ranks.reduce((a: number, b: number) => a + b, 0) - 6) < 1e-9, "ranks 1..3 average to a sum of 6");
    assert.ok(body.critical_difference > 0);
    assert.deepEqual(body.tests.map((x: { name: string }) => x.name).length, 2);
    assert.equal((await compare(ids.slice(0, 5))).statusCode, 422);
  });

  test("unknown evaluation → 404; duplicates and one id → 400; unknown metric → 422", async () => {
    assert.equal((await compare(["ev_nope", "ev_nada"])).statusCode, 404);
    assert.equal((await compare(["ev_nope"])).statusCode, 400);
    assert.equal((await compare(["ev_a", "ev_a"])).statusCode, 400);
    const a = await evaluate({ dataset_id: wm3, algorithm: "baseline", target: "好瓜", validation: { method: "kfold", k: 3 }, seed: 1 });
    const b = await evaluate({ dataset_id: wm3, algorithm: "cart", target: "好瓜", validation: { method: "kfold", k: 3 }, seed: 1 });
    assert.equal((await compare([a.id, b.id], { metric: "r2" })).statusCode, 422);
  });
});
