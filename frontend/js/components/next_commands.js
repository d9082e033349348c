// Commands scheduled for the device's next run (reboot, clear data, go home, any declared command):
// what waits, what ran at the start of which run, and a form to add one.

import { api, enc } from "../api.js";
import { badge, emptyState, errorBanner, h, replace, toast } from "../dom.js";

export function nextCommands(deviceId, commands) {
  const list = h("div", { class: "stack", "aria-live": "polite" });
  const names = [...commands.keys(), "refresh_context"];
  const select = h("select", { "aria-label": "Command for the next run" }, names.map((n) => h("option", { value: n }, n)));
  const params = h("input", { type: "text", placeholder: '{"node": "home"}', "aria-label": "Parameters (JSON)" });
  const add = h("button", { type: "submit", class: "btn" }, "Schedule");
  const form = h("form", { class: "inline-form", "aria-label": "Schedule a command for the next run" },
    select, params, add);

  function row(item) {
    const args = Object.keys(item.params || {}).length ? JSON.stringify(item.params) : "";
    const cancel = item.status === "pending"
      ? h("button", { type: "button", class: "btn btn--small", onclick: async () => {
        try {
          await api.del(`/api/devices/${enc(deviceId)}/next-commands/${item.id}`);
          await load();
        } catch (err) { toast(err.message, "error"); }
      } }, "Cancel") : null;
    const where = item.run_id ? h("a", { href: `#/runs/${enc(item.run_id)}` }, `run ${item.run_id}`) : item.source;
    return h("li", { class: "next-command" }, badge(item.status === "completed" ? "passed" : item.status === "pending"
      ? "queued" : item.status === "skipped" ? "planned" : "failed", item.status), " ",
    h("code", null, item.command), args ? h("span", { class: "muted" }, ` ${args}`) : null, " · ", where,
    item.message ? h("div", { class: "muted" }, item.message) : null, cancel);
  }

  async function load() {
    try {
      const data = await api.get(`/api/devices/${enc(deviceId)}/next-commands?limit=20`);
      replace(list,
        h("h3", null, "Waiting for the next run"),
        data.pending.length ? h("ul", { class: "plain" }, data.pending.map(row)) : emptyState("Nothing scheduled"),
        h("h3", null, "Ran (kept for audit)"),
        data.archived.length ? h("ul", { class: "plain" }, data.archived.map(row)) : emptyState("None yet"));
    } catch (err) {
      replace(list, errorBanner("The next-run commands could not be loaded", err.message));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let parsed = {};
    if (params.value.trim()) {
      try { parsed = JSON.parse(params.value); } catch { toast("Parameters must be JSON, e.g. {\"node\": \"home\"}", "error"); return; }
    }
    try {
      await api.post(`/api/devices/${enc(deviceId)}/next-commands`, { command: select.value, params: parsed });
      params.value = "";
      await load();
    } catch (err) { toast(err.message, "error"); }
  });
  load();
  return { element: h("div", { class: "panel-body stack" }, form, list), reload: load };
}
