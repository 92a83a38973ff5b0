/**
 * POST /v1/models/{id}/partial-fit on a compute thread: load the model, update its learner with
 * the new rows (training/partial-fit.ts), check and store the result as a new, already trained
 * model whose spec records its lineage (`parent_model_id`). O(rows + model) work, so never on
 * the request thread; the request thread has checked that the model succeeded and that its
 * algorithm has a partial fit.
 */
import { UnusableInputError } from "../../models/contract.js";
import type { ModelRecord, TrainSpec } from "../../store/models.js";
import type { Store } from "../../store/store.js";
import { serializeArtifact } from "../../training/artifact.js";
import { partialFitModel, PartialFitError } from "../../training/partial-fit.js";
import { describePipeline } from "../../training/pipeline.js";
import { ApiError } from "../errors.js";
import type { ModelCache } from "../model-cache.js";
import { servingModel } from "../predict.js";

export interface PartialFitTask {
  modelId: string;
  sha256: string;
  rows: unknown[];
  /** The new model's name: the parent's unless the request gave one; its next version. */
  name: string | null;
}

/** What a partially fitted model's spec keeps besides the parent's. */
export interface PartialFitLineage {
  parent_model_id: string;
  partial_fit_rows: number;
}

export async function partialFitStored(reader: { store: Store; models: ModelCache }, writer: Store, task: PartialFitTask): Promise<ModelRecord> {
  const model = await servingModel(reader.models, task.modelId, task.sha256);
  const parent = await reader.store.models.get(task.modelId);
  if (!parent) throw new ApiError("not_found", `model ${task.modelId} does not exist`);
  let bytes: Buffer;
  let sha256: string;
  let updated;
  try {
    updated = partialFitModel(model, task.rows, { seed: parent.spec.seed });
    ({ bytes, sha256 } = serializeArtifact(updated));
  } catch (e) {
    if (e instanceof PartialFitError) throw new ApiError(e.code, e.message, [{ path: e.path, message: e.message }]);
    if (e instanceof UnusableInputError) throw new ApiError("unusable_input", e.message);
    throw e;
  }
  const lineage: PartialFitLineage = { parent_model_id: task.modelId, partial_fit_rows: task.rows.length };
  const spec: TrainSpec = { ...parent.spec, name: task.name, validation: { method: "none" }, ...lineage };
  return writer.models.insertImported(spec, bytes, sha256, updated.classes, describePipeline(updated.pipeline));
}
