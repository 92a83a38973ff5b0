/** A model's registry name on the wire (its own file: models.ts and registry.ts both use it). */
import { z } from "zod";
import { MODEL_NAME_MAX, MODEL_NAME_PATTERN } from "../model-ref.js";

/** A model's `name` when it is created or imported: what references can name unambiguously. */
export const modelName = z
  .string()
  .max(MODEL_NAME_MAX)
  .regex(MODEL_NAME_PATTERN)
  .describe(
    "Registry name: 1–64 characters, a letter or digit then letters, digits, '_', '.', '-' (no '@' or ':', the reference separators; not shaped like a model id). " +
      "Each model trained or imported with a name gets the next version of it.",
  );
