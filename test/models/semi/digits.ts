/** Digits with scikit-learn's 90 % mask (the hidden rows of test/fixtures/semi/semi.json), shared by the semi-supervised tests. */
import { readFileSync } from "node:fs";
import { getColumn, selectColumns } from "../../../src/data/frame.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { createRng } from "../../../src/data/random.js";
import type { FitContext, TrainingSet } from "../../../src/models/contract.js";
import { fixture } from "../../helpers/app.js";

const fx = JSON.parse(readFileSync(new URL("../../fixtures/semi/semi.json", import.meta.url), "utf8")) as { hidden: number[]; cases: { algorithm: string; params: { kernel: { kind: string } }; hidden_accuracy: number }[] };

const frame = readCsv(fixture("digits.csv"), { columnTypes: { target: "categorical" } });
export const X = selectColumns(
  frame,
  frame.columns.filter((c) => c.name !== "target").map((c) => c.name),
);
const digit = getColumn(frame, "target");
if (digit.type !== "categorical") throw new Error("target must be categorical");
export const classes = [...digit.levels].sort();
export const truth = Int32Array.from(digit.codes, (c) => classes.indexOf(digit.levels[c]));
export const hidden: readonly number[] = fx.hidden;
const hiddenSet = new Set(hidden);
export const train: TrainingSet = { X, target: { task: "classification", y: Int32Array.from(truth, (y, i) => (hiddenSet.has(i) ? -1 : y)), classes } };
export const ctx = (seed = 1): FitContext => ({ rng: createRng(seed), progress: () => {} });

/** scikit-learn's accuracy on the hidden rows for one of the fixture's cases. */
export function sklearnHiddenAccuracy(algorithm: string, kernel: string): number {
  return fx.cases.find((c) => c.algorithm === algorithm && c.params.kernel.kind === kernel)!.hidden_accuracy;
}

export function hiddenAccuracy(labels: ArrayLike<number>): number {
  let right = 0;
  for (const i of hidden) if (labels[i] === truth[i]) right++;
  return right / hidden.length;
}
