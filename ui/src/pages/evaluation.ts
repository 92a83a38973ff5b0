/**
 * Evaluations: the list (polled with If-None-Match), one evaluation (metrics with per-class
 * rows, confusion-matrix heat map, ROC and P-R curves with AUC / AP and the break-even point,
 * a threshold slider, the folds' spread), and several overlaid with POST /v1/comparisons.
 */
import { get, poll, send, sleep } from "../api.js";
import { errorBox, field, fmt, h, section, statusBadge, table } from "../dom.js";
import { confusionHeatmap } from "../charts/confusion.js";
import { curveChart } from "../charts/curves.js";
import { foldSpread } from "../charts/points.js";
import { scoreCurve, type ScoreCurveData } from "../charts/score-curve.js";
import { confusionAt } from "../threshold.js";
import { title, type PageContext } from "../page.js";
import type { Comparison, CurveResult, Evaluation, Page } from "../types.js";

const HEADLINE = ["accuracy", "f1", "auc", "r2", "rmse", "silhouette"];

function headline(ev: Evaluation): string {
  const name = HEADLINE.find((m) => typeof ev.metrics[m] === "number");
  return name ? `${name} ${fmt(ev.metrics[name])}` : "—";
}

export async function evaluationsPage(ctx: PageContext): Promise<void> {
  title(ctx, "Evaluations");
  const compare = h("button", { type: "button", disabled: true }, "Compare selected");
  const holder = h("div", { class: "table-scroll" });
  const selected = new Set<string>();
  compare.addEventListener("click", () => (location.hash = `#/compare?ids=${[...selected].join(",")}`));
  ctx.main.append(h("p", { class: "help" }, "Select two or more to overlay their curves and test the difference."), compare, holder);
  // Poll while shown: the list answers 304 (nothing to redraw) until an evaluation changes.
  // The first answer is always drawn: a 304 then means "as when this list was last shown", not "nothing to show".
  let drawn = false;
  while (ctx.alive()) {
    const { body, changed } = await poll<Page<Evaluation>>("/v1/evaluations?limit=100&curve_points=2");
    if ((changed || !drawn) && ctx.alive()) {
      drawn = true;
      holder.replaceChildren(
        body.items.length === 0
          ? h("p", {}, "No evaluations yet.")
          : table(
              ["", "Evaluation", "Algorithm", "Method", "Status", "Score", "Created"],
              body.items.map((ev) => {
                const box = h("input", { type: "checkbox", "aria-label": `Select ${ev.id}`, checked: selected.has(ev.id) });
                box.addEventListener("change", () => {
                  if (box.checked) selected.add(ev.id);
                  else selected.delete(ev.id);
                  compare.disabled = selected.size < 2;
                });
                return [box, h("a", { href: `#/evaluations/${ev.id}` }, ev.id), ev.algorithm, ev.method, statusBadge(ev.status), headline(ev), new Date(ev.created_at).toLocaleString()];
              }),
            ),
      );
    }
    await sleep(3000);
  }
}

export async function evaluationPage(ctx: PageContext): Promise<void> {
  const path = `/v1/evaluations/${encodeURIComponent(ctx.params[0])}`;
  let ev = await get<Evaluation>(path);
  if (!ctx.alive()) return;
  title(ctx, `Evaluation ${ev.id}`);
  const head = h("div");
  ctx.main.append(head);
  while (ctx.alive()) {
    head.replaceChildren(
      h(
        "div",
        { class: "card summary" },
        h("p", {}, statusBadge(ev.status), ` ${ev.algorithm} · ${ev.task} · ${ev.method}`, ev.model_id ? [" · ", h("a", { href: `#/models/${ev.model_id}` }, ev.model_id)] : "", " · ", h("a", { href: `#/datasets/${ev.dataset_id}` }, ev.dataset_id)),
        ev.status === "queued" || ev.status === "running" ? h("progress", { max: 1, value: ev.progress, "aria-label": "Evaluation progress" }) : null,
        ev.error ? errorBox(`${ev.error.title}${ev.error.detail ? `: ${ev.error.detail}` : ""}`) : null,
        ev.warnings?.length ? h("ul", { class: "warnings" }, ev.warnings.map((w) => h("li", {}, w))) : null,
      ),
    );
    if (ev.status !== "queued" && ev.status !== "running") break;
    await sleep(400);
    ev = (await poll<Evaluation>(path)).body;
  }
  if (!ctx.alive() || ev.status !== "succeeded") return;
  ctx.main.append(metricsSection(ev));
  if (ev.confusion_matrix) ctx.main.append(section("Confusion matrix", confusionHeatmap(ev.confusion_matrix.labels, ev.confusion_matrix.matrix, "Rows actual, columns predicted")));
  for (const curve of [ev.learning_curve, ev.validation_curve]) if (curve) ctx.main.append(scoreCurveSection(ev, curve));
  if (ev.curves) ctx.main.append(curvesSection(ev));
  if (ev.folds && ev.folds.length > 1) ctx.main.append(foldsSection(ev));
}

function metricsSection(ev: Evaluation): HTMLElement {
  const std = ev.metrics_std ?? {};
  const train = ev.train_metrics;
  return section(
    "Metrics",
    table(
      ["Metric", "Value", ...(ev.metrics_std ? ["± std across folds"] : []), ...(train ? ["Training"] : [])],
      Object.entries(ev.metrics).map(([k, v]) => [k, h("span", { "data-metric": k }, fmt(v)), ...(ev.metrics_std ? [fmt(std[k])] : []), ...(train ? [h("span", { "data-train-metric": k }, fmt(train[k]))] : [])]),
    ),
    train ? h("p", { class: "help" }, "Training: the same metrics on the rows each model was fitted on; far above the value, the model over-fits.") : null,
    ev.per_class
      ? table(
          ["Class", "Precision", "Recall", "F1", "Support", ...(ev.auc_per_class ? ["AUC (one vs rest)"] : [])],
          Object.entries(ev.per_class).map(([c, m]) => [c, fmt(m.precision), fmt(m.recall), fmt(m.f1), m.support, ...(ev.auc_per_class ? [fmt(ev.auc_per_class[c])] : [])]),
          "Per class",
        )
      : null,
  );
}

/** A validation_curve value as a tick label: null (the parameter's "none"), numbers, strings. */
function valueLabel(v: unknown): string {
  return v === null || v === undefined ? "null" : typeof v === "string" ? v : fmt(v);
}

/** The arrays the chart draws, for one metric: a point with an error, or without the metric, is a gap. */
function curveData(curve: CurveResult, metric: string): ScoreCurveData {
  const score = (m: Record<string, number | null>) => (typeof m[metric] === "number" ? m[metric] : null);
  const ok = curve.points.map((p) => !p.error);
  const base = {
    validation: curve.points.map((p, i) => (ok[i] ? score(p.metrics) : null)),
    validationStd: curve.points.map((p, i) => (ok[i] ? score(p.metrics_std ?? {}) : null)),
    training: curve.points.map((p, i) => (ok[i] ? score(p.train_metrics ?? {}) : null)),
  };
  if (curve.kind === "learning_curve") return { x: curve.points.map((p) => p.train_size ?? p.fraction ?? 0), ...base };
  // A numeric parameter gets a numeric axis; anything else (null, strings, a mix) evenly spaced labels.
  const numeric = curve.points.every((p) => typeof p.value === "number");
  if (numeric) {
    // Sorted by value so the line runs left to right.
    const order = curve.points.map((_, i) => i).sort((a, b) => (curve.points[a].value as number) - (curve.points[b].value as number));
    return { x: order.map((i) => curve.points[i].value as number), validation: order.map((i) => base.validation[i]), validationStd: order.map((i) => base.validationStd[i]), training: order.map((i) => base.training[i]) };
  }
  return { x: curve.points.map((_, i) => i), labels: curve.points.map((p) => valueLabel(p.value)), ...base };
}

function scoreCurveSection(ev: Evaluation, curve: CurveResult): HTMLElement {
  const learning = curve.kind === "learning_curve";
  const names = [...new Set(curve.points.flatMap((p) => Object.keys(p.metrics)))].filter((m) => curve.points.some((p) => typeof p.metrics[m] === "number"));
  const preferred = curve.scoring ?? (ev.task === "regression" ? "r2" : "accuracy");
  const select = h("select", { name: "curve-metric", class: "curve-metric" }, names.map((m) => h("option", { value: m }, m)));
  select.value = names.includes(preferred) ? preferred : (names[0] ?? "");
  const holder = h("div", { class: "score-curve-holder" });
  const xLabel = learning ? "training rows" : (curve.param ?? "parameter");
  const draw = () => {
    const metric = select.value;
    holder.replaceChildren(scoreCurve(curveData(curve, metric), { title: `${metric} against ${xLabel}`, xLabel, yLabel: metric }));
  };
  select.addEventListener("change", draw);
  draw();
  const failed = curve.points.filter((p) => p.error);
  return section(
    learning ? "Learning curve" : `Validation curve of ${curve.param ?? "a parameter"}`,
    field("Metric", select),
    holder,
    failed.length
      ? h(
          "ul",
          { class: "warnings curve-errors" },
          failed.map((p) => h("li", {}, `${learning ? `${fmt(p.train_size ?? p.fraction)} rows` : `${curve.param} = ${valueLabel(p.value)}`}: ${p.error}`)),
        )
      : null,
  );
}

function curvesSection(ev: Evaluation): HTMLElement {
  const { roc, pr } = ev.curves!;
  const rocChart = curveChart([{ name: `ROC (AUC ${fmt(ev.metrics.auc)})`, x: roc.fpr, y: roc.tpr }], { title: "ROC curve", xLabel: "false positive rate", yLabel: "true positive rate", diagonal: true });
  const prChart = curveChart([{ name: `P-R (AP ${fmt(ev.metrics.average_precision)})`, x: pr.recall, y: pr.precision }], { title: "Precision–recall curve", xLabel: "recall", yLabel: "precision" });
  if (typeof ev.metrics.bep === "number") prChart.mark({ x: ev.metrics.bep, y: ev.metrics.bep, label: `BEP ${fmt(ev.metrics.bep, 3)}` });
  const figures = h(
    "div",
    { class: "curves" },
    h("div", {}, rocChart.el, h("p", { class: "curve-stat" }, "AUC = ", h("output", { id: "auc", "data-metric-shown": "auc" }, fmt(ev.metrics.auc)))),
    h("div", {}, prChart.el, h("p", { class: "curve-stat" }, "AP = ", h("output", { id: "ap" }, fmt(ev.metrics.average_precision)), typeof ev.metrics.bep === "number" ? ` · break-even point ${fmt(ev.metrics.bep)}` : "")),
  );
  const parts: HTMLElement[] = [figures];
  if (ev.confusion_matrix && ev.confusion_matrix.labels.length === 2 && ev.positive_class) {
    const { labels, matrix } = ev.confusion_matrix;
    const positive = ev.positive_class;
    const slider = h("input", { type: "range", id: "threshold", min: 0, max: roc.thresholds.length - 1, step: 1 });
    const initial = roc.thresholds.findIndex((t) => t !== null && t <= 0.5);
    slider.value = String(initial < 0 ? 0 : initial);
    const shown = h("output", { for: "threshold", id: "threshold-value" });
    const holder = h("div", { id: "threshold-matrix" });
    const update = () => {
      const i = slider.valueAsNumber;
      const at = confusionAt(labels, matrix, positive, roc.fpr[i], roc.tpr[i]);
      const t = roc.thresholds[i];
      // The curve starts above every score (or at ∞, sent as null): nothing is predicted positive there.
      const none = t === null || t > 1;
      shown.textContent = none ? "nothing predicted positive" : `predict ${positive} when its score ≥ ${fmt(t, 3)}`;
      slider.setAttribute("aria-valuetext", shown.textContent);
      rocChart.mark({ x: roc.fpr[i], y: roc.tpr[i], label: none ? "∞" : fmt(t, 2) });
      holder.replaceChildren(
        confusionHeatmap(labels, at.matrix, `At this threshold (${positive} positive)`),
        table(["Metric", "At this threshold"], Object.entries(at.metrics).map(([k, v]) => [k, fmt(v)])),
      );
    };
    slider.addEventListener("input", update);
    update();
    parts.push(h("div", { class: "threshold" }, field("Decision threshold (a point of the ROC curve)", slider), shown, holder));
  }
  return section("ROC and precision–recall curves", ...parts);
}

function foldsSection(ev: Evaluation): HTMLElement {
  const names = Object.keys(ev.folds![0].metrics).filter((m) => ev.folds!.every((f) => typeof f.metrics[m] === "number")).filter((m) => ev.folds!.every((f) => (f.metrics[m] as number) >= 0 && (f.metrics[m] as number) <= 1));
  const shown = ["accuracy", "precision", "recall", "f1", "auc", "average_precision", "macro_f1", "r2"].filter((m) => names.includes(m));
  const rows = (shown.length ? shown : names.slice(0, 8)).map((m) => ({ metric: m, values: ev.folds!.map((f) => f.metrics[m] as number) }));
  return section(`Spread over ${ev.folds!.length} folds`, rows.length ? foldSpread(rows, "Metric per fold (dots) and mean (tick)") : h("p", {}, "No metric in [0, 1] to plot."));
}

export async function comparePage(ctx: PageContext): Promise<void> {
  const ids = (ctx.query.get("ids") ?? "").split(",").filter(Boolean);
  title(ctx, "Compare evaluations");
  const evs = await Promise.all(ids.map((id) => get<Evaluation>(`/v1/evaluations/${encodeURIComponent(id)}`)));
  if (!ctx.alive()) return;
  const metricNames = [...new Set(evs.flatMap((e) => Object.keys(e.metrics)))];
  ctx.main.append(
    section(
      "Metrics side by side",
      h("div", { class: "table-scroll" }, table(["Metric", ...evs.map((e) => `${e.algorithm} · ${e.id}`)], metricNames.map((m) => [m, ...evs.map((e) => fmt(e.metrics[m]))]))),
    ),
  );
  const withCurves = evs.filter((e) => e.curves);
  if (withCurves.length > 0) {
    ctx.main.append(
      section(
        "Curves overlaid",
        h(
          "div",
          { class: "curves" },
          curveChart(withCurves.map((e) => ({ name: `${e.algorithm} ${e.id.slice(-4)} (AUC ${fmt(e.metrics.auc, 3)})`, x: e.curves!.roc.fpr, y: e.curves!.roc.tpr })), { title: "ROC curves", xLabel: "false positive rate", yLabel: "true positive rate", diagonal: true }).el,
          curveChart(withCurves.map((e) => ({ name: `${e.algorithm} ${e.id.slice(-4)} (AP ${fmt(e.metrics.average_precision, 3)})`, x: e.curves!.pr.recall, y: e.curves!.pr.precision })), { title: "Precision–recall curves", xLabel: "recall", yLabel: "precision" }).el,
        ),
      ),
    );
  }
  const tests = section("Significance tests");
  ctx.main.append(tests);
  try {
    const res = await send<Comparison>("POST", "/v1/comparisons", { evaluation_ids: ids });
    tests.append(
      h("p", {}, `metric ${res.metric}, α = ${res.alpha}`),
      table(["Test", "Statistic", "df", "p-value", "Significant"], res.tests.map((t) => [t.name, fmt(t.statistic), fmt(t.df), fmt(t.p_value), t.significant ? "yes" : "no"])),
    );
  } catch (err) {
    tests.append(errorBox(err instanceof Error ? err.message : String(err)));
  }
}
