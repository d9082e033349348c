// Runs view: history with filters (device, status, planner, dates), kept current by run_update events.

import { api, enc, withQuery } from "../api.js";
import { badge, busy, emptyState, errorBanner, h, replace } from "../dom.js";
import * as fmt from "../format.js";
import { setQuery } from "../hashquery.js";
import { on } from "../live.js";

const PAGE = 50;

function select(name, label, values, current, allLabel) {
  return h("label", { class: "field", for: `f-${name}` }, label,
    h("select", { id: `f-${name}`, name },
      h("option", { value: "" }, allLabel),
      values.map((v) => h("option", { value: v.value ?? v, selected: (v.value ?? v) === current }, v.label ?? v))));
}

function row(run) {
  return h("tr", { dataset: { run: run.id, status: run.status } },
    h("td", null, badge(run.status)),
    h("td", { class: "task" }, h("a", { href: `#/runs/${enc(run.id)}`, "aria-label": `Open run ${run.id}: ${run.task}` }, run.task),
      run.message && run.status !== "passed" ? h("div", { class: "small muted", style: { marginTop: "2px" } }, run.message.slice(0, 160)) : null),
    h("td", null, h("a", { href: `#/device/${enc(run.device_id)}` }, run.device_id)),
    h("td", null, run.planner || "—"),
    h("td", null, run.mode),
    h("td", { class: "nowrap", title: run.created_at }, fmt.dateTime(run.created_at)),
    h("td", { class: "nowrap" }, fmt.FINISHED.has(run.status) || run.status === "running" ? fmt.runDuration(run) : "—"));
}

export default async function runsView(root, ctx) {
  ctx.setTitle("Runs");
  const q = ctx.query;
  const filters = {
    device: q.get("device") || "", status: q.get("status") || "", planner: q.get("planner") || "",
    since: q.get("since") || "", until: q.get("until") || "",
  };
  let devices = [];
  try {
    devices = await api.get("/api/devices");
  } catch {
    devices = [];
  }
  if (!ctx.alive()) return;

  const form = h("form", { class: "panel panel-body", "aria-label": "Filter runs", role: "search" },
    h("div", { class: "form-grid" },
      select("device", "Device", devices.map((d) => ({ value: d.id, label: d.name === d.id ? d.id : `${d.name} (${d.id})` })), filters.device, "All devices"),
      select("status", "Status", fmt.RUN_STATUSES, filters.status, "Any status"),
      select("planner", "Planner", fmt.PLANNERS, filters.planner, "Any planner"),
      h("label", { class: "field", for: "f-since" }, "From (UTC)", h("input", { id: "f-since", name: "since", type: "date", value: filters.since })),
      h("label", { class: "field", for: "f-until" }, "To (UTC)", h("input", { id: "f-until", name: "until", type: "date", value: filters.until })),
      h("div", { class: "toolbar" },
        h("button", { type: "submit", class: "btn btn--primary" }, "Apply"),
        h("button", { type: "reset", class: "btn btn--ghost" }, "Reset"))));
  const tbody = h("tbody");
  const table = h("table", { class: "grid", "aria-label": "Runs" },
    h("thead", null, h("tr", null, ["Status", "Task", "Device", "Planner", "Mode", "Created", "Duration"].map((t) => h("th", { scope: "col" }, t)))),
    tbody);
  const more = h("button", { type: "button", class: "btn" }, "Load older runs");
  const moreBox = h("div", { class: "panel-body", hidden: true, style: { display: "flex", justifyContent: "center" } }, more);
  const count = h("span", { class: "muted small", role: "status" });
  const listBox = h("div", { class: "panel-body flush" }, table);
  root.append(
    h("div", { class: "page-head" }, h("div", null, h("h1", null, "Runs"), h("div", { class: "sub" }, "Every task run and plan preview, newest first."))),
    form,
    h("section", { class: "panel", "aria-label": "Run history" },
      h("div", { class: "panel-head" }, h("h2", null, "History"), h("span", { class: "spacer" }), count), listBox, moreBox));

  let offset = 0;
  let shown = new Map();

  function query() {
    return {
      device: filters.device, status: filters.status, planner: filters.planner,
      since: filters.since, until: filters.until ? `${filters.until}T23:59:59.999` : "",
    };
  }

  let generation = 0;   // the filters each answer was asked for: an answer to filters since changed is dropped

  async function load(reset) {
    if (reset) {
      generation += 1;
      offset = 0;
      shown = new Map();
      replace(tbody);
    }
    const asked = generation;
    try {
      const runs = await api.get(withQuery("/api/runs", { ...query(), limit: PAGE, offset }));
      if (!ctx.alive() || asked !== generation) return;
      for (const run of runs) {
        const tr = row(run);
        shown.set(run.id, tr);
        tbody.append(tr);
      }
      offset += runs.length;
      moreBox.hidden = runs.length < PAGE;
      count.textContent = `${shown.size} run${shown.size === 1 ? "" : "s"}${moreBox.hidden ? "" : " shown"}`;
      if (!shown.size) replace(tbody, h("tr", null, h("td", { colspan: "7" }, emptyState("No run matches these filters", "Change the filters or start a task from a device."))));
    } catch (err) {
      if (asked !== generation) return;
      replace(tbody, h("tr", null, h("td", { colspan: "7" }, errorBanner("Runs could not be loaded", err.message))));
    }
  }

  function matches(run) {
    if (filters.device && run.device_id !== filters.device) return false;
    if (filters.status && run.status !== filters.status) return false;
    if (filters.planner && run.planner !== filters.planner) return false;
    const created = (run.created_at || "").slice(0, 10);
    if (filters.since && created < filters.since) return false;
    if (filters.until && created > filters.until) return false;
    return true;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    for (const key of Object.keys(filters)) filters[key] = form.elements[key].value;
    setQuery(filters);
    load(true);
  });
  form.addEventListener("change", () => form.requestSubmit());
  form.addEventListener("reset", () => setTimeout(() => form.requestSubmit()));
  more.addEventListener("click", () => busy(more, () => load(false)));

  ctx.onLeave(on("run_update", (run) => {
    const existing = shown.get(run.id);
    if (existing) {
      if (!matches(run)) return;
      const tr = row(run);
      existing.replaceWith(tr);
      shown.set(run.id, tr);
    } else if (matches(run)) {
      if (!shown.size) replace(tbody);
      const tr = row(run);
      shown.set(run.id, tr);
      tbody.prepend(tr);
      count.textContent = `${shown.size} run${shown.size === 1 ? "" : "s"}`;
    }
  }));
  await load(true);
}
