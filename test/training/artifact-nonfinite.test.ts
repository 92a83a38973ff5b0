/**
 * A fit whose state is not finite fails with UnusableInputError (a 422-class
 * job failure) instead of "succeeding" with a model that cannot predict or be
 * re-imported (issue 10, item 18).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { UnusableInputError } from "../../src/models/contract.js";
import { MAX_CLASSES } from "../../src/models/state-schemas.js";
import { serializeArtifact } from "../../src/training/artifact.js";
import { trainOn } from "./helpers-artifact.js";

function hugeTable(scale = 1e306): string {
  const lines = ["x,y"];
  for (let i = 0; i < 20; i++) lines.push(`${(1 + i) * scale},${(7 - (i % 5)) * 15 * scale}`);
  return `${lines.join("\n")}\n`;
}

test("linear_regression on values near 1e307: the job fails as unusable input, naming the overflow", () => {
  const result = trainOn(hugeTable(), { algorithm: "linear_regression", target: "y" });
  assert.throws(
    () => serializeArtifact(result.model),
    (e: unknown) => {
      assert.ok(e instanceof UnusableInputError, String(e));
      assert.match(e.message, /diverged or overflowed/);
      assert.match(e.message, /not a finite number|NaN|Infinity/);
      assert.match(e.message, /rescale/);
      return true;
    },
  );
});

test("the same data rescaled fits and serialises", () => {
  const table = hugeTable(1);
  const result = trainOn(table, { algorithm: "linear_regression", target: "y" });
  assert.ok(serializeArtifact(result.model).bytes.length > 0);
});

test("a target with more classes than an artifact may hold fails as unusable input, not as a defect", () => {
  const rows = Array.from({ length: MAX_CLASSES + 1 }, (_, i) => `${i % 7},c${i}`);
  const result = trainOn(`x,label\n${rows.join("\n")}\n`, { algorithm: "baseline", target: "label" });
  assert.throws(() => serializeArtifact(result.model), (e: unknown) => e instanceof UnusableInputError && /more than 10000 classes/.test(e.message));
});
