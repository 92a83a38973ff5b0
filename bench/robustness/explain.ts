/**
 * bench/robustness/explain.ts: what /explain and loading cost on the request
 * thread for a big tree (issue 10, items 1, 7 and 21).
 *
 *   node --import tsx bench/robustness/explain.ts [rows]
 *
 * Grows an unpruned cart on `rows` (default 50,000) rows of noise labels over 4
 * numeric features (about half as many nodes as rows), then times, best of 3:
 * the pruning path (the heap; the path is also stored at fit time, so explain
 * reads it), explain json with the default bound (1,000 nodes) and with the
 * maximum (10,000), the whole tree's text, and loading the artifact (parse,
 * checksum, state schema with the tree checks, one probe prediction).
 */
import { makeFrame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { cart } from "../../src/models/tree/cart.js";
import { explainTree } from "../../src/models/tree/explain.js";
import { ccpPath } from "../../src/models/tree/prune.js";
import type { TreeState } from "../../src/models/tree/tree-state.js";
import { loadArtifact, serializeArtifact } from "../../src/training/artifact.js";

const rows = Number(process.argv[2] ?? 50_000);
const rng = createRng(1);
const columns = Array.from({ length: 4 }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: rows }, () => rng.next()) }));
const y = Int32Array.from({ length: rows }, () => (rng.next() < 0.5 ? 0 : 1));
const X = makeFrame(columns);

function best(label: string, f: () => unknown, runs = 3): void {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    f();
    min = Math.min(min, performance.now() - t0);
  }
  console.log(`${label.padEnd(44)} ${min.toFixed(1).padStart(9)} ms`);
}

const t0 = performance.now();
const state = cart.fit({ X, target: { task: "classification", y, classes: ["a", "b"] } }, cart.params.parse({}), { rng: createRng(2), progress: () => {} }) as TreeState;
console.log(`cart on ${rows} rows: ${state.kind.length} nodes, fitted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

best("pruning path (heap)", () => ccpPath(state));
best("explain json, default 1,000 nodes + stringify", () => JSON.stringify(explainTree(state)));
best("explain json, 10,000 nodes + stringify", () => JSON.stringify(explainTree(state, { maxNodes: 10_000 })));
best("explain text, 10,000 nodes", () => explainTree(state, { format: "text", maxNodes: 10_000 }));

const features = columns.map((c) => ({ name: c.name, type: "numeric" as const }));
const { bytes } = serializeArtifact({
  algorithm: cart,
  params: cart.params.parse({}),
  task: "classification",
  features,
  target: "y",
  classes: ["a", "b"],
  positiveClass: null,
  classCounts: null,
  pipeline: { steps: [], state },
  trainedAt: new Date(0).toISOString(),
});
console.log(`artifact: ${(bytes.length / 1e6).toFixed(1)} MB`);
best("loadArtifact (all checks + probe prediction)", () => loadArtifact(bytes));
