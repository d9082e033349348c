// Plan cache view: plans replayed without any LLM when the same task meets the same context.
// Pin an entry to keep it, invalidate it to make the planners plan that task again.

import { ApiError, api, enc } from "../api.js";
import { busy, emptyState, errorBanner, h, replace, toast } from "../dom.js";
import * as fmt from "../format.js";

function planSteps(plan) {
  const steps = plan?.plan || [];
  return h("ol", { class: "small", style: { margin: "6px 0 0", paddingLeft: "20px" } },
    steps.map((st) => h("li", null, h("code", null, st.command), " ", fmt.params(st.params), st.description ? h("span", { class: "muted" }, ` — ${st.description}`) : null)));
}

export default async function planCacheView(root, ctx) {
  ctx.setTitle("Plan cache");
  const filter = h("input", { type: "search", id: "cache-filter", placeholder: "Filter by task, model or UI", "aria-label": "Filter cached plans" });
  const count = h("span", { class: "muted small", role: "status" });
  const body = h("div", { class: "panel-body flush" }, h("p", { class: "empty" }, "Loading…"));
  root.append(
    h("div", { class: "page-head" },
      h("div", null, h("h1", null, "Plan cache"),
        h("div", { class: "sub" }, "Plans replayed without an LLM when the same task meets the same device context (fingerprint)."))),
    h("section", { class: "panel", "aria-label": "Cached plans" },
      h("div", { class: "panel-head" }, h("h2", null, "Cached plans"), h("span", { class: "spacer" }), count, filter),
      body));

  let entries = [];

  function row(entry) {
    const pin = h("button", {
      type: "button", class: `btn btn--sm ${entry.pinned ? "btn--primary" : ""}`, "aria-pressed": String(Boolean(entry.pinned)),
      "aria-label": `${entry.pinned ? "Unpin" : "Pin"} the cached plan for “${entry.task}”`,
    }, entry.pinned ? "Pinned" : "Pin");
    pin.addEventListener("click", () => busy(pin, async () => {
      try {
        const updated = await api.post(`/api/plan-cache/${enc(entry.id)}/pin`, { pinned: !entry.pinned });
        Object.assign(entry, updated && typeof updated === "object" && "pinned" in updated ? updated : { pinned: !entry.pinned });
        render();
        toast(entry.pinned ? "Plan pinned" : "Plan unpinned", "ok");
      } catch (err) {
        toast(`Not changed: ${err.message}`, "error");
      }
    }));
    const drop = h("button", { type: "button", class: "btn btn--sm btn--danger", "aria-label": `Invalidate the cached plan for “${entry.task}”` }, "Invalidate");
    drop.addEventListener("click", () => {
      if (!window.confirm(`Invalidate the cached plan for “${entry.task}”? The next run of this task will be planned again.`)) return;
      busy(drop, async () => {
        try {
          await api.del(`/api/plan-cache/${enc(entry.id)}?confirm=true`);  // confirmed just above
          entries = entries.filter((e) => e.id !== entry.id);
          render();
          toast("Cached plan invalidated", "ok");
        } catch (err) {
          toast(`Not invalidated: ${err.message}`, "error");
        }
      });
    });
    const steps = entry.plan?.plan?.length ?? 0;
    return h("tr", { dataset: { entry: String(entry.id) } },
      h("td", { class: "task" }, h("div", { style: { fontWeight: 550 } }, entry.task),
        h("details", null, h("summary", { class: "small muted" }, `${steps} step${steps === 1 ? "" : "s"}`,
          entry.heals ? ` · healed ${entry.heals}×` : ""), planSteps(entry.plan),
        entry.source_run ? h("div", { class: "small" }, "from run ", h("a", { href: `#/runs/${enc(entry.source_run)}` }, entry.source_run)) : null)),
      h("td", null, entry.device_model, h("div", { class: "small muted" }, entry.userinterface)),
      h("td", null, !entry.start_node || entry.start_node === "*" ? h("span", { class: "muted" }, "any screen") : entry.start_node),
      h("td", null, h("code", { title: "context fingerprint" }, String(entry.fingerprint || "").slice(0, 10))),
      h("td", { class: "nowrap" }, String(entry.hits ?? 0)),
      h("td", { class: "nowrap", title: entry.created_at }, fmt.dateTime(entry.created_at)),
      h("td", { class: "nowrap", title: entry.last_used_at || "" }, entry.last_used_at ? fmt.relative(entry.last_used_at) : "never"),
      h("td", { class: "nowrap" }, h("div", { class: "toolbar" }, pin, drop)));
  }

  function render() {
    const q = filter.value.trim().toLowerCase();
    const shown = entries.filter((e) => !q || [e.task, e.device_model, e.userinterface].some((v) => String(v || "").toLowerCase().includes(q)));
    count.textContent = `${shown.length} of ${entries.length} plan${entries.length === 1 ? "" : "s"} · ${entries.filter((e) => e.pinned).length} pinned`;
    if (!entries.length) {
      replace(body, emptyState("The plan cache is empty", "Plans are cached when a run passes; they appear here."));
      return;
    }
    replace(body, h("table", { class: "grid", "aria-label": "Cached plans" },
      h("thead", null, h("tr", null, ["Task", "Model / UI", "Start", "Fingerprint", "Hits", "Created", "Last used", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", null, shown.length ? shown.map(row) : h("tr", null, h("td", { colspan: "8" }, emptyState("No cached plan matches the filter"))))));
  }

  filter.addEventListener("input", render);
  try {
    const data = await api.get("/api/plan-cache");
    if (!ctx.alive()) return;
    entries = Array.isArray(data) ? data : data?.entries || [];
    render();
  } catch (err) {
    filter.hidden = true;
    if (err instanceof ApiError && err.status === 404) {
      replace(body, h("div", { dataset: { planCache: "unavailable" } },
        emptyState("Plan cache not available", "This server does not offer a plan cache (GET /api/plan-cache answered 404).")));
    } else {
      replace(body, h("div", { class: "panel-body" }, errorBanner("The plan cache could not be loaded", err.message)));
    }
  }
}
