/** Wire schemas shared by every route: problems, pagination, ids. */
import { z } from "zod";

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    code: z.string().describe("Stable machine-readable error code."),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details." });

export const idParams = z.object({ id: z.string().min(1).max(64) });

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe("Page size, 1–500."),
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page."),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

export const jobStatus = z.enum(["queued", "running", "succeeded", "failed", "cancelled"]);

/** Responses every route may give, documented once. */
export const errorResponses = {
  400: problemSchema,
  422: problemSchema,
  500: problemSchema,
} as const;

export const cellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
