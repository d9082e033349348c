// Inputs for a command's declared parameters (the controller's @command declaration is the
// single source: type, required, default, choices, minimum, maximum), and reading them back.

import { h } from "../dom.js";

let uid = 0;

function describe(spec) {
  const bits = [spec.type];
  if (spec.required) bits.push("required");
  else if (spec.default !== null && spec.default !== undefined && spec.default !== "") bits.push(`default ${JSON.stringify(spec.default)}`);
  if (spec.minimum !== null && spec.minimum !== undefined) bits.push(`≥ ${spec.minimum}`);
  if (spec.maximum !== null && spec.maximum !== undefined) bits.push(`≤ ${spec.maximum}`);
  return bits.join(", ");
}

function inputFor(spec, value, id, choices, label) {
  const common = { id, name: spec.name, "aria-label": label, "aria-describedby": `${id}-hint` };
  if (choices.length) {
    const select = h("select", common,
      spec.required ? null : h("option", { value: "" }, spec.default ? `(default: ${spec.default})` : "(none)"),
      choices.map((c) => h("option", { value: c.value, selected: String(value ?? "") === c.value }, c.label)));
    if (spec.required && (value === undefined || value === null || value === "")) select.selectedIndex = -1;
    return select;
  }
  if (spec.type === "bool") {
    const checked = value === undefined || value === null ? Boolean(spec.default) : Boolean(value);
    return h("input", { ...common, type: "checkbox", checked });
  }
  if (spec.type === "int" || spec.type === "float") {
    return h("input", {
      ...common, type: "number", step: spec.type === "int" ? "1" : "any",
      min: spec.minimum ?? null, max: spec.maximum ?? null,
      value: value ?? "", placeholder: spec.default ?? "", required: spec.required,
    });
  }
  return h("input", { ...common, type: "text", value: value ?? "", placeholder: spec.default || "", required: spec.required, autocomplete: "off", spellcheck: "false" });
}

/**
 * Build a form section for *command* (a CommandSpec as JSON) with initial *values*.
 * options.nodes: navigation nodes [{id, label}] for a `node` parameter.
 * Returns {element, read(): {params, errors}}.
 */
export function paramForm(command, values = {}, options = {}) {
  const fields = [];
  const grid = h("div", { class: "param-grid" });
  for (const spec of command.params || []) {
    const id = `p${++uid}-${spec.name}`;
    let choices = (spec.choices || []).map((c) => ({ value: String(c), label: String(c) }));
    if (!choices.length && spec.name === "node" && options.nodes) {
      choices = options.nodes.map((n) => ({ value: n.id, label: n.label && n.label !== n.id ? `${n.label} (${n.id})` : n.id }));
    }
    const label = `${spec.name}${spec.required ? " *" : ""}`;
    const input = inputFor(spec, values[spec.name], id, choices, `${command.name} ${spec.name}`);
    const error = h("span", { class: "field-error", id: `${id}-err` });
    const field = spec.type === "bool"
      ? h("label", { class: "field", for: id }, label, h("span", { class: "check" }, input, h("span", { class: "hint", id: `${id}-hint` }, describe(spec))), error)
      : h("label", { class: "field", for: id }, label, input, h("span", { class: "hint", id: `${id}-hint`, title: spec.description || "" }, spec.description ? `${spec.description} · ${describe(spec)}` : describe(spec)), error);
    grid.append(field);
    fields.push({ spec, input, error });
  }
  if (!fields.length) grid.append(h("span", { class: "muted small" }, "No parameters."));

  function read() {
    const params = {};
    const errors = [];
    for (const { spec, input, error } of fields) {
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      let problem = "";
      if (spec.type === "bool" && input.type === "checkbox") {
        params[spec.name] = input.checked;
        continue;
      }
      const raw = input.value.trim();
      if (raw === "") {
        if (spec.required) problem = "required";
      } else if (spec.type === "int" || spec.type === "float") {
        const num = Number(raw);
        if (!Number.isFinite(num) || (spec.type === "int" && !Number.isInteger(num))) problem = `must be ${spec.type === "int" ? "an integer" : "a number"}`;
        else if (spec.minimum != null && num < spec.minimum) problem = `must be ≥ ${spec.minimum}`;
        else if (spec.maximum != null && num > spec.maximum) problem = `must be ≤ ${spec.maximum}`;
        else params[spec.name] = num;
      } else {
        params[spec.name] = input.value;
      }
      if (problem) {
        error.textContent = problem;
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-errormessage", error.id);
        errors.push(`${spec.name} ${problem}`);
      }
    }
    return { params, errors };
  }

  return { element: grid, read, focus: () => fields[0]?.input.focus() };
}

/** Every command of a device context, keyed by name. */
export function commandIndex(context) {
  const index = new Map();
  for (const kind of ["action", "verification", "navigation"]) {
    for (const cmd of context?.[kind]?.commands || []) if (!index.has(cmd.name)) index.set(cmd.name, cmd);
  }
  return index;
}
