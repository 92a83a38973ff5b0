/**
 * Form controls generated from a JSON Schema object (an algorithm's params_schema, a step's
 * options_schema, as GET /v1/algorithms and /v1/steps give them): defaults shown, bounds
 * enforced by the inputs, the schema's descriptions as help text. read() returns only the
 * values that differ from their defaults, so the server fills in the rest.
 */
import { field, fmt, h } from "./dom.js";
import type { JsonSchema } from "./types.js";

export interface SchemaForm {
  el: HTMLElement;
  /** Values that differ from the defaults; throws with the field's name when one does not parse. */
  read(): Record<string, unknown>;
}

function variants(schema: JsonSchema): JsonSchema[] {
  const inner = schema.anyOf ?? schema.oneOf;
  if (!inner) return [schema];
  return inner.flatMap(variants);
}

function typeOf(v: JsonSchema): string | undefined {
  if (v.const !== undefined) return "const";
  if (v.enum) return "enum";
  return Array.isArray(v.type) ? v.type[0] : v.type;
}

function boundsText(v: JsonSchema): string {
  const parts: string[] = [];
  if (v.minimum !== undefined) parts.push(`≥ ${v.minimum}`);
  if (v.exclusiveMinimum !== undefined) parts.push(`> ${v.exclusiveMinimum}`);
  if (v.maximum !== undefined && v.maximum < 1e15) parts.push(`≤ ${v.maximum}`);
  if (v.exclusiveMaximum !== undefined) parts.push(`< ${v.exclusiveMaximum}`);
  return parts.join(", ");
}

interface Control {
  el: HTMLElement;
  read(): { value: unknown } | null;
}

function control(name: string, schema: JsonSchema): Control {
  const all = variants(schema);
  const nullable = all.some((v) => v.type === "null");
  const options = all.filter((v) => v.type !== "null");
  const kinds = new Set(options.map(typeOf));
  const def = schema.default;
  const help = [schema.description, def !== undefined ? `Default: ${def === null ? "none" : fmt(def)}.` : "", ...options.map(boundsText).filter(Boolean).map((b) => `Bounds: ${b}.`)]
    .filter(Boolean)
    .join(" ");
  const choices = options.flatMap((v) => (v.enum ?? (v.const !== undefined ? [v.const] : []))).filter((c): c is string => typeof c === "string");

  if (kinds.size === 1 && kinds.has("boolean")) {
    const input = h("input", { type: "checkbox", name, checked: def === true });
    return { el: field(name, input, help), read: () => ({ value: input.checked }) };
  }
  if (options.length > 0 && options.every((v) => typeOf(v) === "enum" || typeOf(v) === "const") && choices.length === options.flatMap((v) => v.enum ?? [v.const]).length) {
    const select = h("select", { name }, nullable ? h("option", { value: "" }, "none") : null, choices.map((c) => h("option", { value: c }, c)));
    select.value = def === null || def === undefined ? "" : String(def);
    return { el: field(name, select, help), read: () => ({ value: select.value === "" ? null : select.value }) };
  }
  if (options.length === 1 && (kinds.has("integer") || kinds.has("number"))) {
    const v = options[0];
    const input = h("input", {
      type: "number",
      name,
      step: kinds.has("integer") ? 1 : "any",
      min: v.minimum ?? v.exclusiveMinimum,
      max: v.maximum !== undefined && v.maximum < 1e15 ? v.maximum : v.exclusiveMaximum,
      value: typeof def === "number" ? def : "",
      placeholder: nullable ? "none" : "",
      required: !nullable && def === undefined,
    });
    const check = () => {
      const x = input.valueAsNumber;
      const bad = (v.exclusiveMinimum !== undefined && x <= v.exclusiveMinimum) || (v.exclusiveMaximum !== undefined && x >= v.exclusiveMaximum);
      input.setCustomValidity(bad ? `Must be ${boundsText(v)}.` : "");
    };
    input.addEventListener("input", check);
    return {
      el: field(name, input, help),
      read: () => {
        check();
        if (input.value === "") return nullable ? { value: null } : null;
        return { value: input.valueAsNumber };
      },
    };
  }
  if (options.every((v) => ["enum", "const", "integer", "number", "string"].includes(typeOf(v) ?? ""))) {
    // Mixed: e.g. max_features = "sqrt" | "log2" | integer. Numbers are read as numbers.
    const listId = `list-${name}-${Math.random().toString(36).slice(2, 7)}`;
    const input = h("input", { type: "text", name, list: listId, value: def === null || def === undefined ? "" : String(def), placeholder: nullable ? "none" : "" });
    const list = h("datalist", { id: listId }, choices.map((c) => h("option", { value: c })));
    const wrapper = field(name, input, help);
    wrapper.append(list);
    return {
      el: wrapper,
      read: () => {
        const raw = input.value.trim();
        if (raw === "") return nullable ? { value: null } : null;
        return { value: /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(raw) ? Number(raw) : raw };
      },
    };
  }
  // Objects and arrays (class weights, per-column options): JSON.
  const area = h("textarea", { name, rows: 2, spellcheck: false, placeholder: "JSON" });
  area.value = def === undefined || def === null ? "" : JSON.stringify(def);
  return {
    el: field(`${name} (JSON)`, area, help),
    read: () => {
      const raw = area.value.trim();
      if (raw === "") return nullable ? { value: null } : null;
      try {
        return { value: JSON.parse(raw) };
      } catch {
        throw new Error(`${name}: not valid JSON`);
      }
    },
  };
}

export function schemaForm(schema: JsonSchema, legend: string): SchemaForm {
  const branches = (schema.oneOf ?? schema.anyOf ?? []).filter((b) => b.properties);
  if (!schema.properties && branches.length > 1) return unionForm(branches, legend);
  const props = schema.properties ?? {};
  const controls = Object.entries(props).map(([name, s]) => [name, s, control(name, s)] as const);
  const el = h("fieldset", { class: "params" }, h("legend", {}, legend), controls.length === 0 ? h("p", {}, "No parameters.") : controls.map(([, , c]) => c.el));
  return {
    el,
    read() {
      const out: Record<string, unknown> = {};
      for (const [name, s, c] of controls) {
        const got = c.read();
        if (got === null) continue;
        if (JSON.stringify(got.value) === JSON.stringify(s.default)) continue;
        out[name] = got.value;
      }
      return out;
    },
  };
}

/**
 * A tagged union of parameter sets (e.g. mlp's per-solver options): the tag (the property that
 * is a constant in every branch) picks the branch, whose own fields are then shown. The tag is always sent.
 */
function unionForm(branches: JsonSchema[], legend: string): SchemaForm {
  const tag = Object.keys(branches[0].properties!).find((k) => branches.every((b) => b.properties?.[k]?.const !== undefined));
  if (!tag) return schemaForm({}, legend);
  const values = branches.map((b) => String(b.properties![tag].const));
  const select = h("select", { name: tag }, values.map((v) => h("option", { value: v }, v)));
  const holder = h("div");
  let current: SchemaForm;
  const show = () => {
    const branch = branches[values.indexOf(select.value)];
    const { [tag]: _tag, ...rest } = branch.properties!;
    current = schemaForm({ ...branch, properties: rest }, `Options of ${tag} ${select.value}`);
    holder.replaceChildren(current.el);
  };
  select.addEventListener("change", show);
  show();
  const el = h("fieldset", { class: "union" }, h("legend", {}, legend), field(tag, select, `Each ${tag} has options of its own.`), holder);
  return { el, read: () => ({ [tag]: select.value, ...current.read() }) };
}
