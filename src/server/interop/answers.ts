/**
 * An MLflow or OIP request from payload to response text, in two halves around the
 * prediction: `prepare` converts the payload (rows, which probabilities, how to
 * answer) and `finish` formats the predict response. Routes predict in between as
 * /predict does (serve-predict.ts); a body too large to parse on the request thread
 * runs all of it on a compute thread (answerHere), so both give the same bytes.
 */
import type { FittedModel } from "../../training/artifact.js";
import { predictWire, type PredictWire, type Probabilities } from "../predict.js";
import type { PredictBody } from "../schemas/models.js";
import { mlflowRows } from "./mlflow.js";
import { oipInferRequest, oipOutputTensors, selectOutputs } from "./oip.js";

export type InteropFormat = "mlflow" | "oip";

/** OIP's answer names the model as requested and its version (or id). */
export interface OipNames {
  name: string;
  version: string;
}

export interface Prepared {
  body: PredictBody;
  probabilities: Probabilities;
  finish(wire: PredictWire): string;
}

function prepareMlflow(model: FittedModel, payload: unknown, maxRows: number): Prepared {
  const rows = mlflowRows(payload, model.features.map((f) => f.name), maxRows);
  return {
    body: { rows },
    probabilities: false,
    finish: (wire) => JSON.stringify({ predictions: wire.projections ?? wire.predictions ?? [], ...(wire.warnings ? { warnings: wire.warnings } : {}) }),
  };
}

function prepareOip(model: FittedModel, payload: unknown, maxRows: number, names: OipNames): Prepared {
  const parsed = oipInferRequest(payload, model.features, maxRows);
  const selected = selectOutputs(model, parsed.outputs);
  return {
    body: { rows: parsed.rows },
    // Probabilities asked for by name must exist (422 otherwise); by default they come when the model gives them.
    probabilities: parsed.outputs === null ? "available" : selected.includes("probabilities"),
    finish: (wire) =>
      JSON.stringify({
        model_name: names.name,
        model_version: names.version,
        ...(parsed.id !== undefined ? { id: parsed.id } : {}),
        outputs: oipOutputTensors(model, wire, selected),
      }),
  };
}

export function prepare(format: InteropFormat, model: FittedModel, payload: unknown, maxRows: number, names?: OipNames): Prepared {
  return format === "mlflow" ? prepareMlflow(model, payload, maxRows) : prepareOip(model, payload, maxRows, names!);
}

/** The whole request on this thread (a compute thread, for a body too large for the request thread). */
export function answerHere(format: InteropFormat, id: string, model: FittedModel, payload: unknown, maxRows: number, names?: OipNames): string {
  const prepared = prepare(format, model, payload, maxRows, names);
  return prepared.finish(predictWire(id, model, prepared.body, prepared.probabilities));
}
