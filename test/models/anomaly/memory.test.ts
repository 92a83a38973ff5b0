/** The anomaly family's memory terms: ordinary requests fit the default budget; the terms grow with what they name. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateAlgorithmMemory, hasMemoryModel, type MemoryShape } from "../../../src/models/memory-estimate.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { DEFAULTS } from "../../../src/server/config.js";

const MIB = 1 << 20;
const shape = (rows: number, features: number): MemoryShape => ({ rows, features, levels: [], classes: 0 });
const anomalies = listAlgorithms().filter((a) => a.tasks.includes("anomaly"));
const total = (name: string, params: Record<string, unknown>, s: MemoryShape) => {
  const a = anomalies.find((x) => x.name === name)!;
  return estimateAlgorithmMemory(a, a.params.parse(params) as Record<string, unknown>, s).reduce((t, x) => t + x.bytes, 0);
};

test("every anomaly algorithm has terms, and its defaults fit the default budget on 50,000 × 30 and 2,000 × 1,000", () => {
  assert.ok(anomalies.some((a) => a.name === "isolation_forest"));
  for (const a of anomalies) {
    assert.ok(hasMemoryModel(a), a.name);
    for (const s of [shape(50_000, 30), shape(2000, 1000)]) {
      const bytes = total(a.name, {}, s);
      assert.ok(bytes > 0 && bytes < DEFAULTS.jobMemoryMb * MIB, `${a.name}: ${Math.round(bytes / MIB)} MiB`);
    }
  }
});

test("isolation_forest's terms grow with rows, trees and ψ (a count or a share), and ψ stops at the row count", () => {
  assert.ok(total("isolation_forest", {}, shape(1000, 5)) < total("isolation_forest", {}, shape(10_000, 5)));
  assert.ok(total("isolation_forest", { n_estimators: 10 }, shape(1000, 5)) < total("isolation_forest", { n_estimators: 100 }, shape(1000, 5)));
  assert.ok(total("isolation_forest", { max_samples: 256 }, shape(10_000, 5)) < total("isolation_forest", { max_samples: 5000 }, shape(10_000, 5)));
  assert.ok(total("isolation_forest", { max_samples_fraction: 0.1 }, shape(10_000, 5)) < total("isolation_forest", { max_samples_fraction: 0.9 }, shape(10_000, 5)));
  assert.equal(total("isolation_forest", { max_samples: 5000 }, shape(1000, 5)), total("isolation_forest", { max_samples: 1000 }, shape(1000, 5)));
});
