/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core): upload
 * watermelon 3.0 through the page, train c45, see the tree, cross-validate, read the ROC
 * curve and move the threshold slider. Screenshots of every page go to
 * test/e2e/generated/dashboard/ (gitignored). A missing /usr/bin/chromium fails the test:
 * .ci/run installs it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildProcess } from "node:child_process";
import { chromium, type Browser, type Page } from "playwright-core";
import { freePort } from "../helpers/free-port.js";
import { startServer, stopServer } from "../helpers/server-process.js";
import { buildUi } from "../helpers/ui-build.js";

const CHROMIUM = "/usr/bin/chromium";
const SHOTS = fileURLToPath(new URL("./generated/dashboard/", import.meta.url));
const WATERMELON = fileURLToPath(new URL("../fixtures/watermelon-3.0.csv", import.meta.url));

let dir: string;
let server: ChildProcess;
let base: string;
let browser: Browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`);
  buildUi();
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "xigua-dashboard-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer(join(dir, "dashboard.db"), port);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
  });
});

after(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A page that records console errors, uncaught exceptions and every request outside the server's origin. */
async function openPage(width = 1280): Promise<{ page: Page; errors: string[]; foreign: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
  });
  return { page, errors, foreign };
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  assert.equal(res.status, 200, path);
  return (await res.json()) as T;
}

/** Pixels of a canvas that differ from its first pixel: zero for a blank plot. */
function drawnPixels(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (canvas) => {
    // Runs in the page; typed structurally (the test's tsconfig has no DOM library).
    const c = canvas as unknown as { width: number; height: number; getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2] || data[i + 3] !== data[3]) n++;
    return n;
  });
}

test("upload watermelon 3.0 → train c45 → tree with root 纹理 → 5-fold evaluation → ROC and threshold slider, with no console errors", async () => {
  const { page, errors, foreign } = await openPage();
  await page.goto(`${base}/`);
  await page.getByRole("heading", { level: 1, name: "Datasets" }).waitFor();

  // Upload through the page (the file input of the drop zone), with a name.
  await page.getByLabel("CSV file").setInputFiles(WATERMELON);
  await page.getByLabel("Dataset name").fill("watermelon 3.0");
  await page.screenshot({ path: join(SHOTS, "01-datasets.png"), fullPage: true });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByRole("heading", { level: 1, name: "Dataset watermelon 3.0" }).waitFor();
  await page.getByRole("rowheader", { name: "纹理", exact: true }).first().waitFor();
  await page.getByRole("button", { name: "Score features" }).click();
  await page.locator("svg.bar-chart[aria-label^='info_gain']").waitFor();
  await page.screenshot({ path: join(SHOTS, "02-dataset.png"), fullPage: true });
  const datasetId = page.url().split("/").at(-1)!;
  const dataset = await api<{ row_count: number }>(`/v1/datasets/${datasetId}`);
  assert.equal(dataset.row_count, 17);

  // Train c45 on the six categorical columns of watermelon 2.0, on every row.
  await page.getByRole("link", { name: "Train a model on it" }).click();
  await page.getByRole("heading", { level: 1, name: "Train a model" }).waitFor();
  await page.getByLabel("Algorithm", { exact: true }).selectOption("c45");
  await page.getByLabel("Target").selectOption("好瓜");
  for (const dropped of ["编号", "密度", "含糖率"]) await page.getByRole("checkbox", { name: dropped }).uncheck();
  await page.getByLabel("Method").selectOption("none");
  await page.getByLabel("max_depth").waitFor();
  await page.screenshot({ path: join(SHOTS, "03-train.png"), fullPage: true });
  await page.getByRole("button", { name: "Train", exact: true }).click();

  // The model page: the tree diagram's root splits on 纹理.
  await page.getByRole("heading", { level: 1, name: /^Model md_/ }).waitFor();
  const root = page.locator("svg.tree-diagram g.node[data-depth='0'] .node-title");
  await root.waitFor();
  assert.match(await root.textContent() ?? "", /^纹理/);
  await page.locator("svg.tree-diagram g.node[data-depth='0']").click();
  await page.getByRole("table", { name: "Split candidates at this node" }).waitFor();
  await page.screenshot({ path: join(SHOTS, "04-model.png"), fullPage: true });

  // A 5-fold cross-validation from the model page opens the evaluation.
  await page.getByLabel("Folds (k)").fill("5");
  await page.getByRole("button", { name: "Run cross-validation" }).click();
  await page.getByRole("heading", { level: 1, name: /^Evaluation ev_/ }).waitFor();
  await page.locator("#auc").waitFor();
  const evaluationId = page.url().split("/").at(-1)!;
  const evaluation = await api<{ method: string; validation: { k: number }; metrics: { auc: number } }>(`/v1/evaluations/${evaluationId}`);
  assert.equal(evaluation.method, "kfold");
  assert.equal(evaluation.validation.k, 5);
  assert.equal(await page.locator("#auc").textContent(), evaluation.metrics.auc.toFixed(4));
  const rocCanvas = "figure.curve[aria-label='ROC curve'] canvas";
  assert.ok((await drawnPixels(page, rocCanvas)) > 500, "the ROC curve is drawn");

  // The threshold slider recomputes the confusion matrix from the curve.
  const cells = () => page.locator("#threshold-matrix table.heatmap tbody td").allTextContents();
  const slider = page.locator("#threshold");
  const before = await cells();
  await slider.focus();
  await page.keyboard.press("Home");
  const atStart = await cells();
  await page.keyboard.press("End");
  const atEnd = await cells();
  assert.notDeepEqual(atStart, atEnd, "moving the slider changes the confusion matrix");
  assert.ok(before.length === 4 && atStart.length === 4);
  await page.screenshot({ path: join(SHOTS, "05-evaluation.png"), fullPage: true });

  // The list pages, and a phone width.
  for (const [hash, name] of [["#/models", "06-models"], ["#/evaluations", "07-evaluations"], ["#/searches", "08-searches"]] as const) {
    await page.goto(`${base}/${hash}`);
    await page.locator("main h1").waitFor();
    await page.locator("main table, main p").first().waitFor();
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/#/evaluations/${evaluationId}`);
  await page.locator("#auc").waitFor();
  await page.screenshot({ path: join(SHOTS, "09-evaluation-phone.png"), fullPage: true });

  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});
