/** zod building blocks for algorithm state schemas (what an artifact may contain). */
import { z } from "zod";

export const f64 = z.instanceof(Float64Array);
export const i32 = z.instanceof(Int32Array);
export const u8 = z.instanceof(Uint8Array);

export const columnSchema = z.discriminatedUnion("type", [
  z.object({ name: z.string(), type: z.literal("numeric") }).strict(),
  z.object({ name: z.string(), type: z.literal("categorical"), levels: z.array(z.string()) }).strict(),
]);
