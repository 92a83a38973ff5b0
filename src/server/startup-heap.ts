/**
 * Start-up (loading the modules, zod schemas, routes) allocates short-lived objects
 * fast enough that V8 doubles the main thread's semi-spaces up to their maximum
 * (16 MiB each), and then keeps them committed while the server idles, empty: ≈ 22 MiB
 * of the idle process. Imported by main.ts before it loads anything else, this holds
 * the young generation at its initial size until the server is about to listen; then
 * V8's default factor applies again, so under load it grows exactly as before.
 *
 * V8 reads --semi-space-growth-factor each time it grows a semi-space, so setting it
 * at run time takes effect; no worker thread exists before listen() (both pools start
 * their threads with their first task). A factor given on the command line is left alone.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** V8's default --semi-space-growth-factor. */
const DEFAULT_GROWTH_FACTOR = 2;

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].some((arg) => /^--semi[-_]space[-_]growth[-_]factor/.test(arg));
if (!given) setFlagsFromString("--semi-space-growth-factor=1");

/**
 * Called just before listen(). With the young generation held small, start-up's
 * short-lived objects are promoted into the old generation, where the first large
 * request (an upload's 20 MB of external memory starts a full collection) paid
 * ≈ 50 ms of server CPU to collect them; one full collection now, ≈ 60 ms before the
 * server accepts a request, takes that off the first request. The gc function comes
 * from a context of its own (--expose-gc only while it is made), so the process's
 * global scope never has one.
 */
export function endStartup(): void {
  if (given) return;
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  setFlagsFromString("--no-expose-gc");
  gc();
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}
