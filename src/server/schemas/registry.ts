/** Wire schemas of the registry (/v1/registry) and of model references in paths. */
import { z } from "zod";
import { ALIAS_PATTERN } from "../model-ref.js";
import { MAX_PARAM_LENGTH } from "../plugins/errors.js";
import { modelSchema } from "./models.js";

export const modelRefParams = z.object({
  id: z
    .string()
    .min(1)
    .max(MAX_PARAM_LENGTH)
    .describe("A model reference: its id (md_…), name@alias, name:version, or name (its latest succeeded version)."),
});

export const aliasName = z.string().max(32).regex(ALIAS_PATTERN).describe("1–32 characters: a letter, then letters, digits, '_', '.', '-' (never a number, so a version segment is one or the other).");

export const registryNameParams = z.object({ name: z.string().min(1).max(MAX_PARAM_LENGTH) });

export const aliasParams = registryNameParams.extend({ alias: aliasName });

const aliasesSchema = z.record(z.string(), z.number().int()).describe("Alias → the version it names.");

export const registryEntrySchema = z
  .object({
    name: z.string(),
    latest_version: z.number().int().describe("The highest version, whatever its status."),
    latest_succeeded_version: z.number().int().nullable().describe("The version the bare name resolves to; null while none has succeeded."),
    aliases: aliasesSchema,
  })
  .meta({ id: "RegistryEntry" });

export const registryListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe("Page size, 1–500."),
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page."),
});

export const registryList = z.object({ items: z.array(registryEntrySchema), next_cursor: z.string().nullable() });

export const registryVersionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100).describe("Versions per page, highest first, 1–500."),
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page."),
});

export const registryNameSchema = z
  .object({
    name: z.string(),
    latest_version: z.number().int(),
    latest_succeeded_version: z.number().int().nullable(),
    aliases: aliasesSchema,
    versions: z.array(modelSchema).describe("The name's models, highest version first (a page: see next_cursor)."),
    next_cursor: z.string().nullable().describe("Set when more (lower) versions remain."),
  })
  .meta({ id: "RegistryName" });

export const setAliasBody = z.object({ version: z.number().int().min(1).max(2 ** 31 - 1) }).strict();

export const aliasMapping = z
  .object({ name: z.string(), alias: z.string(), version: z.number().int(), model_id: z.string().describe("The model the alias now names.") })
  .meta({ id: "RegistryAlias" });
