/**
 * A model reference in a path: a model id (`md_…`), `name@alias`, `name:version`, or
 * `name` (its latest succeeded version). An id resolves without a store round trip, so
 * the predict hot path stays synchronous; a name goes to the store on every request
 * (no cache), so an alias moved on one node takes effect for the next request on all.
 */
import type { Store } from "../store/store.js";

const MODEL_ID = /^md_[0-9a-z]{16}$/;

/**
 * Names given to new models: no '@' or ':' (the reference separators), no '/' (a path
 * segment), at most 64 characters, and never shaped like a model id (an id wins).
 * With an alias (≤ 32) a reference stays under the router's 100-character path
 * parameter even with '@' percent-encoded (64 + 3 + 32).
 */
export const MODEL_NAME_PATTERN = /^(?!md_[0-9a-z]{16}$)[A-Za-z0-9][\w.-]{0,63}$/;
export const MODEL_NAME_MAX = 64;

/** Aliases start with a letter (so `{v}` of /versions/{v} is a number or an alias, never both). */
export const ALIAS_PATTERN = /^[A-Za-z][\w.-]{0,31}$/;

/** Versions are positive integers without leading zeros, within a 32-bit column. */
const VERSION = /^[1-9]\d{0,9}$/;
const MAX_VERSION = 2 ** 31 - 1;

/**
 * Names as references accept more than new names may be (models named before the
 * pattern existed, e.g. a search's refit "search sr_… best"): anything without the
 * separators or a path's '/'.
 */
const REF_NAME = /^[^@:/]{1,200}$/;

export type ModelRef =
  | { kind: "id"; id: string }
  | { kind: "latest"; name: string }
  | { kind: "version"; name: string; version: number }
  | { kind: "alias"; name: string; alias: string };

export function isModelId(ref: string): boolean {
  return MODEL_ID.test(ref);
}

/** A version number from its text, or undefined when the text is not one. */
export function parseVersion(text: string): number | undefined {
  if (!VERSION.test(text)) return undefined;
  const v = Number(text);
  return v <= MAX_VERSION ? v : undefined;
}

/** What a path's reference names, or undefined when it is not a reference at all (the caller answers 404). Never throws. */
export function parseModelRef(ref: string): ModelRef | undefined {
  if (typeof ref !== "string") return undefined;
  if (MODEL_ID.test(ref)) return { kind: "id", id: ref };
  const at = ref.indexOf("@");
  if (at >= 0) {
    const name = ref.slice(0, at);
    const alias = ref.slice(at + 1);
    return REF_NAME.test(name) && ALIAS_PATTERN.test(alias) ? { kind: "alias", name, alias } : undefined;
  }
  const colon = ref.indexOf(":");
  if (colon >= 0) {
    const name = ref.slice(0, colon);
    const version = parseVersion(ref.slice(colon + 1));
    return REF_NAME.test(name) && version !== undefined ? { kind: "version", name, version } : undefined;
  }
  return REF_NAME.test(ref) ? { kind: "latest", name: ref } : undefined;
}

/** The model id a reference names, or undefined when it names none (the caller answers 404). */
export async function resolveModelRef(store: Store, ref: string): Promise<string | undefined> {
  if (isModelId(ref)) return ref;
  const parsed = parseModelRef(ref);
  if (!parsed) return undefined;
  switch (parsed.kind) {
    case "id":
      return parsed.id;
    case "latest":
      return store.registry.latestSucceeded(parsed.name);
    case "version":
      return store.registry.byVersion(parsed.name, parsed.version);
    case "alias":
      return store.registry.byAlias(parsed.name, parsed.alias);
  }
}

/** OIP's `/v2/models/{name}/versions/{v}`: `{v}` is a version number or an alias of `name`. */
export async function resolveNameVersion(store: Store, name: string, versionOrAlias: string): Promise<string | undefined> {
  if (!REF_NAME.test(name)) return undefined;
  const version = parseVersion(versionOrAlias);
  if (version !== undefined) return store.registry.byVersion(name, version);
  return ALIAS_PATTERN.test(versionOrAlias) ? store.registry.byAlias(name, versionOrAlias) : undefined;
}
