/**
 * Models: the list, and one model — status, parameters, warnings, validation metrics, the
 * family's views from explain (tree diagram, coefficients, importances, loss curves,
 * dendrogram, reachability plot, 2-D cluster scatter), cross-validation, a predict
 * playground and the artifact download.
 */
import { download, get, poll, send, sleep } from "../api.js";
import { errorBox, field, fill, fmt, h, section, statusBadge, table } from "../dom.js";
import { barChart, barsOf } from "../charts/bar.js";
import { conditionText, treeDiagram } from "../charts/tree.js";
import { lineChart } from "../charts/line.js";
import { dendrogram } from "../charts/dendrogram.js";
import { reachabilityPlot, scatter } from "../charts/points.js";
import { project2d } from "../pca.js";
import { parseValues } from "../values.js";
import { title, type PageContext } from "../page.js";
import type { Algorithm, Cell, Dataset, Evaluation, JsonSchema, Model, Page, TreeNode } from "../types.js";

export async function modelsPage(ctx: PageContext): Promise<void> {
  title(ctx, "Models");
  const page = await get<Page<Model>>("/v1/models?limit=100");
  if (!ctx.alive()) return;
  ctx.main.append(
    page.items.length === 0
      ? h("p", {}, "No models yet: ", h("a", { href: "#/train" }, "train one"), ".")
      : table(
          ["Model", "Algorithm", "Status", "Target", "Accuracy / r²", "Created"],
          page.items.map((m) => [
            h("a", { href: `#/models/${m.id}` }, m.name ?? m.id),
            m.algorithm,
            statusBadge(m.status),
            m.target ?? "—",
            fmt(m.metrics?.accuracy ?? m.metrics?.r2),
            new Date(m.created_at).toLocaleString(),
          ]),
        ),
  );
}

export async function modelPage(ctx: PageContext): Promise<void> {
  const path = `/v1/models/${encodeURIComponent(ctx.params[0])}`;
  let model = await get<Model>(path);
  if (!ctx.alive()) return;
  title(ctx, `Model ${model.name ?? model.id}`);
  const head = h("div");
  ctx.main.append(head);
  // A job still running: follow it here, then show everything.
  while (ctx.alive()) {
    head.replaceChildren(summary(model));
    if (model.status !== "queued" && model.status !== "running") break;
    await sleep(400);
    model = (await poll<Model>(path)).body;
  }
  if (!ctx.alive() || model.status !== "succeeded") return;

  ctx.main.append(
    section("Parameters", table(["Parameter", "Value"], Object.entries(model.params).map(([k, v]) => [k, fmt(v)]))),
  );
  if (model.metrics) {
    ctx.main.append(
      section(
        "Validation metrics",
        h("p", {}, `${String(model.validation.method ?? "")} `, model.evaluation_id ? h("a", { href: `#/evaluations/${model.evaluation_id}` }, "Open the evaluation") : null),
        table(["Metric", "Value"], Object.entries(model.metrics).map(([k, v]) => [k, fmt(v)])),
      ),
    );
  }
  const explain = await get<Record<string, unknown>>(`${path}/explain`).catch((e: Error) => ({ error: e.message }));
  if (!ctx.alive()) return;
  await familyViews(ctx, model, explain);
  ctx.main.append(await evaluationsOf(model));
  if (model.dataset_id && model.target && (model.task === "classification" || model.task === "regression")) ctx.main.append(crossValidate(ctx, model));
  const dataset = model.dataset_id ? await get<Dataset>(`/v1/datasets/${model.dataset_id}`).catch(() => null) : null;
  if (!ctx.alive()) return;
  ctx.main.append(playground(model, dataset), artifact(model));
}

function summary(m: Model): HTMLElement {
  return h(
    "div",
    { class: "card summary" },
    h("p", {}, statusBadge(m.status), ` ${m.algorithm} · ${m.task} · `, m.dataset_id ? h("a", { href: `#/datasets/${m.dataset_id}` }, m.dataset_id) : "imported", m.target ? ` · target ${m.target}` : ""),
    m.status === "queued" || m.status === "running" ? h("progress", { max: 1, value: m.progress, "aria-label": "Training progress" }) : null,
    h("p", { class: "meta" }, `features: ${m.features.join(", ")}`, m.classes ? ` · classes: ${m.classes.join(", ")}` : "", m.fit_seconds !== undefined ? ` · fitted in ${fmt(m.fit_seconds, 3)} s` : ""),
    m.error ? errorBox(`${m.error.title}${m.error.detail ? `: ${m.error.detail}` : ""}`) : null,
    m.warnings?.length ? h("ul", { class: "warnings", "aria-label": "Warnings" }, m.warnings.map((w) => h("li", {}, w))) : null,
  );
}

async function familyViews(ctx: PageContext, model: Model, explain: Record<string, unknown>): Promise<void> {
  if (typeof explain.error === "string") {
    ctx.main.append(section("Explanation", errorBox(explain.error)));
    return;
  }
  if (explain.tree) ctx.main.append(treeSection(explain.tree as TreeNode, explain));
  const coef = explain.coefficients as Record<string, number> | Record<string, Record<string, number>> | undefined;
  if (coef && typeof coef === "object") {
    const perClass = Object.values(coef).some((v) => typeof v === "object");
    ctx.main.append(
      section(
        "Coefficients",
        perClass
          ? Object.entries(coef as Record<string, Record<string, number>>).map(([c, w]) => barChart(barsOf(w), { title: `Coefficients for class ${c}` }))
          : barChart(barsOf(coef as Record<string, number>), { title: `Coefficients (intercept ${fmt(explain.intercept)})` }),
      ),
    );
  }
  if (explain.feature_importances && typeof explain.feature_importances === "object") {
    ctx.main.append(section("Feature importances", barChart(barsOf(explain.feature_importances as Record<string, number>), { title: "Feature importances" })));
  }
  const losses = Object.entries(explain).filter(([k, v]) => /loss/.test(k) && Array.isArray(v) && v.length > 1 && v.every((x) => typeof x === "number" || x === null));
  if (losses.length > 0) ctx.main.append(section("Loss per iteration", lineChart(losses.map(([k, v]) => ({ name: k, values: v as number[] })), { title: "Loss per iteration", yLabel: "loss" })));
  if (Array.isArray(explain.merges) && typeof explain.n_leaves === "number") {
    ctx.main.append(
      section(
        "Dendrogram",
        explain.merges_truncated ? h("p", { class: "help" }, "Only the last merges are listed: earlier clusters are drawn as leaves.") : null,
        dendrogram(explain.merges as number[][], explain.n_leaves, Number(explain.first_merge_listed ?? 0), { title: `Dendrogram, ${model.algorithm}` }),
      ),
    );
  }
  if (Array.isArray(explain.reachability)) ctx.main.append(section("Reachability plot", reachabilityPlot(explain.reachability as (number | null)[], "OPTICS reachability plot")));
  if (model.task === "clustering" && model.dataset_id) ctx.main.append(await clusterScatter(model));
}

function treeSection(root: TreeNode, explain: Record<string, unknown>): HTMLElement {
  const details = h("div", { class: "node-details", "aria-live": "polite" }, h("p", { class: "help" }, "Select a node (click, or Tab and Enter) to see its split candidates; double-click or press c to collapse it."));
  const show = (node: TreeNode, path: string) => {
    const toggle = h("button", { type: "button" }, "Collapse / expand");
    toggle.addEventListener("click", () => diagram.toggle(path));
    fill(details,
      h("h3", {}, node.split ? `Split on ${node.split.feature}` : `Leaf: ${String(node.prediction)}`),
      h("p", {}, `samples ${fmt(node.samples, 2)} · prediction ${String(node.prediction)}`, node.distribution ? ` · ${Object.entries(node.distribution).map(([c, w]) => `${c}: ${fmt(w, 2)}`).join(", ")}` : ""),
      node.split
        ? table(
            ["Candidate", `${node.split.criterion}`, "Threshold"],
            node.split.candidates.map((c) => [c.feature === node.split!.feature ? `${c.feature} (chosen)` : c.feature, fmt(c.score), c.threshold !== undefined ? fmt(c.threshold) : "—"]),
            "Split candidates at this node",
          )
        : null,
      node.children.length ? h("p", {}, `branches: ${node.children.map((c) => conditionText(c.when)).join(" · ")}`) : null,
      node.children.length ? toggle : null,
    );
  };
  const diagram = treeDiagram(root, show);
  return section(
    "Decision tree",
    h("p", { class: "meta" }, `${fmt(explain.node_count)} nodes · depth ${fmt(explain.depth)} · ${fmt(explain.leaves)} leaves${explain.truncated ? " · truncated (the artifact has the whole tree)" : ""}`),
    h("div", { class: "tree-layout" }, diagram.el, details),
  );
}

async function clusterScatter(model: Model): Promise<HTMLElement> {
  const [labels, dataset] = await Promise.all([get<{ items: { row: number; label: number }[] }>(`/v1/models/${model.id}/labels?limit=2000`), get<Dataset>(`/v1/datasets/${model.dataset_id}`)]);
  const numeric = model.features.filter((f) => dataset.columns.find((c) => c.name === f)?.type === "numeric");
  if (numeric.length < 2) return section("Clusters", h("p", {}, "A scatter needs two numeric features."));
  const rows = (await get<{ items: Record<string, Cell>[] }>(`/v1/datasets/${model.dataset_id}/rows?limit=500`)).items;
  const usable = rows.map((r, i) => ({ values: numeric.map((f) => r[f]), label: labels.items[i]?.label ?? -1 })).filter((r) => r.values.every((v) => typeof v === "number"));
  const xy = project2d(usable.map((r) => r.values as number[]));
  const through = numeric.length > 2;
  return section(
    "Clusters",
    scatter(xy.map(([x, y], i) => ({ x, y, label: usable[i].label })), {
      title: through ? "Clusters on the first two principal components" : `Clusters: ${numeric[0]} × ${numeric[1]}`,
      xLabel: through ? "PC 1" : numeric[0],
      yLabel: through ? "PC 2" : numeric[1],
    }),
  );
}

async function evaluationsOf(model: Model): Promise<HTMLElement> {
  const page = await get<Page<Evaluation>>(`/v1/evaluations?model_id=${encodeURIComponent(model.id)}&limit=50&curve_points=2`);
  return section(
    "Evaluations of this model",
    page.items.length === 0
      ? h("p", {}, "None yet.")
      : table(
          ["Evaluation", "Method", "Status", "Accuracy / r²", "Created"],
          page.items.map((ev) => [h("a", { href: `#/evaluations/${ev.id}` }, ev.id), ev.method, statusBadge(ev.status), fmt(ev.metrics.accuracy ?? ev.metrics.r2), new Date(ev.created_at).toLocaleString()]),
        ),
  );
}

/** Parameter names of an algorithm's params_schema, tagged-union variants included. */
function paramNames(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [...new Set([...Object.keys(schema.properties ?? {}), ...variants.flatMap((v) => paramNames(v))])];
}

function crossValidate(ctx: PageContext, model: Model): HTMLElement {
  const method = h("select", { name: "method" }, ["kfold", "learning_curve", "validation_curve"].map((m) => h("option", { value: m }, m)));
  const k = h("input", { type: "number", name: "k", min: 2, max: 1000, step: 1, value: 5, required: true });
  const trainSizes = h("input", { type: "text", name: "train_sizes", placeholder: "0.1, 0.325, 0.55, 0.775, 1" });
  const param = h("select", { name: "param" });
  const values = h("input", { type: "text", name: "values", placeholder: "1, 2, 3, null" });
  const sizesField = field("Training sizes", trainSizes, "Optional: shares of each fold's training part, comma-separated.");
  const paramField = field("Parameter", param);
  const valuesField = field("Values", values, "Comma-separated: numbers, null, or text.");
  // The parameter list comes from /v1/algorithms; until then (or if it fails) the select is empty.
  void get<{ items: Algorithm[] }>("/v1/algorithms")
    .then((list) => {
      const names = paramNames(list.items.find((a) => a.name === model.algorithm)?.params_schema);
      param.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
    })
    .catch(() => undefined);
  const show = () => {
    sizesField.hidden = method.value !== "learning_curve";
    paramField.hidden = valuesField.hidden = method.value !== "validation_curve";
    values.required = method.value === "validation_curve";
  };
  method.addEventListener("change", show);
  show();
  const status = h("div", { "aria-live": "polite" });
  const submit = h("button", { type: "submit" }, "Run cross-validation");
  const form = h("form", { class: "inline", "aria-label": "Cross-validate" }, field("Method", method), field("Folds (k)", k), sizesField, paramField, valuesField, submit);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const validation: Record<string, unknown> = { method: method.value, k: k.valueAsNumber };
    if (method.value === "learning_curve" && trainSizes.value.trim()) validation.train_sizes = parseValues(trainSizes.value);
    if (method.value === "validation_curve") Object.assign(validation, { param: param.value, values: parseValues(values.value) });
    submit.disabled = true;
    try {
      let ev = await send<Evaluation>("POST", "/v1/evaluations", {
        dataset_id: model.dataset_id,
        target: model.target,
        algorithm: model.algorithm,
        features: model.features,
        params: model.params,
        preprocessing: model.preprocessing,
        ...(model.positive_class ? { positive_class: model.positive_class } : {}),
        validation,
        seed: model.seed,
      });
      const bar = h("progress", { max: 1, value: ev.progress, "aria-label": "Evaluation progress" });
      status.replaceChildren(bar);
      while (ctx.alive() && (ev.status === "queued" || ev.status === "running")) {
        await sleep(300);
        ev = (await poll<Evaluation>(`/v1/evaluations/${ev.id}`)).body;
        bar.value = ev.progress;
      }
      if (!ctx.alive()) return;
      if (ev.status === "succeeded") location.hash = `#/evaluations/${ev.id}`;
      else status.replaceChildren(errorBox(`Evaluation ${ev.status}${ev.error ? `: ${ev.error.title} ${ev.error.detail ?? ""}` : ""}`));
    } catch (err) {
      status.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
    } finally {
      submit.disabled = false;
    }
  });
  return section(
    "Cross-validate",
    h("p", { class: "help" }, "The same algorithm, parameters and features, scored by stratified k-fold cross-validation; or its learning curve (scores against training size), or its validation curve (scores against one parameter's values)."),
    form,
    status,
  );
}

function playground(model: Model, dataset: Dataset | null): HTMLElement {
  const inputs = model.features.map((f) => {
    const column = dataset?.columns.find((c) => c.name === f);
    if (column?.type === "categorical" && column.levels) {
      return { f, numeric: false, el: h("select", { name: f }, h("option", { value: "" }, "missing"), column.levels.map((l) => h("option", { value: l }, l))) as HTMLSelectElement | HTMLInputElement };
    }
    const numeric = column?.type === "numeric";
    return { f, numeric, el: h("input", { name: f, type: numeric ? "number" : "text", step: "any", placeholder: numeric && column?.summary ? `mean ${fmt(column.summary.mean, 3)}` : "missing" }) as HTMLSelectElement | HTMLInputElement };
  });
  const out = h("div", { "aria-live": "polite" });
  const form = h("form", { class: "playground", "aria-label": "Predict" }, h("div", { class: "grid" }, inputs.map((i) => field(i.f, i.el))), h("button", { type: "submit" }, "Predict"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const row: Record<string, Cell> = {};
    for (const i of inputs) if (i.el.value !== "") row[i.f] = i.numeric ? Number(i.el.value) : i.el.value;
    try {
      const res = await send<{ predictions?: Cell[]; probabilities?: Record<string, number | null>[]; projections?: number[][]; scores?: (number | null)[] }>("POST", `/v1/models/${model.id}/predict`, {
        rows: [row],
        ...(model.task === "classification" ? { probabilities: true } : {}),
      });
      fill(out,
        h("p", { class: "prediction" }, "Prediction: ", h("strong", {}, res.projections ? JSON.stringify(res.projections[0]) : fmt(res.predictions?.[0])), res.scores ? ` (anomaly score ${fmt(res.scores[0])})` : ""),
        res.probabilities?.[0] ? barChart(Object.entries(res.probabilities[0]).map(([label, p]) => ({ label, value: p ?? 0 })), { title: "Class probabilities" }) : null,
      );
    } catch (err) {
      out.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
    }
  });
  return section("Predict", h("p", { class: "help" }, "An empty field is a missing value."), form, out);
}

function artifact(model: Model): HTMLElement {
  const button = h("button", { type: "button" }, "Download the artifact (JSON)");
  const out = h("div");
  button.addEventListener("click", async () => {
    try {
      const blob = await download(`/v1/models/${model.id}/artifact`);
      const a = h("a", { href: URL.createObjectURL(blob), download: `${model.id}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) {
      out.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
    }
  });
  return section("Artifact", h("p", { class: "help" }, "Import it elsewhere with POST /v1/models/import."), button, out);
}
