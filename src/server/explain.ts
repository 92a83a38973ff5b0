/**
 * A model's explanation as the bytes /explain sends. Runs on the compute pool:
 * loading a large artifact (parse + structural checks) and walking its state
 * are O(artifact), so neither happens on the request thread; the route caches
 * the bytes per artifact sha256 and options.
 */
import type { FittedModel } from "../training/artifact.js";
import { ApiError } from "./errors.js";

export interface ExplainOptions {
  format: "json" | "text" | "dot";
  maxNodes: number;
  maxDepth?: number;
  maxValues: number;
}

export interface Explained {
  body: string;
  contentType: string;
}

export function explainModel(model: FittedModel, options: ExplainOptions): Explained {
  const { algorithm } = model;
  if (!algorithm.explain) throw new ApiError("unusable_request", `${algorithm.name} has no explanation`);
  const explanation = algorithm.explain(model.pipeline.state, options);
  if (typeof explanation === "string") {
    return { body: explanation, contentType: options.format === "dot" ? "text/vnd.graphviz; charset=utf-8" : "text/plain; charset=utf-8" };
  }
  if (options.format !== "json") throw new ApiError("unusable_request", `${algorithm.name} explains itself only as json`, [{ path: "query.format", message: "unsupported format" }]);
  return { body: JSON.stringify(explanation), contentType: "application/json; charset=utf-8" };
}
