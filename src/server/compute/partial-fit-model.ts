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
import { partialFitModel, partialFitModelOnFrame, PartialFitError } from "../../training/partial-fit.js";
import { describePipeline } from "../../training/pipeline.js";
import { ApiError } from "../errors.js";
import type { ModelCache } from "../model-cache.js";
import { servingModel } from "../predict.js";

export interface PartialFitTask {
  modelId: string;
  sha256: string;
  /** Exactly one of rows (JSON rows) and datasetId (a stored dataset's rows). */
  rows?: unknown[];
  datasetId?: string;
  /** The new model's name: the parent's unless the request gave one; its next version. */
  name: string | null;
  /** XIGUA_JOB_MEMORY_MB: the update is refused (422) when its estimated peak is above it. */
  jobMemoryMb: number;
}

/** What a partially fitted model's spec keeps besides the parent's. */
export interface PartialFitLineage {
  parent_model_id: string;
  partial_fit_rows: number;
  /** When the rows came from a stored dataset. */
  partial_fit_dataset_id?: string;
}

export async function partialFitStored(reader: { store: Store; models: ModelCache }, writer: Store, task: PartialFitTask): Promise<ModelRecord> {
  const model = await servingModel(reader.models, task.modelId, task.sha256);
  const parent = await reader.store.models.get(task.modelId);
  if (!parent) throw new ApiError("not_found", `model ${task.modelId} does not exist`);
  let bytes: Buffer;
  let sha256: string;
  let updated;
  let rows: number;
  try {
    const options = { seed: parent.spec.seed, jobMemoryMb: task.jobMemoryMb };
    if (task.datasetId !== undefined) {
      const frame = await reader.store.datasets.loadFrame(task.datasetId);
      if (!frame) throw new ApiError("not_found", `dataset ${task.datasetId} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
      ({ model: updated, rows } = partialFitModelOnFrame(model, frame, options));
    } else {
      updated = partialFitModel(model, task.rows ?? [], options);
      rows = task.rows?.length ?? 0;
    }
    ({ bytes, sha256 } = serializeArtifact(updated));
  } catch (e) {
    if (e instanceof PartialFitError) throw new ApiError(e.code, e.message, [{ path: e.path, message: e.message }]);
    if (e instanceof UnusableInputError) throw new ApiError("unusable_input", e.message);
    throw e;
  }
  const lineage: PartialFitLineage = { parent_model_id: task.modelId, partial_fit_rows: rows, ...(task.datasetId !== undefined ? { partial_fit_dataset_id: task.datasetId } : {}) };
  const spec: TrainSpec = { ...parent.spec, name: task.name, validation: { method: "none" }, ...lineage };
  return writer.models.insertImported(spec, bytes, sha256, updated.classes, describePipeline(updated.pipeline));
}
