/**
 * mlp's parameters (issue 10, items 10 and 22): optimiser options only on the solvers
 * that read them, batch and validation options only where they act, and maxima on the
 * network's size and the epochs — checked through resolveSpec, as a train request is.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { mlpParams, MAX_BATCH_SIZE, MAX_EPOCHS, MAX_HIDDEN_LAYERS, MAX_HIDDEN_UNITS, MAX_RESTARTS } from "../../../src/models/neural/params.js";
import { resolveSpec, SpecError, type DatasetColumns } from "../../../src/training/spec.js";

const dataset: DatasetColumns = {
  row_count: 20,
  columns: [
    { name: "a", type: "numeric" },
    { name: "c", type: "categorical", levels: ["p", "q"] },
  ],
};

const resolve = (params: Record<string, unknown>) => resolveSpec({ algorithm: "mlp", target: "c", features: ["a"], params }, dataset).params as Record<string, unknown>;

function refused(params: Record<string, unknown>, path: string): void {
  assert.throws(
    () => resolve(params),
    (e: unknown) => e instanceof SpecError && e.code === "invalid_params" && e.path === path,
    `${JSON.stringify(params)} → 422 at ${path}`,
  );
}

describe("mlp: an option with no effect is refused, one with an effect accepted", () => {
  test("optimiser options by solver", () => {
    refused({ solver: "sgd", momentum: 0.5 }, "params.momentum");
    refused({ beta_1: 0.5, solver: "nesterov" }, "params.beta_1");
    refused({ solver: "momentum", epsilon: 1e-6 }, "params.epsilon");
    refused({ solver: "adagrad", rho: 0.5 }, "params.rho");
    refused({ momentum: 0.5 }, "params.momentum"); // the default solver is adam
    assert.equal(resolve({ solver: "nesterov", momentum: 0.5 }).momentum, 0.5);
    assert.equal(resolve({ beta_1: 0.5 }).beta_1, 0.5);
    assert.equal(resolve({ solver: "rmsprop", rho: 0.5 }).rho, 0.5);
    assert.equal(resolve({ solver: "adagrad", epsilon: 1e-6 }).epsilon, 1e-6);
    assert.equal("beta_1" in resolve({ solver: "sgd" }), false);
  });
  test("batch and validation options where they act", () => {
    refused({ bp: "standard", batch_size: 32 }, "params.batch_size");
    refused({ bp: "accumulated", batch_size: 32 }, "params.batch_size");
    refused({ bp: "accumulated", shuffle: false }, "params.shuffle");
    refused({ validation_fraction: 0.3 }, "params.validation_fraction");
    assert.equal(resolve({ batch_size: 32 }).batch_size, 32);
    assert.equal(resolve({ bp: "standard", shuffle: false }).shuffle, false);
    assert.equal(resolve({ early_stopping: true, validation_fraction: 0.3 }).validation_fraction, 0.3);
  });
});

describe("mlp: size and iteration maxima", () => {
  test("layers, units, epochs, restarts and batch size", () => {
    refused({ hidden_layer_sizes: Array(MAX_HIDDEN_LAYERS + 1).fill(4) }, "params.hidden_layer_sizes");
    refused({ hidden_layer_sizes: [MAX_HIDDEN_UNITS + 1] }, "params.hidden_layer_sizes.0");
    refused({ hidden_layer_sizes: [16, 4096] }, "params.hidden_layer_sizes.1");
    refused({ max_iter: 1e9 }, "params.max_iter");
    refused({ n_iter_no_change: MAX_EPOCHS + 1 }, "params.n_iter_no_change");
    refused({ n_restarts: MAX_RESTARTS + 1 }, "params.n_restarts");
    refused({ batch_size: MAX_BATCH_SIZE + 1 }, "params.batch_size");
    const widest = resolve({ hidden_layer_sizes: Array(MAX_HIDDEN_LAYERS).fill(MAX_HIDDEN_UNITS), max_iter: MAX_EPOCHS, n_restarts: MAX_RESTARTS, batch_size: MAX_BATCH_SIZE });
    assert.equal((widest.hidden_layer_sizes as number[]).length, MAX_HIDDEN_LAYERS);
  });
  test("the JSON Schema carries the maxima and defaults on every solver's branch", () => {
    const schema = z.toJSONSchema(mlpParams, { io: "input", unrepresentable: "any" }) as { oneOf: { properties: Record<string, { default?: unknown; maxItems?: number; maximum?: number; items?: { maximum: number } }> }[] };
    assert.equal(schema.oneOf.length, 6);
    for (const b of schema.oneOf) {
      assert.equal(b.properties.hidden_layer_sizes.maxItems, MAX_HIDDEN_LAYERS);
      assert.equal(b.properties.hidden_layer_sizes.items!.maximum, MAX_HIDDEN_UNITS);
      assert.deepEqual(b.properties.hidden_layer_sizes.default, [100]);
      assert.equal(b.properties.max_iter.maximum, MAX_EPOCHS);
    }
  });
});
