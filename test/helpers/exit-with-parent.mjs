/**
 * Preloaded (--import) into the processes a test cluster spawns (test/helpers/cluster.ts):
 * when the test process dies without cleaning up (killed by a timeout or a signal), its
 * children are re-parented, and this ends them instead of leaving servers and trainers
 * running on the machine. Plain JavaScript: worker threads inherit --import, and they
 * load it before any TypeScript loader is registered in them.
 */
import { setInterval } from "node:timers";
import { isMainThread } from "node:worker_threads";

if (isMainThread) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
  }, 500).unref();
}
