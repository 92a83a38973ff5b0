import { z } from "zod";

/** The Open Inference Protocol's error body (its REST specification: a descriptive message), answered under /v2 instead of problem+json. */
export const oipError = z.object({ error: z.string() }).meta({ id: "OipError", description: "Open Inference Protocol error: a descriptive message." });

/** Routes under /v2 speak the Open Inference Protocol, errors included. */
export const isOipUrl = (url: string): boolean => url === "/v2" || url.startsWith("/v2/");
