/**
 * A module imported when first needed (what a server that does not use it should not
 * load at start: bullmq, pg, the models in a compute thread that only stores uploads).
 */
import { createRequire } from "node:module";

/**
 * import() of `path` (relative, without extension) next to `base`, the caller's
 * import.meta.url. Under tsx (tests, dev) a worker thread runs the sources as
 * CommonJS, where import() has no loader for .ts: there require goes through tsx's.
 */
export async function importBeside<T>(base: string, path: string): Promise<T> {
  const ts = base.endsWith(".ts");
  const file = `${path}${ts ? ".ts" : ".js"}`;
  if (ts && typeof require === "function") return createRequire(base)(file) as T;
  return (await import(new URL(file, base).href)) as T;
}

/**
 * `load` run by the first call; later calls share its promise, and after a failure the next
 * call runs it again (a lazily imported module that failed to load is not cached as failed).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    }));
}
