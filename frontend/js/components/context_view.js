// The device's context exactly as AI Central gives it to planners: commands with their
// params, verifications, navigation nodes.

import { api, withQuery } from "../api.js";
import { busy, chip, h, replace, toast } from "../dom.js";

function paramLine(p) {
  const bits = [`${p.type}`];
  if (p.required) bits.push("required");
  else if (p.default !== null && p.default !== "" && p.default !== undefined) bits.push(`= ${JSON.stringify(p.default)}`);
  if (p.choices?.length) bits.push(p.choices.length > 8 ? `${p.choices.length} choices` : `one of ${p.choices.join(", ")}`);
  if (p.minimum != null) bits.push(`≥ ${p.minimum}`);
  if (p.maximum != null) bits.push(`≤ ${p.maximum}`);
  return h("div", { class: "p" }, h("code", null, p.name), ` — ${bits.join(", ")}${p.description ? ` · ${p.description}` : ""}`);
}

function commandList(commands) {
  if (!commands.length) return h("p", { class: "muted" }, "None.");
  return h("ul", { class: "cmd-list" }, commands.map((c) => h("li", null,
    h("div", { class: "line", style: { display: "flex", gap: "6px", alignItems: "center" } },
      h("span", { class: "sig" }, c.name), chip(c.controller_type),
      c.destructive ? h("span", { class: "badge badge--destructive" }, "destructive") : null),
    h("div", { class: "d" }, c.description),
    c.params.map(paramLine))));
}

function nodeList(nodes, current) {
  if (!nodes.length) return h("p", { class: "muted" }, "No navigation tree.");
  return h("ul", { class: "node-list" }, nodes.map((n) => h("li", { class: n.id === current ? "current" : null },
    h("div", null, h("strong", null, n.label), " ", h("code", { class: "muted" }, n.id),
      n.id === current ? h("span", { class: "chip chip--navigation", style: { marginLeft: "6px" } }, "current") : null),
    n.description ? h("div", { class: "small muted" }, n.description) : null,
    n.keywords?.length ? h("div", { class: "small" }, "keywords: ", n.keywords.join(", ")) : null,
    n.elements?.length ? h("details", { class: "small" }, h("summary", null, `${n.elements.length} element(s)`),
      h("ul", null, n.elements.map((e) => h("li", null, e.name, e.text ? ` “${e.text}”` : "", " ", h("code", null, e.selector))))) : null)));
}

export function contextView(deviceId, initial) {
  const box = h("div", { class: "stack", style: { gap: "14px" } });
  const reload = h("button", { type: "button", class: "btn btn--sm", "aria-label": "Clear the cached context and ask the host again" }, "Reload from host");

  function render(ctx) {
    replace(box,
      h("div", { class: "toolbar", style: { alignItems: "center" } },
        h("div", { class: "kv" },
          h("span", null, h("b", null, "Model "), ctx.device_model),
          h("span", null, h("b", null, "UI "), ctx.userinterface || "—"),
          h("span", null, h("b", null, "Current node "), ctx.current_node || "unknown"),
          h("span", { title: "changes when commands or nodes change; the plan cache is keyed by it" }, h("b", null, "Fingerprint "), h("code", null, ctx.fingerprint))),
        h("span", { style: { marginLeft: "auto" } }, reload)),
      h("div", { class: "ctx-cols" },
        h("section", { "aria-label": "Action commands" }, h("h3", { style: { marginBottom: "8px" } }, `Actions (${ctx.action.commands.length})`), commandList(ctx.action.commands)),
        h("section", { "aria-label": "Verification commands" }, h("h3", { style: { marginBottom: "8px" } }, `Verifications (${ctx.verification.commands.length})`), commandList(ctx.verification.commands)),
        h("section", { "aria-label": "Navigation" }, h("h3", { style: { marginBottom: "8px" } }, "Navigation"), commandList(ctx.navigation.commands))),
      h("section", { "aria-label": "Navigation nodes" }, h("h3", { style: { marginBottom: "8px" } }, `Navigation nodes (${ctx.navigation.nodes.length})`),
        nodeList(ctx.navigation.nodes, ctx.current_node)));
  }

  reload.addEventListener("click", () => busy(reload, async () => {
    try {
      await api.del(withQuery("/api/ai/context-cache", { model: initial.device_model, userinterface: initial.userinterface }));
      render(await api.get(`/api/devices/${encodeURIComponent(deviceId)}/context`));
      toast("Context reloaded from the host", "ok");
    } catch (err) {
      toast(`Context not reloaded: ${err.message}`, "error");
    }
  }));
  render(initial);
  return box;
}
