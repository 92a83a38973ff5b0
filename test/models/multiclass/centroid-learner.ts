/**
 * A deliberately simple binary learner for testing the wrappers apart from any SVM:
 * nearest class centroid. `withDecision` adds the decision hook
 * (‖x − c₀‖² − ‖x − c₁‖², > 0 towards class 1); without it the wrappers must fall
 * back to predict's labels.
 */
import { z } from "zod";
import type { Frame } from "../../../src/data/frame.js";
import { f64 } from "../../../src/models/state-schemas.js";
import type { BinaryLearner } from "../../../src/models/multiclass/binary-learner.js";

const state = z.object({ c0: f64, c1: f64 }).strict();
type State = z.infer<typeof state>;

function column(X: Frame, j: number): Float64Array {
  const c = X.columns[j];
  if (c.type !== "numeric") throw new Error("numeric only");
  return c.values;
}

function decision(s: State, X: Frame): Float64Array {
  const out = new Float64Array(X.rowCount);
  for (let j = 0; j < s.c0.length; j++) {
    const v = column(X, j);
    for (let i = 0; i < X.rowCount; i++) out[i] += (v[i] - s.c0[j]) ** 2 - (v[i] - s.c1[j]) ** 2;
  }
  return out;
}

export function centroidLearner(withDecision: boolean, calls: { fits: number; rows: number[]; classes: string[][] } = { fits: 0, rows: [], classes: [] }): BinaryLearner<Record<string, never>, State> {
  return {
    name: "centroid",
    family: "test",
    tasks: ["classification"],
    description: "nearest class centroid",
    params: z.object({}).strict(),
    state,
    accepts: { categorical: false, missing: false, weights: false },
    scaleSensitive: true,
    fit(train) {
      calls.fits++;
      calls.rows.push(train.X.rowCount);
      const t = train.target;
      if (!t || t.task !== "classification" || t.classes.length !== 2) throw new Error("binary only");
      calls.classes.push([...t.classes]);
      const d = train.X.columns.length;
      const sums = [new Float64Array(d), new Float64Array(d)];
      const counts = [0, 0];
      for (let i = 0; i < train.X.rowCount; i++) counts[t.y[i]]++;
      for (let j = 0; j < d; j++) {
        const v = column(train.X, j);
        for (let i = 0; i < train.X.rowCount; i++) sums[t.y[i]][j] += v[i];
      }
      return { c0: sums[0].map((s) => s / counts[0]), c1: sums[1].map((s) => s / counts[1]) };
    },
    predict(s, X) {
      const f = decision(s, X);
      return { task: "classification", labels: Int32Array.from(f, (v) => (v >= 0 ? 1 : 0)) };
    },
    ...(withDecision ? { decision } : {}),
  };
}
