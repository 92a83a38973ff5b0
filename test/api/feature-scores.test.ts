import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm2: string;
let wm3: string;
let wm2a: string;
before(async () => {
  t = await testApp();
  wm2 = (await uploadCsv(t.app, "wm2", fixture("watermelon-2.0.csv"))).id;
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  wm2a = (await uploadCsv(t.app, "wm2a", fixture("watermelon-2.0-alpha.csv"))).id;
});
after(() => t.close());

const scores = (id: string, payload: object) => t.app.inject({ method: "POST", url: `/v1/datasets/${id}/feature-scores`, payload });
const near = (a: number, b: number) => Math.abs(a - b) <= 0.002;

test("info_gain on watermelon 2.0: the seed's gains, 纹理 first", async () => {
  const res = await scores(wm2, { method: "info_gain", target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"] });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.scores[0].feature, "纹理");
  const by = Object.fromEntries(body.scores.map((s: { feature: string; score: number }) => [s.feature, s.score]));
  for (const [f, g] of Object.entries({ 色泽: 0.108, 根蒂: 0.143, 敲声: 0.141, 纹理: 0.381, 脐部: 0.289, 触感: 0.006 })) assert.ok(near(by[f], g), `${f}: ${by[f]}`);
});

test("gini_index: lower is better, still best first", async () => {
  const body = (await scores(wm2, { method: "gini_index", target: "好瓜", features: ["色泽", "纹理", "触感"] })).json();
  assert.deepEqual(body.scores.map((s: { feature: string }) => s.feature), ["纹理", "色泽", "触感"]);
  assert.ok(near(body.scores[0].score, 0.277));
});

test("continuous attributes report the best bi-partition threshold (watermelon 3.0)", async () => {
  const body = (await scores(wm3, { method: "info_gain", target: "好瓜", features: ["密度", "含糖率"] })).json();
  const by = Object.fromEntries(body.scores.map((s: { feature: string }) => [s.feature, s]));
  assert.ok(near(by["密度"].threshold, 0.3815) && near(by["密度"].score, 0.262));
  assert.ok(near(by["含糖率"].threshold, 0.126) && near(by["含糖率"].score, 0.349));
});

test("missing values use C4.5's weighting: watermelon 2.0α gives 色泽 0.252", async () => {
  const body = (await scores(wm2a, { method: "info_gain", target: "好瓜", features: ["色泽", "纹理"] })).json();
  const by = Object.fromEntries(body.scores.map((s: { feature: string; score: number }) => [s.feature, s.score]));
  assert.ok(near(by["色泽"], 0.252), String(by["色泽"]));
  assert.ok(near(by["纹理"], 0.424));
});

test("filter methods: variance without a target, pearson and chi2 with one", async () => {
  const v = (await scores(wm3, { method: "variance", features: ["密度", "含糖率"] })).json();
  assert.equal(v.target, null);
  assert.equal(v.scores.length, 2);
  assert.ok(v.scores[0].score >= v.scores[1].score);
  const reg = (await uploadCsv(t.app, "reg", "a,b,y\n1,5,2\n2,3,4\n3,8,6\n4,1,8\n")).id;
  const p = (await scores(reg, { method: "pearson", target: "y" })).json();
  assert.equal(p.scores[0].feature, "a");
  assert.ok(Math.abs(p.scores[0].score - 1) < 1e-12);
  const chi = await scores(wm3, { method: "chi2", target: "好瓜", features: ["密度"] });
  assert.equal(chi.statusCode, 200, chi.body);
});

test("errors: unknown dataset 404, unknown column 422, no target 422, unknown method 400", async () => {
  assert.equal((await scores("ds_nope", { method: "info_gain", target: "好瓜" })).statusCode, 404);
  assert.equal((await scores(wm2, { method: "info_gain", target: "甜" })).statusCode, 422);
  assert.equal((await scores(wm2, { method: "info_gain", target: "好瓜", features: ["x"] })).statusCode, 422);
  assert.equal((await scores(wm2, { method: "info_gain" })).statusCode, 422);
  assert.equal((await scores(wm2, { method: "magic", target: "好瓜" })).statusCode, 400);
  assert.equal((await scores(wm3, { method: "info_gain", target: "密度" })).statusCode, 422, "a numeric target for a tree criterion");
});
