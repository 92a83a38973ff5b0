/** zod building blocks for fitted step states (data/ cannot import models/state-schemas). */
import { z } from "zod";

export const f64 = z.instanceof(Float64Array);
export const i32 = z.instanceof(Int32Array);
