/**
 * Start-up (modules, zod schemas, routes, the OpenAPI document) allocates short-lived
 * objects fast enough that V8 doubles the main thread's semi-spaces up to their
 * maximum, and then keeps them committed while the server idles, empty: ≈ 14 MiB of
 * the idle process. Imported by main.ts before it loads anything else, this holds the young generation at
 * its initial size until the server listens; then V8's default factor applies again,
 * so under load the young generation grows exactly as before.
 *
 * V8 reads --semi-space-growth-factor each time it grows a semi-space, so setting it
 * at run time takes effect; no worker thread exists before listen() (both pools start
 * their threads with their first task). A factor given on the command line is left alone.
 */
import { setFlagsFromString } from "node:v8";

/** V8's default --semi-space-growth-factor. */
const DEFAULT_GROWTH_FACTOR = 2;

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].some((arg) => /^--semi[-_]space[-_]growth[-_]factor/.test(arg));
if (!given) setFlagsFromString("--semi-space-growth-factor=1");

/** Start-up is over: the young generation may grow again. */
export function endStartup(): void {
  if (!given) setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}
