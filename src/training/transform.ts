/**
 * A projection model applied to a whole table (POST /v1/models/{id}/transform): the
 * model's feature columns are read as at predict time (conformed to the training
 * schema, through the fitted preprocessing) and replaced by the projections, named
 * by the algorithm's outputNames (pc1, pc2, …). Every other column of the source rows
 * (a target, an id) is kept, after the projections and in its order, so the new table
 * can be trained on. scikit-learn's transform returns the projections only; keeping
 * the rest is what makes the result a dataset "for later training".
 */
import { DataError } from "../data/errors.js";
import { ConformError, conformFrame } from "../data/conform.js";
import type { Column, Frame } from "../data/frame.js";
import type { FittedModel } from "./artifact.js";
import { predictPipeline } from "./pipeline.js";
import { groupDigits } from "../data/group-digits.js";

export function projectedFrame(model: FittedModel, frame: Frame, maxCells: number): Frame {
  const { algorithm } = model;
  if (!algorithm.tasks.includes("projection") || !algorithm.outputNames) throw new DataError(`${algorithm.name} is not a projection`, "model");
  const features = new Set(model.features.map((f) => f.name));
  const kept = frame.columns.filter((c) => !features.has(c.name));
  const names = algorithm.outputNames(model.pipeline.state);
  const clash = kept.find((c) => names.includes(c.name));
  if (clash) throw new DataError(`the dataset already has a column "${clash.name}", which the projection would write; rename it or leave it out of the source`, "dataset_id");
  const cells = frame.rowCount * (names.length + kept.length);
  if (cells > maxCells) throw new DataError(`the projected dataset would hold ${groupDigits(cells)} cells, over XIGUA_MAX_CELLS (${groupDigits(maxCells)})`, "dataset_id");
  let X: Frame;
  try {
    X = conformFrame(frame, model.features);
  } catch (e) {
    if (e instanceof ConformError) throw new DataError(`the dataset does not fit the model: ${e.message}`, "dataset_id");
    throw e;
  }
  const p = predictPipeline(algorithm, model.pipeline, X);
  if (p.task !== "projection" || p.dims !== names.length) throw new Error(`${algorithm.name} predicted ${p.task} where it names ${names.length} projections`);
  const n = frame.rowCount;
  const d = p.dims;
  const projected = names.map((name, k): Column => {
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = p.values[i * d + k];
    return { type: "numeric", name, values };
  });
  return { rowCount: n, columns: [...projected, ...kept] };
}
