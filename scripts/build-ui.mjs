// Builds the dashboard (ui/) into dist/ui: ui/src compiled by tsc into dist/ui/js, ui/public copied
// as is, and uPlot's ES module and stylesheet vendored beside them (served by the process: no CDN).
// `npm run build` runs it; the browser tests run it once before starting the server.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "ui");
const require = createRequire(import.meta.url);

rmSync(out, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "ui", "tsconfig.json")], { stdio: "inherit" });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
cpSync(join(root, "ui", "public"), out, { recursive: true });
const uplot = join(dirname(require.resolve("uplot/package.json")), "dist");
mkdirSync(join(out, "js", "vendor"), { recursive: true });
cpSync(join(uplot, "uPlot.esm.js"), join(out, "js", "vendor", "uplot.js"));
cpSync(join(uplot, "uPlot.min.css"), join(out, "vendor", "uPlot.min.css"));
