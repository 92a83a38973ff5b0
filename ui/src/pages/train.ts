/**
 * Train: dataset, target, features, algorithm; the parameter form generated from the
 * algorithm's params_schema; preprocessing steps from /v1/steps; the validation method;
 * submit → live progress (GET /v1/models/{id} polled with If-None-Match) with cancel.
 */
import { get, poll, send, sleep } from "../api.js";
import { errorBox, field, fmt, h, section, statusBadge } from "../dom.js";
import { schemaForm, type SchemaForm } from "../schema-form.js";
import { title, type PageContext } from "../page.js";
import type { Algorithm, Dataset, Model, Page, Step } from "../types.js";

export async function trainPage(ctx: PageContext): Promise<void> {
  title(ctx, "Train a model");
  const [datasets, algorithms, steps] = await Promise.all([
    get<Page<Dataset>>("/v1/datasets?limit=500"),
    get<{ items: Algorithm[] }>("/v1/algorithms"),
    get<{ items: Step[] }>("/v1/steps"),
  ]);
  if (!ctx.alive()) return;
  if (datasets.items.length === 0) {
    ctx.main.append(h("p", {}, "Upload a dataset first: ", h("a", { href: "#/datasets" }, "Datasets")));
    return;
  }

  const datasetSel = h("select", { name: "dataset" }, datasets.items.map((d) => h("option", { value: d.id }, `${d.name} (${d.row_count} rows)`)));
  datasetSel.value = ctx.query.get("dataset") ?? datasets.items[0].id;
  const targetSel = h("select", { name: "target" });
  const featureBox = h("fieldset", { class: "features" }, h("legend", {}, "Features"));
  const families = [...new Set(algorithms.items.map((a) => a.family))];
  const algorithmSel = h(
    "select",
    { name: "algorithm" },
    families.map((f) => h("optgroup", { label: f }, algorithms.items.filter((a) => a.family === f).map((a) => h("option", { value: a.name }, `${a.name} (${a.tasks.join(", ")})`)))),
  );
  const algorithmHelp = h("p", { class: "help" });
  const paramsHolder = h("div");
  let params: SchemaForm = schemaForm({}, "Parameters");

  const stepSel = h("select", { name: "step" }, steps.items.map((s) => h("option", { value: s.name }, s.name)));
  const addStep = h("button", { type: "button" }, "Add step");
  const stepList = h("ol", { class: "steps" });
  const stepForms: { name: string; form: SchemaForm }[] = [];

  const validationSel = h("select", { name: "validation" }, ["holdout", "kfold", "loo", "bootstrap", "none"].map((m) => h("option", { value: m }, m)));
  const testSize = h("input", { type: "number", name: "test_size", min: 0.01, max: 0.99, step: "any", value: 0.25 });
  const k = h("input", { type: "number", name: "k", min: 2, max: 1000, step: 1, value: 5 });
  const rounds = h("input", { type: "number", name: "rounds", min: 1, max: 1000, step: 1, value: 50 });
  const stratify = h("input", { type: "checkbox", name: "stratify", checked: true });
  const testSizeField = field("Test size", testSize, "Share of rows held out.");
  const kField = field("Folds (k)", k);
  const roundsField = field("Bootstrap rounds", rounds);
  const stratifyField = field("Stratify", stratify, "Keep class proportions in each part (classification).");
  const seed = h("input", { type: "number", name: "seed", min: 0, step: 1, placeholder: "random" });
  const name = h("input", { type: "text", name: "name", maxlength: 200, placeholder: "optional" });
  const submit = h("button", { type: "submit", class: "primary" }, "Train");
  const result = h("div", { class: "job", "aria-live": "polite" });

  const dataset = () => datasets.items.find((d) => d.id === datasetSel.value)!;
  const algorithm = () => algorithms.items.find((a) => a.name === algorithmSel.value)!;

  const fillTarget = () => {
    const ds = dataset();
    targetSel.replaceChildren(h("option", { value: "" }, "none (clustering, projection, anomaly)"), ...ds.columns.map((c) => h("option", { value: c.name }, c.name)));
    targetSel.value = ds.columns[ds.columns.length - 1]?.name ?? "";
    fillFeatures();
  };
  const fillFeatures = () => {
    const ds = dataset();
    featureBox.replaceChildren(
      h("legend", {}, "Features"),
      ...ds.columns
        .filter((c) => c.name !== targetSel.value)
        .map((c) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "feature", value: c.name, checked: c.role_hint !== "identifier" }), ` ${c.name} `, h("small", {}, c.type))),
    );
  };
  const fillParams = () => {
    const a = algorithm();
    // Clustering, projection and anomaly detection take no target: the form follows the algorithm.
    const supervised = a.tasks.some((t) => t === "classification" || t === "regression");
    if (!supervised && targetSel.value !== "") {
      targetSel.value = "";
      fillFeatures();
    }
    algorithmHelp.textContent = a.description;
    params = schemaForm(a.params_schema, `Parameters of ${a.name}`);
    paramsHolder.replaceChildren(params.el);
  };
  const showValidation = () => {
    const m = validationSel.value;
    testSizeField.hidden = m !== "holdout";
    kField.hidden = m !== "kfold";
    roundsField.hidden = m !== "bootstrap";
    stratifyField.hidden = m !== "holdout" && m !== "kfold";
  };
  addStep.addEventListener("click", () => {
    const step = steps.items.find((s) => s.name === stepSel.value)!;
    const form = schemaForm(step.options_schema, `${step.name}: ${step.description}`);
    const entry = { name: step.name, form };
    stepForms.push(entry);
    const remove = h("button", { type: "button", "aria-label": `Remove step ${step.name}` }, "Remove");
    const li = h("li", {}, form.el, remove);
    remove.addEventListener("click", () => {
      stepForms.splice(stepForms.indexOf(entry), 1);
      li.remove();
    });
    stepList.append(li);
  });
  datasetSel.addEventListener("change", fillTarget);
  targetSel.addEventListener("change", fillFeatures);
  algorithmSel.addEventListener("change", fillParams);
  validationSel.addEventListener("change", showValidation);
  algorithmSel.value = ctx.query.get("algorithm") ?? "c45";
  fillTarget();
  fillParams();
  showValidation();

  const form = h(
    "form",
    { class: "train", "aria-label": "Train a model", novalidate: false },
    section("Data", field("Dataset", datasetSel), field("Target", targetSel), featureBox),
    section("Algorithm", field("Algorithm", algorithmSel), algorithmHelp, paramsHolder),
    section("Preprocessing", h("div", { class: "inline" }, field("Step", stepSel), addStep), stepList),
    section("Validation", field("Method", validationSel), testSizeField, kField, roundsField, stratifyField, field("Seed", seed), field("Model name", name)),
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!form.reportValidity()) return;
    let body: Record<string, unknown>;
    try {
      body = {
        dataset_id: datasetSel.value,
        algorithm: algorithmSel.value,
        ...(targetSel.value ? { target: targetSel.value } : {}),
        features: [...featureBox.querySelectorAll<HTMLInputElement>("input[name=feature]:checked")].map((i) => i.value),
        params: params.read(),
        preprocessing: stepForms.map((s) => ({ step: s.name, ...s.form.read() })),
        validation: validationOf(validationSel.value, { testSize, k, rounds, stratify }),
        ...(seed.value ? { seed: seed.valueAsNumber } : {}),
        ...(name.value ? { name: name.value } : {}),
      };
    } catch (err) {
      result.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
      return;
    }
    submit.disabled = true;
    try {
      const model = await send<Model>("POST", "/v1/models", body);
      await follow(ctx, model, result);
    } catch (err) {
      result.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
    } finally {
      submit.disabled = false;
    }
  });
  ctx.main.append(form, result);
}

function validationOf(method: string, f: { testSize: HTMLInputElement; k: HTMLInputElement; rounds: HTMLInputElement; stratify: HTMLInputElement }): Record<string, unknown> {
  switch (method) {
    case "holdout":
      return { method, test_size: f.testSize.valueAsNumber, stratify: f.stratify.checked };
    case "kfold":
      return { method, k: f.k.valueAsNumber, stratify: f.stratify.checked };
    case "bootstrap":
      return { method, rounds: f.rounds.valueAsNumber };
    default:
      return { method };
  }
}

/** Live progress of a training job until it ends; on success, the model's page. */
async function follow(ctx: PageContext, first: Model, out: HTMLElement): Promise<void> {
  const bar = h("progress", { max: 1, value: first.progress, "aria-label": "Training progress" });
  const status = h("span", {});
  const cancel = h("button", { type: "button" }, "Cancel");
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try {
      await send("POST", `/v1/models/${first.id}/cancel`);
    } catch (err) {
      out.append(errorBox(err instanceof Error ? err.message : String(err)));
    }
  });
  out.replaceChildren(section("Training", h("p", {}, h("a", { href: `#/models/${first.id}` }, first.id), " ", status), bar, cancel));
  let model = first;
  while (ctx.alive()) {
    status.replaceChildren(statusBadge(model.status), ` ${fmt(model.progress * 100, 0)} %`);
    bar.value = model.progress;
    if (model.status !== "queued" && model.status !== "running") break;
    await sleep(300);
    model = (await poll<Model>(`/v1/models/${first.id}`)).body;
  }
  cancel.disabled = true;
  if (!ctx.alive()) return;
  if (model.status === "succeeded") location.hash = `#/models/${model.id}`;
  else out.append(errorBox(`Training ${model.status}${model.error ? `: ${model.error.title}${model.error.detail ? ` — ${model.error.detail}` : ""}` : "."}`));
}
