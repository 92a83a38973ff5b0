/**
 * Issue 10, items 10 and 22: a parameter that would have no effect is refused (422
 * invalid_params at params.<name>), an effective one accepted, and iteration counts and
 * tolerances have bounds — checked through resolveSpec, where a train request's params are
 * validated before anything is queued.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { getAlgorithm } from "../../../src/models/registry.js";
import { resolveSpec, SpecError, type DatasetColumns } from "../../../src/training/spec.js";
import { MAX_ITER, MIN_TOL } from "../../../src/models/linear/params.js";

const dataset: DatasetColumns = {
  row_count: 20,
  columns: [
    { name: "a", type: "numeric" },
    { name: "b", type: "numeric" },
    { name: "y", type: "numeric" },
    { name: "c", type: "categorical", levels: ["p", "q", "r"] },
  ],
};

function resolve(algorithm: string, params: Record<string, unknown>) {
  const target = algorithm.match(/regression$|ridge|lasso|elastic/) && algorithm !== "logistic_regression" && algorithm !== "softmax_regression" ? "y" : "c";
  return resolveSpec({ algorithm, target, features: ["a", "b"], params }, dataset);
}

function refused(algorithm: string, params: Record<string, unknown>, path: string, message?: RegExp): void {
  assert.throws(
    () => resolve(algorithm, params),
    (e: unknown) => e instanceof SpecError && e.code === "invalid_params" && e.path === path && (!message || message.test(e.message)),
    `${algorithm} ${JSON.stringify(params)} → 422 at ${path}`,
  );
}

function accepted(algorithm: string, params: Record<string, unknown>): Record<string, unknown> {
  return resolve(algorithm, params).params as Record<string, unknown>;
}

interface Case {
  algorithm: string;
  inert: [Record<string, unknown>, string][];
  effective: Record<string, unknown>[];
}

const CASES: Case[] = [
  {
    algorithm: "linear_regression",
    inert: [
      [{ solver: "lstsq", momentum: 0.5 }, "params.momentum"],
      [{ tol: 1e-3 }, "params.tol"],
      [{ solver: "lstsq", max_iter: 10 }, "params.max_iter"],
      [{ solver: "newton", learning_rate_init: 0.5 }, "params.learning_rate_init"],
      [{ solver: "adam", momentum: 0.5 }, "params.momentum"],
      [{ solver: "momentum", beta_1: 0.5 }, "params.beta_1"],
      [{ solver: "gd", power_t: 0.25 }, "params.power_t"],
      [{ solver: "gd", shuffle: false }, "params.shuffle"],
    ],
    effective: [{ solver: "momentum", momentum: 0.5 }, { solver: "adam", beta_1: 0.8, beta_2: 0.99 }, { solver: "gd", learning_rate: "invscaling", power_t: 0.25 }, { solver: "gd", batch_size: 4, shuffle: false }, { solver: "lbfgs", tol: 1e-8 }],
  },
  {
    algorithm: "ridge",
    inert: [
      [{ momentum: 0.5 }, "params.momentum"],
      [{ solver: "cholesky", tol: 1e-3 }, "params.tol"],
      [{ solver: "bfgs", epsilon: 1e-6 }, "params.epsilon"],
    ],
    effective: [{ alpha: 2 }, { solver: "rmsprop", rho: 0.8, epsilon: 1e-6 }, { solver: "bfgs", max_iter: 50 }],
  },
  {
    algorithm: "logistic_regression",
    inert: [
      [{ momentum: 0.5 }, "params.momentum"],
      [{ solver: "newton", batch_size: 8 }, "params.batch_size"],
      [{ penalty: "none", C: 3 }, "params.C"],
      [{ penalty: "l2", l1_ratio: 0.2 }, "params.l1_ratio"],
      [{ penalty: "l1", solver: "newton" }, "params.solver"],
    ],
    effective: [{ C: 3 }, { penalty: "elasticnet", l1_ratio: 0.2 }, { penalty: "l1", solver: "gd", learning_rate_init: 0.5 }, { solver: "nesterov", momentum: 0.8 }],
  },
  {
    algorithm: "softmax_regression",
    inert: [
      [{ beta_2: 0.9 }, "params.beta_2"],
      [{ penalty: "l1", l1_ratio: 0.9, solver: "lbfgs" }, "params.l1_ratio"],
    ],
    effective: [{ solver: "adam", beta_2: 0.9 }, { penalty: "l1" }],
  },
  {
    algorithm: "perceptron",
    inert: [
      [{ code_size: 3 }, "params.code_size"],
      [{ multiclass: "ovo", decoding: "euclidean" }, "params.decoding"],
      [{ multiclass: "ecoc", code_matrix: "exhaustive", code_size: 3 }, "params.code_size"],
    ],
    effective: [{ multiclass: "ecoc", code_size: 3 }, { multiclass: "ecoc", decoding: "euclidean" }, { eta0: 0.5 }],
  },
];

describe("a parameter that has no effect is refused, one that has is accepted", () => {
  for (const c of CASES) {
    test(c.algorithm, () => {
      for (const [params, path] of c.inert) refused(c.algorithm, params, path, /no effect|needs solver/);
      for (const params of c.effective) {
        const resolved = accepted(c.algorithm, params);
        for (const [k, v] of Object.entries(params)) assert.deepEqual(resolved[k], v, `${c.algorithm} kept ${k}`);
      }
    });
  }
  test("the 422 says which solvers an option belongs to", () => {
    refused("linear_regression", { momentum: 0.5 }, "params.momentum", /solver "lstsq" \(only with "momentum", "nesterov"\)/);
  });
  test("an unknown parameter is still unknown, an unknown solver lists the solvers", () => {
    refused("linear_regression", { solver: "lstsq", moment: 0.5 }, "params.moment", /unknown parameter/);
    refused("ridge", { solver: "sag" }, "params.solver", /"cholesky", "gd"/);
  });
  test("inert options at their defaults are dropped, so params stored before the union still resolve", () => {
    const legacy = { fit_intercept: true, solver: "lstsq", max_iter: 1000, tol: 1e-6, normalize_features: true, learning_rate: "constant", learning_rate_init: 0.1, power_t: 0.5, batch_size: null, shuffle: true, momentum: 0.9, beta_1: 0.9, beta_2: 0.999, epsilon: 1e-8, rho: 0.9 };
    assert.deepEqual(accepted("linear_regression", legacy), { solver: "lstsq", fit_intercept: true });
    assert.deepEqual(accepted("logistic_regression", { solver: "lbfgs", momentum: 0.9, C: 1, l1_ratio: 0.5 }), accepted("logistic_regression", {}));
  });
  test("each solver's parsed params hold exactly its own options", () => {
    const keys = (params: Record<string, unknown>) => Object.keys(accepted("linear_regression", params)).sort();
    const base = ["fit_intercept", "solver"];
    const iterative = [...base, "max_iter", "normalize_features", "tol"];
    const firstOrder = [...iterative, "batch_size", "learning_rate", "learning_rate_init", "power_t", "shuffle"];
    assert.deepEqual(keys({}), base.sort());
    assert.deepEqual(keys({ solver: "lbfgs" }), iterative.sort());
    assert.deepEqual(keys({ solver: "gd" }), firstOrder.sort());
    assert.deepEqual(keys({ solver: "nesterov" }), [...firstOrder, "momentum"].sort());
    assert.deepEqual(keys({ solver: "adagrad" }), [...firstOrder, "epsilon"].sort());
    assert.deepEqual(keys({ solver: "rmsprop" }), [...firstOrder, "epsilon", "rho"].sort());
    assert.deepEqual(keys({ solver: "adam" }), [...firstOrder, "beta_1", "beta_2", "epsilon"].sort());
  });
});

describe("iteration counts and tolerances are bounded (item 22)", () => {
  for (const algorithm of ["linear_regression", "ridge", "logistic_regression", "softmax_regression", "lasso", "elastic_net", "perceptron"]) {
    test(algorithm, () => {
      const solver = algorithm === "linear_regression" || algorithm === "ridge" ? { solver: "gd" } : {};
      refused(algorithm, { ...solver, max_iter: 1e9 }, "params.max_iter");
      refused(algorithm, { ...solver, max_iter: MAX_ITER + 1 }, "params.max_iter");
      assert.equal(accepted(algorithm, { ...solver, max_iter: MAX_ITER }).max_iter, MAX_ITER);
      if (algorithm === "perceptron") return;
      refused(algorithm, { ...solver, tol: 1e-300 }, "params.tol");
      assert.equal(accepted(algorithm, { ...solver, tol: MIN_TOL }).tol, MIN_TOL);
    });
  }
  test("the first-order batch size has a maximum", () => {
    refused("logistic_regression", { solver: "gd", batch_size: 1e12 }, "params.batch_size");
  });
});

describe("GET /v1/algorithms' JSON Schema of a solver union", () => {
  const schema = z.toJSONSchema(getAlgorithm("ridge")!.params, { io: "input", unrepresentable: "any" }) as { oneOf: { properties: Record<string, { default?: unknown; const?: string; maximum?: number }>; additionalProperties: boolean; required?: string[] }[] };
  test("one closed object per solver, each with its defaults; only the default solver may be omitted", () => {
    assert.equal(schema.oneOf.length, 11);
    for (const branch of schema.oneOf) {
      assert.equal(branch.additionalProperties, false);
      assert.equal(branch.properties.alpha.default, 1);
      const solver = branch.properties.solver;
      if (solver.const === "cholesky") {
        assert.equal(solver.default, "cholesky");
        assert.deepEqual(Object.keys(branch.properties).sort(), ["alpha", "fit_intercept", "solver"]);
      } else {
        assert.deepEqual(branch.required, ["solver"]);
        assert.equal(branch.properties.max_iter.maximum, MAX_ITER);
        assert.equal(branch.properties.max_iter.default, 1000);
      }
    }
    assert.equal(schema.oneOf.find((b) => b.properties.solver.const === "adam")!.properties.beta_1.default, 0.9);
    assert.equal(schema.oneOf.find((b) => b.properties.solver.const === "newton")!.properties.beta_1, undefined);
  });
});
