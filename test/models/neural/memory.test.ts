/** The neural family's own memory terms (rbf_network, cascade_correlation, som, som_projection, art): defaults fit the default budget; the terms grow with what they name. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateAlgorithmMemory, type MemoryShape } from "../../../src/models/memory-estimate.js";
import { getAlgorithm } from "../../../src/models/registry.js";
import { DEFAULTS } from "../../../src/server/config.js";

const MIB = 1 << 20;
const shape = (rows: number, features: number, classes = 0): MemoryShape => ({ rows, features, levels: [], classes });
const total = (name: string, params: Record<string, unknown>, s: MemoryShape) => estimateAlgorithmMemory(getAlgorithm(name)!, params, s).reduce((t, x) => t + x.bytes, 0);
const NAMES = ["rbf_network", "cascade_correlation", "som", "som_projection", "art"];

test("defaults fit the default budget on 50,000 × 30 and 2,000 × 1,000", () => {
  for (const name of NAMES) {
    const params = getAlgorithm(name)!.params.parse({}) as Record<string, unknown>;
    for (const s of [shape(50_000, 30, 3), shape(2000, 1000, 10)]) {
      const bytes = total(name, params, s);
      assert.ok(bytes > 0 && bytes < DEFAULTS.jobMemoryMb * MIB, `${name}: ${Math.round(bytes / MIB)} MiB`);
    }
  }
});

test("the terms grow with rows and with the size parameters they name", () => {
  for (const name of NAMES) assert.ok(total(name, {}, shape(1000, 5)) < total(name, {}, shape(10_000, 5)), name);
  assert.ok(total("rbf_network", { n_centers: 10 }, shape(5000, 5, 3)) < total("rbf_network", { n_centers: 1000 }, shape(5000, 5, 3)));
  assert.ok(total("cascade_correlation", { max_hidden_units: 5 }, shape(5000, 5, 3)) < total("cascade_correlation", { max_hidden_units: 200 }, shape(5000, 5, 3)));
  assert.ok(total("som", { grid_rows: 5, grid_cols: 5 }, shape(100, 5)) < total("som", { grid_rows: 100, grid_cols: 100 }, shape(100, 5)));
  const rbf = estimateAlgorithmMemory(getAlgorithm("rbf_network")!, { n_centers: 2000 }, shape(50_000, 5, 2));
  assert.equal(rbf.reduce((a, b) => (b.bytes > a.bytes ? b : a)).path, "params.n_centers", "the design dominates and names n_centers");
});
