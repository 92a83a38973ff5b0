import { z } from "zod";
import { HEAD_COLUMNS, HEAD_LEVELS } from "../../store/datasets.js";
import { cellValue } from "./common.js";

export const columnTypeSchema = z.enum(["numeric", "categorical"]);

export const columnSchema = z.object({
  name: z.string(),
  type: columnTypeSchema,
  missing_count: z.number().int(),
  levels: z
    .array(z.string())
    .max(HEAD_LEVELS)
    .optional()
    .describe("Categorical columns: the first 100 levels in level order; page the rest with GET /v1/datasets/{id}/levels?column=."),
  level_count: z.number().int().optional().describe("Categorical columns: the number of levels."),
  summary: z
    .object({ min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable(), std: z.number().nullable() })
    .optional(),
  role_hint: z
    .enum(["identifier"])
    .optional()
    .describe(
      'Categorical columns with a distinct value in at least 95 % of their (≥ 20) present cells: "identifier". Such a column is left out of the default features, with a warning on the model; name it in features to use it.',
    ),
});

export const datasetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    row_count: z.number().int(),
    column_count: z.number().int().describe("Number of columns; `columns` describes at most the first 100."),
    columns: z
      .array(columnSchema)
      .max(HEAD_COLUMNS)
      .describe("The first 100 columns (all of them when there are no more); page the rest with GET /v1/datasets/{id}/columns?offset=100."),
    source: z
      .object({ model_id: z.string(), dataset_id: z.string() })
      .optional()
      .describe("Lineage, for a dataset a model made (POST /v1/models/{id}/transform): the model and the dataset it was applied to. Absent for an upload."),
    created_at: z.string(),
  })
  .meta({ id: "Dataset" });

export const columnsQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const levelsQuery = z.object({
  column: z.string().min(1).describe("A categorical column of the dataset"),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const levelsPage = z.object({ items: z.array(z.string()), total: z.number().int().describe("Number of levels (0 for a numeric column)") });

export const columnsPage = z.object({ items: z.array(columnSchema), total: z.number().int().describe("Number of columns") });

export const createDatasetJson = z
  .object({
    name: z.string().min(1).max(200),
    rows: z.array(z.record(z.string(), cellValue)).min(1).describe("One object per row; an absent key or null is a missing value."),
    column_types: z.record(z.string(), columnTypeSchema).optional().describe("Override the inferred type of a column."),
    missing_values: z.array(z.string()).max(100).optional().describe('Strings read as missing; replaces the default ["", "?", "-", "NA", "NaN"].'),
  })
  .strict();

export const createDatasetCsvQuery = z.object({
  name: z.string().min(1).max(200),
  missing_values: z.string().optional().describe("Comma-separated strings read as missing."),
  column_types: z.string().optional().describe('JSON object, e.g. {"好瓜":"categorical"}, or comma-separated name:type pairs.'),
});

export const rowsQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const rowsPage = z.object({ items: z.array(z.record(z.string(), cellValue)), total: z.number().int() });
