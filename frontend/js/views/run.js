// A run's report: live while it runs (steps arrive over Socket.IO), complete once it has
// finished — steps with screenshots and durations, planner, token usage, downloads.

import { enc } from "../api.js";
import { badge, errorBanner, h, replace } from "../dom.js";
import * as fmt from "../format.js";
import { runTimeline } from "../components/run_timeline.js";
import { planningPanel } from "../components/planning_panel.js";

function item(label, value) {
  return h("div", null, h("div", { class: "k" }, label), h("div", { class: "v" }, value));
}

export default async function runView(root, ctx) {
  const runId = ctx.params.runId;
  ctx.setTitle(`Run ${runId}`);
  const statusSlot = h("span", { class: "run-status" });
  const title = h("h1", null, "Run");
  const summary = h("div", { class: "summary-grid" });
  const planBox = h("div");
  const events = h("ol", { class: "events", "aria-label": "Run events" });
  const downloads = h("div", { class: "link-row" });
  const message = h("div");
  const passedCount = h("span", { class: "muted small" });
  const planning = planningPanel(runId);
  let planningSeen = "";

  const timeline = runTimeline(runId, {
    onUpdate: (run, results) => render(run, results),
  });
  ctx.onLeave(() => timeline.dispose());

  root.append(
    h("div", { class: "page-head" },
      h("div", null,
        h("div", { class: "crumbs" }, h("a", { href: "#/runs" }, "Runs"), " / ", h("code", null, runId)),
        h("div", { style: { display: "flex", gap: "12px", alignItems: "center" } }, title, statusSlot)),
      h("div", { class: "actions" }, downloads)),
    message,
    h("div", { class: "report-layout" },
      h("section", { class: "panel", "aria-label": "Steps" },
        h("div", { class: "panel-head" }, h("h2", null, "Steps"), h("span", { class: "spacer" }), passedCount),
        h("div", { class: "panel-body" }, timeline.element)),
      h("div", { class: "stack" },
        h("section", { class: "panel", "aria-label": "Summary" }, h("div", { class: "panel-head" }, h("h2", null, "Summary")), h("div", { class: "panel-body" }, summary)),
        h("section", { class: "panel", "aria-label": "Plan" }, h("div", { class: "panel-head" }, h("h2", null, "Plan")), h("div", { class: "panel-body" }, planBox)),
        h("section", { class: "panel", "aria-label": "Events" }, h("div", { class: "panel-head" }, h("h2", null, "Events")), h("div", { class: "panel-body" }, events)))),
    h("section", { class: "panel planning-section", "aria-label": "Planning" },
      h("div", { class: "panel-head" }, h("h2", null, "Planning"), h("span", { class: "spacer" }),
        h("span", { class: "muted small" }, "how the plan came about")),
      h("div", { class: "panel-body" }, planning.element)));

  let ticker = null;
  ctx.onLeave(() => clearInterval(ticker));

  function render(run, results) {
    if (!ctx.alive() || !run) return;
    const finished = fmt.FINISHED.has(run.status);
    title.textContent = run.task;
    ctx.setTitle(`${run.status} · ${run.task}`);
    if (statusSlot.dataset.runStatus !== run.status) {
      statusSlot.dataset.runStatus = run.status;
      replace(statusSlot, badge(run.status));
    }
    const steps = [...results.values()];
    const passed = steps.filter((s) => s.status === "passed").length;
    passedCount.textContent = steps.length ? `${passed} of ${steps.length} passed` : "";
    const stepTime = steps.reduce((sum, s) => sum + (s.duration_ms || 0), 0);
    replace(summary,
      item("Device", h("a", { href: `#/device/${enc(run.device_id)}` }, run.device_id)),
      item("Mode", run.mode === "plan" ? "plan only" : "run"),
      item("Planner", run.planner || "—"),
      item("Tokens", fmt.tokens(run.usage)),
      item("Created", fmt.dateTime(run.created_at)),
      item("Duration", h("span", { dataset: { duration: "" } }, run.started_at ? fmt.runDuration(run) : "—")),
      item("Time in steps", steps.length ? fmt.ms(stepTime) : "—"),
      item("Start screen", run.start_node || "—"));
    replace(message, run.message && finished
      ? h("div", { class: `banner ${run.status === "passed" || run.status === "planned" ? "banner--ok" : run.status === "infeasible" ? "banner--warn" : "banner--error"}`, role: "status" },
        h("div", null, h("div", { class: "title" }, `Run ${run.status}`), run.message))
      : null);
    const planningKey = `${run.status}:${(run.plan?.replans || []).length}`;
    if (run.status !== "queued" && run.status !== "planning" && planningKey !== planningSeen) {
      planningSeen = planningKey;
      planning.refresh();
    }
    const plan = run.plan;
    replace(planBox, plan
      ? h("div", { class: "stack", style: { gap: "8px" } },
        plan.analysis ? h("p", { class: "analysis", style: { margin: 0 } }, plan.analysis) : null,
        h("div", null, plan.feasible ? badge("passed", "feasible") : badge("infeasible", "infeasible"), " ",
          h("span", { class: "muted small" }, `${(plan.plan || []).length} step(s)`)),
        plan.notes?.length ? h("ul", { class: "notes", "aria-label": "Validation notes" }, plan.notes.map((n) => h("li", null, n))) : null,
        plan.replans?.length ? h("div", { "aria-label": "Re-plans" }, h("div", { class: "k small muted" }, "Re-planned"),
          h("ul", { class: "notes" }, plan.replans.map((r) => h("li", null,
            `after step ${r.after_step ?? "?"} from ${r.from_node || "an unknown screen"} by ${r.planner}: `,
            r.feasible ? `${r.steps} step(s) appended` : "nothing to run", r.analysis ? ` — ${r.analysis}` : "")))) : null,
        h("details", { class: "raw" }, h("summary", null, "Plan as JSON"), h("pre", null, JSON.stringify({ analysis: plan.analysis, feasible: plan.feasible, plan: plan.plan }, null, 2))))
      : h("p", { class: "muted" }, "Not planned yet."));
    const history = [{ at: run.created_at, message: "created" }, ...(run.events || []),
      ...(run.started_at ? [{ at: run.started_at, message: "started on the device" }] : []),
      ...(run.finished_at ? [{ at: run.finished_at, message: `finished: ${run.status}` }] : [])]
      .sort((a, b) => String(a.at).localeCompare(String(b.at)));
    replace(events, history.map((e) => h("li", null, h("time", { datetime: e.at }, fmt.timeOnly(e.at)), h("span", null, e.message))));
    replace(downloads, finished
      ? [h("a", { class: "btn", href: run.links.html, target: "_blank", rel: "noopener", "aria-label": "Open the HTML report" }, "HTML report"),
        h("a", { class: "btn", href: run.links.json, download: `run-${run.id}.json`, "aria-label": "Download the JSON report" }, "JSON"),
        h("a", { class: "btn", href: run.links.junit, download: `run-${run.id}.xml`, "aria-label": "Download the JUnit XML report" }, "JUnit XML")]
      : h("span", { class: "muted small" }, "Reports are ready when the run has finished."));
    if (!finished && !ticker) {
      ticker = setInterval(() => {
        const el = summary.querySelector("[data-duration]");
        if (el && timeline.run?.started_at) el.textContent = fmt.runDuration(timeline.run);
      }, 1000);
    } else if (finished) {
      clearInterval(ticker);
      ticker = null;
    }
  }

  try {
    await timeline.ready;
  } catch (err) {
    replace(root, errorBanner(`Run ${runId} could not be loaded`, err.message), h("a", { href: "#/runs" }, "Back to runs"));
  }
}
