/**
 * Start-up (loading the modules, zod schemas, routes) costs memory the idle server would
 * keep for nothing. Imported by main.ts before it loads anything else, this holds two
 * V8 behaviours off until the server is about to listen, then restores V8's defaults,
 * so under load everything grows and compiles exactly as before:
 *
 * - Young generation: start-up allocates short-lived objects fast enough that V8 doubles
 *   the main thread's semi-spaces up to their maximum (16 MiB each) and keeps them
 *   committed while the server idles, empty: ≈ 22 MiB. --semi-space-growth-factor=1
 *   holds them at their initial size.
 * - Compilers: TurboFan compiles start-up's hot functions (schema builders,
 *   route registration) on background threads, whose zone memory stays in their malloc
 *   arenas after the compiled code is dropped, and maps more of the node binary:
 *   ≈ 10–15 MiB of the idle process (RssAnon −8 to −13, RssFile −3.5). Code that runs
 *   once gains nothing from it. Sparkplug's baseline code for it is kept too (≈ 1–1.5 MiB).
 *   With --no-turbofan --no-sparkplug start-up runs on bytecode, and the functions that
 *   serve requests tier up after listen as usual.
 *
 * V8 reads both flags each time it grows a semi-space or considers optimising a
 * function, so setting them at run time takes effect; no worker thread exists before
 * listen() (both pools start their threads with their first task). A flag given on the
 * command line (or NODE_OPTIONS) is left alone.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** V8's default --semi-space-growth-factor. */
const DEFAULT_GROWTH_FACTOR = 2;

const givenArgs = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const given = (flag: RegExp) => givenArgs.some((arg) => flag.test(arg));
const growthGiven = given(/^--semi[-_]space[-_]growth[-_]factor/);
const turbofanGiven = given(/^--(no[-_])?(turbofan|opt)$/);
const sparkplugGiven = given(/^--(no[-_])?sparkplug$/);
if (!growthGiven) setFlagsFromString("--semi-space-growth-factor=1");
if (!turbofanGiven) setFlagsFromString("--no-turbofan");
if (!sparkplugGiven) setFlagsFromString("--no-sparkplug");

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
  if (!turbofanGiven) setFlagsFromString("--turbofan");
  if (!sparkplugGiven) setFlagsFromString("--sparkplug");
  if (growthGiven) return;
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  setFlagsFromString("--no-expose-gc");
  gc();
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}
