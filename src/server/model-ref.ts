/**
 * A model reference in a path: a model id (`md_…`); the registry adds
 * `name@alias`, `name:version` and `name` (its latest succeeded version).
 * An id resolves without a store round trip, so the predict hot path stays synchronous.
 */
import type { Store } from "../store/store.js";

const MODEL_ID = /^md_[0-9a-z]{16}$/;

export function isModelId(ref: string): boolean {
  return MODEL_ID.test(ref);
}

/** The model id a reference names, or undefined when it names none (the caller answers 404). */
export async function resolveModelRef(_store: Store, ref: string): Promise<string | undefined> {
  return isModelId(ref) ? ref : undefined;
}
