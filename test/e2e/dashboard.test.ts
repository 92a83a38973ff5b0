/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core): upload
 * watermelon 3.0 through the page, train c45, see the tree, cross-validate, read the ROC
 * curve and move the threshold slider. Screenshots of every page go to
 * test/e2e/generated/dashboard/ (gitignored). A missing /usr/bin/chromium fails the test:
 * .ci/run installs it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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
const IRIS = fileURLToPath(new URL("../fixtures/iris.csv", import.meta.url));

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

/**
 * The strict Content-Security-Policy the dashboard must live under (no inline script or style,
 * nothing from elsewhere), set on the page here so a violation is a console error whatever the
 * server sends.
 */
const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** A page that records console errors, uncaught exceptions and every request outside the server's origin (and refuses it). */
async function openPage(width = 1280): Promise<{ page: Page; errors: string[]; foreign: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
  await page.route(
    (url) => url.origin !== base,
    (route) => {
      foreign.push(route.request().url());
      return route.abort();
    },
  );
  await page.route(
    (url) => url.origin === base && url.pathname === "/",
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": STRICT_CSP } });
    },
  );
  return { page, errors, foreign };
}

async function api<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.ok(res.status >= 200 && res.status < 300, `${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as T;
}

/** POSTs a job (model, evaluation, search) and polls it until it ends; it must succeed. */
async function job(path: string, body: unknown): Promise<string> {
  let resource = await api<{ id: string; status: string }>(path, body);
  while (resource.status === "queued" || resource.status === "running") {
    await new Promise((r) => setTimeout(r, 50));
    resource = await api(`${path}/${resource.id}`);
  }
  assert.equal(resource.status, "succeeded", JSON.stringify(resource));
  return resource.id;
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
  // Keyboard: "c" on the focused root collapses the tree to one node, again expands it.
  const nodes = page.locator("svg.tree-diagram g.node");
  const allNodes = await nodes.count();
  assert.ok(allNodes > 3);
  await page.locator("svg.tree-diagram g.node[data-depth='0']").focus();
  await page.keyboard.press("c");
  await page.waitForFunction("document.querySelectorAll('svg.tree-diagram g.node').length === 1");
  await page.keyboard.press("c");
  await page.waitForFunction(`document.querySelectorAll('svg.tree-diagram g.node').length === ${allNodes}`);
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

test("every page and chart kind, under a strict CSP: no console error, no request outside the origin", async () => {
  const csv = readFileSync(WATERMELON);
  const upload = await fetch(`${base}/v1/datasets?name=wm3-api`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
  assert.equal(upload.status, 201);
  const ds = ((await upload.json()) as { id: string }).id;
  const numeric = ["密度", "含糖率"];
  const models = {
    logistic: await job("/v1/models", { dataset_id: ds, algorithm: "logistic_regression", target: "好瓜", features: numeric, validation: { method: "none" } }),
    mlp: await job("/v1/models", { dataset_id: ds, algorithm: "mlp", target: "好瓜", features: numeric, params: { solver: "sgd", hidden_layer_sizes: [4], max_iter: 30 }, validation: { method: "none" } }),
    kmeans: await job("/v1/models", { dataset_id: ds, algorithm: "kmeans", features: numeric, params: { n_clusters: 3 } }),
    agnes: await job("/v1/models", { dataset_id: ds, algorithm: "agnes", features: numeric }),
    optics: await job("/v1/models", { dataset_id: ds, algorithm: "optics", features: numeric, params: { min_samples: 3 } }),
  };
  const spec = { dataset_id: ds, target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"], validation: { method: "kfold", k: 5 }, seed: 7 };
  const evaluations = [await job("/v1/evaluations", { ...spec, algorithm: "c45" }), await job("/v1/evaluations", { ...spec, algorithm: "naive_bayes" })];
  const search = await job("/v1/searches", { ...spec, algorithm: "cart", param_grid: { max_depth: [1, 2, 3, 4] } });

  const { page, errors, foreign } = await openPage();
  const listStatuses: number[] = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/v1/evaluations") listStatuses.push(r.status());
  });
  const visit = async (hash: string, shot: string, ready: string) => {
    await page.goto(`${base}/${hash}`);
    await page.locator(ready).first().waitFor();
    // Model pages end with the artifact section: the screenshot waits for the whole page.
    if (hash.startsWith("#/models/")) await page.getByRole("heading", { level: 2, name: "Artifact" }).waitFor();
    await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true });
  };
  await visit(`#/models/${models.logistic}`, "10-model-coefficients", "svg.bar-chart[aria-label^='Coefficients']");
  await visit(`#/models/${models.mlp}`, "11-model-loss", "figure.curve[aria-label='Loss per iteration'] canvas");
  await visit(`#/models/${models.kmeans}`, "12-model-clusters", "svg[aria-label^='Clusters'] circle");
  await visit(`#/models/${models.agnes}`, "13-model-dendrogram", "svg.dendrogram path");
  await visit(`#/models/${models.optics}`, "14-model-reachability", "svg[aria-label='OPTICS reachability plot'] rect");
  // Select two evaluations in the list and compare them: curves overlaid, tests beside them.
  await page.goto(`${base}/#/evaluations`);
  for (const id of evaluations) await page.getByRole("checkbox", { name: `Select ${id}` }).check();
  await page.getByRole("button", { name: "Compare selected" }).click();
  await page.locator("figure.curve[aria-label='ROC curves'] canvas").waitFor();
  assert.equal(new URL(page.url()).hash, `#/compare?ids=${evaluations.join(",")}`);
  await page.getByRole("table").filter({ hasText: "p-value" }).waitFor();
  assert.ok((await drawnPixels(page, "figure.curve[aria-label='ROC curves'] canvas")) > 500);
  await page.screenshot({ path: join(SHOTS, "15-compare.png"), fullPage: true });
  await visit(`#/searches/${search}`, "16-search", "svg[aria-label^='accuracy against max_depth'] circle");
  assert.equal(await page.locator("svg[aria-label^='accuracy against max_depth'] circle").count(), 4);
  await visit("#/evaluations", "17-evaluations", "main table");
  // Shown again, the list polls with If-None-Match: nothing changed, so 304, and the page still draws it.
  assert.equal(listStatuses[0], 200);
  assert.ok(listStatuses.includes(304), `statuses ${listStatuses.join(",")}`);

  // The predict playground answers with the class and its probabilities.
  await page.goto(`${base}/#/models/${models.logistic}`);
  await page.getByLabel("密度").fill("0.7");
  await page.getByLabel("含糖率").fill("0.4");
  await page.getByRole("button", { name: "Predict", exact: true }).click();
  await page.locator("svg.bar-chart[aria-label='Class probabilities']").waitFor();
  assert.match((await page.locator(".prediction strong").textContent()) ?? "", /^(是|否)$/);

  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test("a server that answers 401 gets a key prompt; the key is kept in sessionStorage and sent as a bearer token", async () => {
  const { page, errors, foreign } = await openPage();
  const seen: (string | undefined)[] = [];
  // The server's access plugin is not needed to hold the page to its side: the API answers 401 without the right key.
  await page.route(
    (url) => url.origin === base && url.pathname.startsWith("/v1/"),
    async (route) => {
      const auth = route.request().headers().authorization;
      seen.push(auth);
      if (auth !== "Bearer sk_test_1") return route.fulfill({ status: 401, contentType: "application/problem+json", body: JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401, code: "unauthorized" }) });
      return route.fallback();
    },
  );
  await page.goto(`${base}/#/datasets`);
  const key = page.getByRole("textbox", { name: "API key" });
  await key.waitFor();
  await page.screenshot({ path: join(SHOTS, "18-key-prompt.png"), fullPage: true });
  await key.fill("sk_test_1");
  await page.getByRole("button", { name: "Use key" }).click();
  await page.getByRole("heading", { level: 2, name: "All datasets" }).waitFor();
  await page.locator("main table").waitFor();
  assert.equal(await page.evaluate("sessionStorage.getItem('xigua.apiKey')"), "sk_test_1");
  assert.equal(seen.at(-1), "Bearer sk_test_1");
  // The refused first attempt is the only console error (the browser reports the 401).
  assert.ok(errors.every((e) => /401/.test(e)), errors.join("\n"));
  assert.deepEqual(foreign, []);
  await page.close();
});

test("a CSV dropped on the drop zone is uploaded", async () => {
  const { page, errors, foreign } = await openPage();
  await page.goto(`${base}/#/datasets`);
  await page.locator(".dropzone").waitFor();
  const text = readFileSync(WATERMELON, "utf8");
  // Runs in the page (a string: the test's tsconfig has no DOM library).
  const transfer = await page.evaluateHandle(`(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(text)}], "dropped.csv", { type: "text/csv" })); return dt; })()`);
  await page.dispatchEvent(".dropzone", "drop", { dataTransfer: transfer });
  assert.equal(await page.getByLabel("Dataset name").inputValue(), "dropped");
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByRole("heading", { level: 1, name: "Dataset dropped" }).waitFor();
  const id = page.url().split("/").at(-1)!;
  assert.equal((await api<{ row_count: number }>(`/v1/datasets/${id}`)).row_count, 17);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test("the train form: a tagged-union parameter form (mlp's solver), bounds enforced, a preprocessing step", async () => {
  const csv = readFileSync(WATERMELON);
  const upload = await fetch(`${base}/v1/datasets?name=wm3-train-form`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
  const ds = ((await upload.json()) as { id: string }).id;
  const { page, errors, foreign } = await openPage();
  const posted: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/v1/models") posted.push(r.postData() ?? "");
  });
  await page.goto(`${base}/#/train?dataset=${ds}`);
  await page.locator("fieldset.params").waitFor();
  await page.getByLabel("Algorithm", { exact: true }).selectOption("mlp");
  await page.getByLabel("solver").selectOption("adam");
  await page.getByLabel("max_iter").fill("0");
  await page.getByLabel("Step", { exact: true }).selectOption("impute");
  await page.getByRole("button", { name: "Add step" }).click();
  await page.getByLabel("Method").selectOption("none");
  await page.getByRole("button", { name: "Train", exact: true }).click();
  // max_iter's minimum is 1: the browser refuses the form, nothing is sent.
  assert.equal(await page.getByLabel("max_iter").evaluate((el) => (el as unknown as { validity: { rangeUnderflow: boolean } }).validity.rangeUnderflow), true);
  assert.deepEqual(posted, []);
  await page.getByLabel("max_iter").fill("20");
  await page.getByRole("button", { name: "Train", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: /^Model md_/ }).waitFor();
  assert.equal(posted.length, 1);
  const body = JSON.parse(posted[0]) as { params: unknown; preprocessing: unknown; validation: unknown };
  assert.deepEqual(body.params, { solver: "adam", max_iter: 20 });
  assert.deepEqual(body.preprocessing, [{ step: "impute" }]);
  assert.deepEqual(body.validation, { method: "none" });
  const id = page.url().split("/").at(-1)!;
  const model = await api<{ status: string; params: { solver: string; max_iter: number } }>(`/v1/models/${id}`);
  assert.equal(model.params.solver, "adam");
  assert.equal(model.params.max_iter, 20);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test("learning and validation curves of cart on iris: drawn per metric, with the training column", async () => {
  const upload = await fetch(`${base}/v1/datasets?name=iris-curves`, { method: "POST", headers: { "content-type": "text/csv" }, body: readFileSync(IRIS) });
  assert.equal(upload.status, 201);
  const ds = ((await upload.json()) as { id: string }).id;
  const spec = { dataset_id: ds, target: "target", algorithm: "cart", seed: 3 };
  const learningId = await job("/v1/evaluations", { ...spec, validation: { method: "learning_curve", train_sizes: [0.2, 0.5, 1], k: 3 } });
  const validationId = await job("/v1/evaluations", { ...spec, validation: { method: "validation_curve", param: "max_depth", values: [1, 2, 3, null], k: 3 } });
  type Curve = { points: { metrics: Record<string, number | null>; error?: string }[] };
  const learning = await api<{ learning_curve: Curve; train_metrics: Record<string, number> }>(`/v1/evaluations/${learningId}`);
  const validation = await api<{ validation_curve: Curve }>(`/v1/evaluations/${validationId}`);
  const scored = (c: Curve, m: string) => c.points.filter((p) => !p.error && typeof p.metrics[m] === "number").length;

  const { page, errors, foreign } = await openPage();
  const chart = "section svg.score-curve";
  const metricOf = async () => (await page.locator(`${chart}`).getAttribute("aria-label"))?.split(" ")[0];

  await page.goto(`${base}/#/evaluations/${learningId}`);
  await page.getByRole("heading", { level: 2, name: "Learning curve" }).waitFor();
  assert.equal(await page.locator(chart).getAttribute("data-points"), "3");
  assert.equal(await metricOf(), "accuracy");
  assert.equal(await page.locator(`${chart} circle.validation`).count(), scored(learning.learning_curve, "accuracy"));
  assert.equal(await page.locator(`${chart} circle.training`).count(), 3);
  assert.ok((await page.locator(`${chart} polyline.validation`).count()) >= 1, "the validation line is drawn");
  assert.ok((await page.locator(`${chart} polygon.std-band`).count()) >= 1, "the ±std band is drawn");
  const before = await page.locator(`${chart} circle.validation`).evaluateAll((cs) => cs.map((c) => (c as unknown as { getAttribute(n: string): string }).getAttribute("cy")));
  await page.getByLabel("Metric", { exact: true }).selectOption("macro_f1");
  assert.equal(await metricOf(), "macro_f1");
  assert.equal(await page.locator(`${chart} circle.validation`).count(), scored(learning.learning_curve, "macro_f1"));
  const after = await page.locator(`${chart} circle.validation`).evaluateAll((cs) => cs.map((c) => (c as unknown as { getAttribute(n: string): string }).getAttribute("cy")));
  assert.notDeepEqual(after, before, "another metric, another curve");
  // The training column beside the value.
  await page.getByRole("columnheader", { name: "Training" }).waitFor();
  const shownTrain = Number(await page.locator("[data-train-metric='accuracy']").textContent());
  assert.ok(Math.abs(shownTrain - learning.train_metrics.accuracy) < 1e-4, `training accuracy ${shownTrain} vs ${learning.train_metrics.accuracy}`);
  await page.screenshot({ path: join(SHOTS, "19-learning-curve.png"), fullPage: true });

  await page.goto(`${base}/#/evaluations/${validationId}`);
  await page.getByRole("heading", { level: 2, name: "Validation curve of max_depth" }).waitFor();
  assert.equal(await page.locator(chart).getAttribute("data-points"), "4");
  assert.equal(await page.locator(`${chart} circle.validation`).count(), scored(validation.validation_curve, "accuracy"));
  // null makes the values categorical: evenly spaced, labelled ticks.
  assert.deepEqual(await page.locator(`${chart} text.value`).allTextContents().then((t) => t.slice(-4)), ["1", "2", "3", "null"]);
  await page.getByRole("columnheader", { name: "Training" }).waitFor();
  await page.screenshot({ path: join(SHOTS, "20-validation-curve.png"), fullPage: true });

  // The model page's form starts a validation curve: the parameter from the algorithm's schema, the values parsed.
  const model = await job("/v1/models", { ...spec, validation: { method: "none" } });
  await page.goto(`${base}/#/models/${model}`);
  await page.getByLabel("Method", { exact: true }).selectOption("validation_curve");
  await page.getByLabel("Parameter", { exact: true }).selectOption("max_depth");
  await page.getByLabel("Values", { exact: true }).fill("1, null");
  await page.getByLabel("Folds (k)").fill("3");
  await page.getByRole("button", { name: "Run cross-validation" }).click();
  await page.getByRole("heading", { level: 2, name: "Validation curve of max_depth" }).waitFor();
  assert.equal(await page.locator(chart).getAttribute("data-points"), "2");
  const started = await api<{ validation: unknown }>(`/v1/evaluations/${page.url().split("/").at(-1)!}`);
  assert.deepEqual(started.validation, { method: "validation_curve", param: "max_depth", values: [1, null], k: 3, stratify: true });

  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await page.close();
});
