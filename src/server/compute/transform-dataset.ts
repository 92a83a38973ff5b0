/**
 * POST /v1/models/{id}/transform on a compute thread: load the source dataset and the
 * model, project every row (training/transform.ts), summarise and store the new dataset
 * with its lineage. O(dataset) work, so never on the request thread; the request thread
 * has checked the model (projection, succeeded) and the dataset's columns.
 */
import { summarizeColumn } from "../../data/summary.js";
import type { DatasetSummary } from "../../store/datasets.js";
import type { Store } from "../../store/store.js";
import { projectedFrame } from "../../training/transform.js";
import { ApiError } from "../errors.js";
import type { ModelCache } from "../model-cache.js";
import { servingModel } from "../predict.js";

export interface TransformTask {
  modelId: string;
  sha256: string;
  datasetId: string;
  /** The new dataset's name. */
  name: string;
  /** XIGUA_MAX_CELLS: the new dataset is held to it like an upload. */
  maxCells: number;
}

export async function transformDataset(reader: { store: Store; models: ModelCache }, writer: Store, task: TransformTask): Promise<DatasetSummary> {
  const model = await servingModel(reader.models, task.modelId, task.sha256);
  const frame = await reader.store.datasets.loadFrame(task.datasetId);
  if (!frame) throw new ApiError("not_found", `dataset ${task.datasetId} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
  const projected = projectedFrame(model, frame, task.maxCells);
  return writer.datasets.insert(task.name, projected, projected.columns.map(summarizeColumn), { model_id: task.modelId, dataset_id: task.datasetId });
}
