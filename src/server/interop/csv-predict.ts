/**
 * POST /v1/models/{id}/predict with a text/csv body: the file's rows are predicted
 * exactly as the same rows sent as JSON (cells go to the model's encoding as text),
 * and the answer is the JSON predict response or, with `Accept: text/csv`, the
 * file's columns followed by `prediction` and one `p_<class>` per class (classifiers
 * and clusterings whose model gives probabilities), `score` (anomaly models) or
 * `projection_<j>` (projections).
 * Runs on the request thread or a compute thread alike.
 */
import type { FittedModel } from "../../training/artifact.js";
import { predictWire, type PredictWire } from "../predict.js";
import { csvLine, readCsvTable, tableRows, type CsvCell, type CsvTable } from "./csv.js";

export interface CsvPredictOptions {
  maxRows: number;
  /** JSON answers only: add probabilities (as `probabilities: true` in a JSON body). */
  probabilities: boolean;
  decisionThreshold?: number | "rescale";
  format: "json" | "csv";
}

/** The output columns of a CSV answer and each row's cells for them. */
function outputColumns(wire: PredictWire): { names: string[]; cells: (i: number) => CsvCell[] } {
  if (wire.projections) {
    const dims = wire.projections[0]?.length ?? 0;
    return { names: Array.from({ length: dims }, (_, j) => `projection_${j + 1}`), cells: (i) => wire.projections![i] };
  }
  const predictions = wire.predictions ?? [];
  if (wire.scores) return { names: ["prediction", "score"], cells: (i) => [predictions[i], wire.scores![i]] };
  const probabilities = wire.probabilities;
  const keys = probabilities && probabilities.length > 0 ? Object.keys(probabilities[0]) : [];
  return {
    names: ["prediction", ...keys.map((k) => `p_${k}`)],
    cells: (i) => [predictions[i], ...keys.map((k) => probabilities![i][k])],
  };
}

export function predictionsCsv(table: CsvTable, wire: PredictWire): string {
  const out = outputColumns(wire);
  let text = csvLine([...table.columns, ...out.names]);
  table.cells.forEach((row, i) => (text += csvLine([...row, ...out.cells(i)])));
  return text;
}

/** A table already read → the response body (JSON text or CSV text). */
export function predictTable(modelId: string, model: FittedModel, table: CsvTable, options: CsvPredictOptions): string {
  const body = { rows: tableRows(table), ...(options.decisionThreshold !== undefined ? { decision_threshold: options.decisionThreshold } : {}) };
  if (options.format === "json") return JSON.stringify(predictWire(modelId, model, body, options.probabilities));
  return predictionsCsv(table, predictWire(modelId, model, body, "available"));
}

/** A CSV body's bytes → the response body. */
export function predictCsv(modelId: string, model: FittedModel, bytes: Buffer, options: CsvPredictOptions): string {
  return predictTable(modelId, model, readCsvTable(bytes, options.maxRows), options);
}
