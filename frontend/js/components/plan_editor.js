// Plan preview and editing: each step with its controller type, validation notes,
// infeasible plans and destructive commands flagged; params editable, steps removable
// and reorderable before the plan is run.

import { badge, chip, h, replace } from "../dom.js";
import { paramForm } from "./param_form.js";

/**
 * options: {commands: Map(name -> spec), nodes: [{id, label}], onRun(plan|null), onDiscard()}
 * onRun receives null when the plan was not edited (the planner plans it again, so the run
 * keeps its planner and usage), else the edited plan {analysis, feasible, plan: [...]}.
 */
export function planEditor(run, options) {
  const plan = run.plan || { analysis: run.message, feasible: false, plan: [], notes: [] };
  const { commands, nodes } = options;
  let edited = false;
  let counter = 0;
  const steps = (plan.plan || []).map((st) => makeStep(st));

  const list = h("ol", { class: "plan-steps", "aria-label": "Planned steps" });
  const editedLabel = h("span", { class: "edited", "aria-live": "polite" });
  const destructiveBox = h("div");
  const runButton = h("button", { type: "button", class: "btn btn--primary", "aria-label": "Run this plan on the device" }, "Run plan");
  const addSelect = h("select", { class: "add-step", "aria-label": "Command of a step to add" },
    h("option", { value: "" }, plan.feasible ? "Add a step…" : "Write the steps yourself…"),
    [...commands.values()].map((c) => h("option", { value: c.name }, `${c.name} (${c.controller_type})`)));
  addSelect.addEventListener("change", () => {
    if (!addSelect.value) return;
    const step = makeStep({ command: addSelect.value, params: {}, description: "" });
    steps.push(step);
    addSelect.value = "";
    markEdited();
    renderList();
    step.li.querySelector("input, select")?.focus();
  });

  function makeStep(st) {
    const spec = commands.get(st.command);
    const form = spec ? paramForm(spec, st.params || {}, { nodes }) : null;
    const step = { id: ++counter, command: st.command, description: st.description || "", spec, form, raw: st.params || {} };
    const up = h("button", { type: "button", class: "btn btn--ghost btn--icon", title: "Move up" }, "↑");
    const down = h("button", { type: "button", class: "btn btn--ghost btn--icon", title: "Move down" }, "↓");
    const remove = h("button", { type: "button", class: "btn btn--ghost btn--icon", title: "Remove step" }, "✕");
    up.addEventListener("click", () => move(step, -1, up));
    down.addEventListener("click", () => move(step, 1, down));
    remove.addEventListener("click", () => {
      steps.splice(steps.indexOf(step), 1);
      markEdited();
      renderList();
      (list.querySelector("button") || runButton).focus();
    });
    step.buttons = { up, down, remove };
    step.num = h("span", { class: "num", "aria-hidden": "true" });
    step.li = h("li", { class: ["plan-step", spec?.destructive && "destructive"], dataset: { command: st.command } },
      step.num,
      h("div", null,
        h("div", { class: "line" },
          h("span", { class: "cmd" }, st.command), chip(spec?.controller_type || st.controller_type),
          spec?.destructive ? h("span", { class: "badge badge--destructive", title: "This command changes or deletes something on the device" }, "destructive") : null,
          spec ? null : h("span", { class: "badge badge--failed" }, "unknown command")),
        step.description ? h("div", { class: "desc" }, step.description) : null),
      h("div", { class: "ops" }, up, down, remove),
      h("div", { class: "params" }, form ? form.element : h("code", null, JSON.stringify(st.params || {}))));
    step.li.addEventListener("input", markEdited);
    step.li.addEventListener("change", markEdited);
    return step;
  }

  function move(step, delta, button) {
    const i = steps.indexOf(step);
    const j = i + delta;
    if (j < 0 || j >= steps.length) return;
    [steps[i], steps[j]] = [steps[j], steps[i]];
    markEdited();
    renderList();
    button.focus();
  }

  function markEdited() {
    edited = true;
    editedLabel.textContent = "Edited — the run will use this plan as you changed it.";
    updateRunButton();
  }

  function renderList() {
    steps.forEach((step, i) => {
      step.num.textContent = String(i + 1);
      const label = `step ${i + 1} (${step.command})`;
      step.li.setAttribute("aria-label", `Step ${i + 1}: ${step.command}`);
      step.buttons.up.setAttribute("aria-label", `Move ${label} up`);
      step.buttons.down.setAttribute("aria-label", `Move ${label} down`);
      step.buttons.remove.setAttribute("aria-label", `Remove ${label}`);
      step.buttons.up.disabled = i === 0;
      step.buttons.down.disabled = i === steps.length - 1;
    });
    const placeholder = plan.feasible || edited ? h("li", { class: "empty" }, "No step left in the plan.") : null;
    replace(list, steps.length ? steps.map((s) => s.li) : placeholder);
    const destructive = steps.filter((s) => s.spec?.destructive);
    replace(destructiveBox, destructive.length
      ? h("div", { class: "banner banner--error", role: "alert" }, h("div", null,
        h("div", { class: "title" }, `${destructive.length} destructive step${destructive.length > 1 ? "s" : ""}`),
        `This plan runs ${destructive.map((s) => s.command).join(", ")}, which change${destructive.length > 1 ? "" : "s"} or delete${destructive.length > 1 ? "" : "s"} something on the device. You will be asked to confirm.`))
      : null);
    updateRunButton();
  }

  function updateRunButton() {
    runButton.disabled = !steps.length || (!plan.feasible && !edited);
  }

  function collect() {
    const errors = [];
    const out = steps.map((step, i) => {
      let params = step.raw;
      if (step.form) {
        const read = step.form.read();
        params = read.params;
        errors.push(...read.errors.map((e) => `step ${i + 1}: ${e}`));
      }
      return { step: i + 1, command: step.command, params, description: step.description };
    });
    // a plan the tester wrote or changed is theirs: it is feasible when it has steps
    const feasible = edited ? out.length > 0 : Boolean(plan.feasible);
    return { plan: { analysis: plan.analysis || "edited in the dashboard", feasible, plan: out }, errors };
  }

  const errorBox = h("div");
  runButton.addEventListener("click", () => {
    const { plan: edit, errors } = collect();
    if (errors.length) {
      replace(errorBox, h("div", { class: "banner banner--error", role: "alert" }, `Fix the parameters first: ${errors.join("; ")}`));
      return;
    }
    replace(errorBox);
    const destructive = steps.filter((s) => s.spec?.destructive).map((s) => s.command);
    if (destructive.length && !window.confirm(`This plan runs destructive command(s): ${destructive.join(", ")}. Run it?`)) return;
    options.onRun(edited ? edit : null, runButton);
  });

  const notes = plan.notes || [];
  const element = h("section", { class: "plan", "aria-label": "Plan preview", dataset: { feasible: String(Boolean(plan.feasible)) } },
    h("div", { class: "plan-head" },
      h("h3", null, "Plan"),
      plan.feasible ? badge("passed", "feasible") : badge("infeasible", "infeasible"),
      run.planner ? h("span", { class: "muted small" }, `by ${run.planner}`) : null,
      h("span", { class: "muted small" }, `${(plan.plan || []).length} step${(plan.plan || []).length === 1 ? "" : "s"}`)),
    plan.feasible
      ? (plan.analysis ? h("p", { class: "analysis" }, plan.analysis) : null)
      : h("div", { class: "banner banner--warn", role: "alert", style: { marginTop: "8px" } }, h("div", null,
        h("div", { class: "title" }, "This task cannot be done on this device"),
        plan.analysis || run.message || "The planner found no way to do it.")),
    notes.length ? h("div", null, h("div", { class: "small muted", style: { marginTop: "8px" } }, "Validation notes"),
      h("ul", { class: "notes", "aria-label": "Validation notes" }, notes.map((n) => h("li", null, n)))) : null,
    destructiveBox,
    list,
    errorBox,
    h("div", { class: "plan-actions" },
      editedLabel,
      addSelect,
      h("button", { type: "button", class: "btn", onclick: () => options.onDiscard() }, "Discard"),
      runButton));
  renderList();
  return { element, collect, get edited() { return edited; } };
}
