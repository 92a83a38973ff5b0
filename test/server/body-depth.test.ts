import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_BODY_DEPTH, tooDeepPath } from "../../src/server/plugins/body-depth.js";

const nest = (depth: number, asObject: boolean): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = asObject ? { k: v } : [v];
  return v;
};

test("a body exactly at the depth limit passes; one level more is refused, for arrays and objects alike", () => {
  for (const asObject of [false, true]) {
    assert.equal(tooDeepPath(nest(MAX_BODY_DEPTH, asObject)), null);
    assert.notEqual(tooDeepPath(nest(MAX_BODY_DEPTH + 1, asObject)), null);
  }
  assert.equal(tooDeepPath("text"), null);
  assert.equal(tooDeepPath(null), null);
  assert.equal(tooDeepPath({ rows: Array.from({ length: 1000 }, (_, i) => ({ a: i, b: "x" })) }), null, "wide is not deep");
});

test("the path names the first container past the limit, in the errors[].path style", () => {
  const body = { name: "x", params: { grid: [1, { a: nest(10, false) }] } };
  assert.equal(tooDeepPath(body, 6), "params.grid[1].a[0][0]");
  assert.equal(tooDeepPath([[[1]]], 2), "[0][0]");
});

test("a 100,000-level value is refused without recursion", () => {
  const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
  assert.match(tooDeepPath(deep) ?? "", /^(\[0\]){64}$/);
});
