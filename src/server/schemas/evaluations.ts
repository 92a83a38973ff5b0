import { z } from "zod";
import { jobStatus, problemSchema } from "./common.js";

export const evaluationSchema = z
  .object({
    id: z.string(),
    status: jobStatus,
    model_id: z.string().optional(),
    dataset_id: z.string(),
    algorithm: z.string(),
    params: z.record(z.string(), z.unknown()),
    task: z.string(),
    method: z.string(),
    metrics: z.record(z.string(), z.number().nullable()),
    metrics_std: z.record(z.string(), z.number().nullable()).optional(),
    per_class: z.record(z.string(), z.object({ precision: z.number().nullable(), recall: z.number().nullable(), f1: z.number().nullable(), support: z.number() })).optional(),
    confusion_matrix: z.object({ labels: z.array(z.string()), matrix: z.array(z.array(z.number())) }).optional(),
    curves: z.record(z.string(), z.unknown()).optional(),
    folds: z.array(z.object({ metrics: z.record(z.string(), z.number().nullable()) })).optional(),
    oob_fraction: z.number().optional(),
    test_rows: z.number().int().optional(),
    error: problemSchema.optional(),
    created_at: z.string(),
    finished_at: z.string().optional(),
    updated_at: z.string(),
  })
  .meta({ id: "Evaluation" });

export const listEvaluationsQuery = z.object({
  model_id: z.string().optional(),
  dataset_id: z.string().optional(),
  algorithm: z.string().optional(),
  updated_since: z.iso.datetime().optional().describe("Only evaluations changed after this instant (ISO-8601)."),
});

export const createEvaluationBody = z
  .object({
    model_id: z.string().min(1).describe("Score this model…"),
    dataset_id: z.string().min(1).describe("…on this dataset (it must have the model's features and target)."),
    positive_class: z.string().optional(),
  })
  .strict();
