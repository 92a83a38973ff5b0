/**
 * Ingestion benchmark: readCsv on a generated 100,000 × 20 numeric CSV against
 * pandas.read_csv of the same file.
 *
 *   node --import tsx bench/ingestion/ingest.ts
 *
 * Every measurement runs in a fresh child process, so each one's peak RSS is its
 * own (read from /proc/self/status VmHWM; see peakRssMb in the child for why not
 * process.resourceUsage().maxRSS). The children run plain `node` on a transpiled copy of
 * src/data: under tsx the loader alone adds ~35–50 MB of RSS, which the
 * compiled server (`npm start` runs dist/) does not carry. Timings are file read
 * + parse, as pandas.read_csv(path) does; best of three fresh processes.
 * Results go to the table between the markers in README.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = fileURLToPath(new URL("README.md", import.meta.url));
const ROWS = 100_000;
const COLS = 20;
const RUNS = 3;
const PYTHON = "/usr/bin/python3";

interface Measurement {
  ms: number;
  cpuMs: number;
  maxRssMb: number;
}

interface Encoding {
  /** Quote every field, as R's write.csv and pandas' QUOTE_ALL do. */
  quoteAll?: boolean;
  eol?: string;
}

function generateCsv(path: string, format: (x: number) => string, { quoteAll = false, eol = "\n" }: Encoding = {}): number {
  const field = quoteAll ? (s: string) => `"${s}"` : (s: string) => s;
  // A fixed LCG so the file is the same on every run.
  let s = 12345;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const lines = [Array.from({ length: COLS }, (_, j) => field(`x${j}`)).join(",")];
  for (let i = 0; i < ROWS; i++) {
    const row: string[] = [];
    for (let j = 0; j < COLS; j++) row.push(field(format((next() - 0.5) * 10 ** (j % 5))));
    lines.push(row.join(","));
  }
  writeFileSync(path, lines.join(eol) + eol);
  return statSync(path).size;
}

/** src/data/*.ts → dir/data/*.js, imports unchanged (they already end in .js). */
function transpileDataLayer(dir: string): string {
  const out = join(dir, "data");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const src = join(ROOT, "src/data");
  for (const name of readdirSync(src).filter((n) => n.endsWith(".ts"))) {
    const js = ts.transpileModule(readFileSync(join(src, name), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(out, name.replace(/\.ts$/, ".js")), js);
  }
  return join(out, "read-csv.js");
}

const CHILD = `
import { readFileSync } from "node:fs";
const [csv, mod, mode] = process.argv.slice(2);
const { readCsv } = await import(mod);
const t = performance.now();
const cpu = process.cpuUsage();
if (mode === "baseline") readFileSync(csv);
else readCsv(readFileSync(csv));
const used = process.cpuUsage(cpu);
const ms = mode === "baseline" ? 0 : performance.now() - t;
console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, maxRssMb: peakRssMb() }));

// VmHWM is the peak of this process image alone. maxRSS (getrusage) is not, on
// Linux: it keeps the high-water mark of the image that exec replaced — here a
// fork of the parent benchmark, so a child would report the parent's RSS.
function peakRssMb() {
  try {
    const line = readFileSync("/proc/self/status", "utf8").split("\\n").find((l) => l.startsWith("VmHWM:"));
    if (line) return Number(line.split(/\\s+/)[1]) / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}
`;

const PANDAS = `
import sys, time, resource, json
import pandas as pd
t = time.perf_counter()
cpu = time.process_time()
df = pd.read_csv(sys.argv[1])
cpu_ms = (time.process_time() - cpu) * 1000
ms = (time.perf_counter() - t) * 1000
def peak_rss_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"ms": ms, "cpuMs": cpu_ms, "maxRssMb": peak_rss_mb()}))
`;

function runNode(child: string, csv: string, mod: string, mode: string): Measurement {
  return JSON.parse(execFileSync(process.execPath, [child, csv, mod, mode], { encoding: "utf8" }));
}

function best(runs: Measurement[]): Measurement {
  return { ms: Math.min(...runs.map((r) => r.ms)), cpuMs: Math.min(...runs.map((r) => r.cpuMs)), maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)) };
}

function hasPandas(): boolean {
  return existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import pandas"]).status === 0;
}

const dir = mkdtempSync(join(tmpdir(), "xigua-ingest-"));
try {
  const mod = transpileDataLayer(dir);
  const child = join(dir, "child.mjs");
  writeFileSync(child, CHILD);
  writeFileSync(join(dir, "pandas_read.py"), PANDAS);
  const pandas = hasPandas();
  const datasets: { label: string; format: (x: number) => string; encoding?: Encoding }[] = [
    { label: "6 decimals (`%.6f`)", format: (x: number) => x.toFixed(6) },
    { label: "full precision (`String(x)`, ~17 digits)", format: (x: number) => String(x) },
    // Every field quoted (R's write.csv, pandas QUOTE_ALL): a per-field scan to the end of the buffer once made the LF file quadratic.
    { label: "6 decimals, every field quoted, LF", format: (x: number) => x.toFixed(6), encoding: { quoteAll: true, eol: "\n" } },
    { label: "6 decimals, every field quoted, CRLF", format: (x: number) => x.toFixed(6), encoding: { quoteAll: true, eol: "\r\n" } },
  ];
  const lines: string[] = [];
  for (const d of datasets) {
    const csv = join(dir, "data.csv");
    const size = generateCsv(csv, d.format, d.encoding);
    const sizeMb = size / 2 ** 20;
    const baseline = runNode(child, csv, mod, "baseline");
    const ours = best(Array.from({ length: RUNS }, () => runNode(child, csv, mod, "parse")));
    const py = pandas
      ? best(Array.from({ length: RUNS }, () => JSON.parse(execFileSync(PYTHON, [join(dir, "pandas_read.py"), csv], { encoding: "utf8" })) as Measurement))
      : null;
    const ratio = (a: number, b: number | undefined) => (b ? (a / b).toFixed(2) : "n/a");
    const na = "n/a (no pandas)";
    const cells = [
        d.label,
        `${sizeMb.toFixed(1)} MiB`,
        `${ours.ms.toFixed(0)} ms / ${ours.cpuMs.toFixed(0)} ms`,
        py ? `${py.ms.toFixed(0)} ms / ${py.cpuMs.toFixed(0)} ms` : na,
        `${ratio(ours.ms, py?.ms)} / ${ratio(ours.cpuMs, py?.cpuMs)}`,
        `${ours.maxRssMb.toFixed(0)} MiB = ${(ours.maxRssMb / sizeMb).toFixed(2)} × CSV`,
        `${(ours.maxRssMb - baseline.maxRssMb).toFixed(0)} MiB = ${((ours.maxRssMb - baseline.maxRssMb) / sizeMb).toFixed(2)} × CSV`,
        py ? `${py.maxRssMb.toFixed(0)} MiB` : na,
    ];
    lines.push(`| ${cells.join(" | ")} |`);
    console.log(lines.at(-1));
  }
  const cpu = cpus();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}${pandas ? `, pandas ${execFileSync(PYTHON, ["-c", "import pandas; print(pandas.__version__)"], { encoding: "utf8" }).trim()}` : ""}`;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; load average ${loadavg()[0].toFixed(1)} at the end (the machine is shared). ${ROWS.toLocaleString("en")} rows × ${COLS} numeric columns; times are the best of ${RUNS} fresh processes, file read + parse.`,
    "",
    "| CSV values | size | readCsv wall / CPU | pandas.read_csv wall / CPU | ratio wall / CPU (target ≤ 2) | readCsv peak RSS (target ≤ 4 × CSV) | RSS above node + file read | pandas peak RSS |",
    "|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n");
  console.log(`\n${machine}`);
  writeResults(table);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function writeResults(table: string): void {
  const begin = "<!-- ingest:begin -->";
  const end = "<!-- ingest:end -->";
  const text = readFileSync(README, "utf8");
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`README.md lacks the ${begin} … ${end} markers`);
  writeFileSync(README, `${text.slice(0, a + begin.length)}\n${table}\n${text.slice(b)}`);
}
