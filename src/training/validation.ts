/** The validation schemes a train request may ask for (API.md), as one zod union. */
import { z } from "zod";

export const validationSchema = z.discriminatedUnion("method", [
  z
    .object({
      method: z.literal("holdout"),
      test_size: z.number().gt(0).lt(1).default(0.25).describe("Share of rows held out for testing, in (0, 1)."),
      stratify: z.boolean().default(true).describe("Keep class proportions in both parts (classification only)."),
    })
    .strict(),
  z
    .object({
      method: z.literal("kfold"),
      k: z.number().int().min(2).max(1000).default(5),
      stratify: z.boolean().default(true),
    })
    .strict(),
  z
    .object({
      method: z.literal("bootstrap"),
      rounds: z.number().int().min(1).max(1000).default(50),
    })
    .strict(),
  z.object({ method: z.literal("none") }).strict(),
]);

export type Validation = z.infer<typeof validationSchema>;

export function defaultValidation(task: string): Validation {
  return task === "classification" || task === "regression" ? { method: "holdout", test_size: 0.25, stratify: task === "classification" } : { method: "none" };
}
