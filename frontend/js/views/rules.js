// Rules view: named phrases ("tune to {n}") that any task may use. List, add, edit (each save is a
// new version), delete, see the versions, export as YAML. The server refuses a rule that would call
// itself; its message (with the cycle) is shown as it is.

import { api, enc } from "../api.js";
import { busy, emptyState, errorBanner, h, replace, toast } from "../dom.js";
import * as fmt from "../format.js";

const STEPS_EXAMPLE = '[{"command": "press_key", "params": {"key": "DIGIT_{n}"}, "description": "Press {n}"}]';

function rulePath(rule) {
  return `/api/rules/${enc(rule.id)}?scope=${enc(rule.scope || "")}`;
}

function bodyText(rule) {
  if (rule.kind === "steps") {
    return h("ol", { class: "small", style: { margin: 0, paddingLeft: "18px" } },
      rule.steps.map((st) => h("li", null, h("code", null, st.command), " ", fmt.params(st.params))));
  }
  return rule.tasks;
}

export default async function rulesView(root, ctx) {
  ctx.setTitle("Rules");
  const listBody = h("div", { class: "panel-body flush" }, h("p", { class: "empty" }, "Loading…"));
  const count = h("span", { class: "muted small", role: "status" });
  const formMessage = h("div");
  const name = h("input", { type: "text", id: "rule-name", placeholder: "tune to {n}", "aria-label": "Rule name" });
  const scope = h("input", { type: "text", id: "rule-scope", placeholder: "global", "aria-label": "Rule scope (user interface)" });
  const description = h("input", { type: "text", id: "rule-description", "aria-label": "Rule description" });
  const kind = h("select", { id: "rule-kind", "aria-label": "Rule body kind" },
    h("option", { value: "tasks" }, "plain-language tasks"), h("option", { value: "steps" }, "explicit steps (JSON)"));
  const body = h("textarea", { id: "rule-body", rows: "3", "aria-label": "Rule body", placeholder: "switch to channel {n}" });
  const save = h("button", { type: "button", class: "btn btn--primary", "aria-label": "Save the rule" }, "Save rule");
  const reset = h("button", { type: "button", class: "btn", "aria-label": "Clear the rule form" }, "New rule");
  const versions = h("div");

  kind.addEventListener("change", () => {
    body.placeholder = kind.value === "steps" ? STEPS_EXAMPLE : "switch to channel {n}";
  });

  root.append(
    h("div", { class: "page-head" },
      h("div", null, h("h1", null, "Rules"),
        h("div", { class: "sub" }, "Name a step sequence once, with parameters in braces, and use the name in any task.")),
      h("div", { class: "actions" }, h("a", { class: "btn", href: "/api/rules/export", download: "rules.yaml", "aria-label": "Export the rules as YAML" }, "Export YAML"))),
    h("section", { class: "panel", "aria-label": "Rule editor" },
      h("div", { class: "panel-head" }, h("h2", null, "Add or edit a rule")),
      h("div", { class: "panel-body stack", style: { gap: "10px" } },
        h("div", { class: "rule-form" },
          h("label", { class: "field" }, "Name", name, h("span", { class: "hint" }, "the phrase a task uses: log in as {user}")),
          h("label", { class: "field" }, "Scope", scope, h("span", { class: "hint" }, "a user interface, or empty for global")),
          h("label", { class: "field" }, "Body", kind),
          h("label", { class: "field" }, "Description", description)),
        body,
        h("div", { class: "row", style: { display: "flex", gap: "8px", justifyContent: "flex-end" } }, reset, save),
        formMessage, versions)),
    h("section", { class: "panel", "aria-label": "Rules" },
      h("div", { class: "panel-head" }, h("h2", null, "Current rules"), h("span", { class: "spacer" }), count),
      listBody));

  let rules = [];

  function fill(rule) {
    name.value = rule ? rule.name : "";
    scope.value = rule ? rule.scope || "" : "";
    description.value = rule ? rule.description || "" : "";
    kind.value = rule ? rule.kind : "tasks";
    body.value = !rule ? "" : rule.kind === "steps" ? JSON.stringify(rule.steps.map(({ command, params, description: d }) => ({ command, params, description: d })), null, 1) : rule.tasks;
    replace(formMessage);
    replace(versions);
    if (rule) showVersions(rule);
  }

  async function showVersions(rule) {
    try {
      const list = await api.get(`/api/rules/${enc(rule.id)}/versions?scope=${enc(rule.scope || "")}`);
      replace(versions, h("details", { class: "raw" }, h("summary", null, `${list.length} version(s)`),
        h("ol", { class: "small", "aria-label": "Rule versions" }, list.map((v) => h("li", null,
          `v${v.version} · ${fmt.dateTime(v.created_at)} · `, v.deleted ? "deleted" : v.tasks || `${(v.steps || []).length} step(s)`)))));
    } catch (err) {
      replace(versions, errorBanner("The versions could not be loaded", err.message));
    }
  }

  function row(rule) {
    const edit = h("button", { type: "button", class: "btn btn--sm", "aria-label": `Edit rule “${rule.name}”` }, "Edit");
    edit.addEventListener("click", () => { fill(rule); name.focus(); });
    const drop = h("button", { type: "button", class: "btn btn--sm btn--danger", "aria-label": `Delete rule “${rule.name}”` }, "Delete");
    drop.addEventListener("click", () => {
      if (!window.confirm(`Delete rule “${rule.name}”? Its versions are kept.`)) return;
      busy(drop, async () => {
        try {
          await api.del(rulePath(rule));
          toast("Rule deleted", "ok");
          await load();
        } catch (err) {
          toast(`Not deleted: ${err.message}`, "error");
        }
      });
    });
    return h("tr", { dataset: { rule: rule.id } },
      h("td", null, h("strong", null, rule.name), rule.description ? h("div", { class: "small muted" }, rule.description) : null),
      h("td", null, rule.scope || h("span", { class: "muted" }, "global")),
      h("td", null, bodyText(rule)),
      h("td", { class: "nowrap" }, `v${rule.version}`),
      h("td", { class: "nowrap" }, h("div", { class: "toolbar" }, edit, drop)));
  }

  function render() {
    count.textContent = `${rules.length} rule${rules.length === 1 ? "" : "s"}`;
    if (!rules.length) {
      replace(listBody, emptyState("No rules yet", "Add one above, e.g. “tune to {n}” = “switch to channel {n}”."));
      return;
    }
    replace(listBody, h("table", { class: "grid", "aria-label": "Current rules" },
      h("thead", null, h("tr", null, ["Name", "Scope", "Body", "Version", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", null, rules.map(row))));
  }

  async function load() {
    try {
      rules = await api.get("/api/rules");
      if (ctx.alive()) render();
    } catch (err) {
      replace(listBody, h("div", { class: "panel-body" }, errorBanner("The rules could not be loaded", err.message)));
    }
  }

  save.addEventListener("click", () => busy(save, async () => {
    const rule = { name: name.value, scope: scope.value.trim() || null, description: description.value };
    if (kind.value === "steps") {
      try {
        rule.steps = JSON.parse(body.value || "[]");
      } catch (err) {
        replace(formMessage, errorBanner("The steps are not valid JSON", err.message));
        return;
      }
    } else {
      rule.tasks = body.value;
    }
    try {
      const saved = await api.post("/api/rules", rule);
      replace(formMessage, h("div", { class: "banner banner--ok", role: "status" }, `Saved “${saved.name}” as version ${saved.version}.`));
      await load();
      showVersions(saved);
    } catch (err) {
      replace(formMessage, errorBanner("The rule was not saved", err.message));
    }
  }));
  reset.addEventListener("click", () => fill(null));

  await load();
}
