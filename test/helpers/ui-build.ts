/** The browser tests serve the compiled dashboard: build it (ui/ → dist/ui, as `npm run build` does) once per test process. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

let built = false;

export function buildUi(): void {
  if (built) return;
  const script = fileURLToPath(new URL("../../scripts/build-ui.mjs", import.meta.url));
  const result = spawnSync(process.execPath, [script], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`the dashboard build failed (exit ${result.status})`);
  built = true;
}
