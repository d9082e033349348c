// A run's steps as they happen: planned steps wait as "pending" and fill in as `step`
// events arrive over Socket.IO; `run_update` events move the run's status. No polling.

import { api, enc } from "../api.js";
import { badge, chip, h, replace, showImage } from "../dom.js";
import * as fmt from "../format.js";
import { on } from "../live.js";

function stepItem(step, status, fresh) {
  const shot = step.screenshot_url
    ? h("button", { type: "button", class: "shot", "aria-label": `View screenshot of step ${step.step}`,
      onclick: () => showImage(step.screenshot_url, `Step ${step.step}: ${step.command} — ${step.message || status}`) },
    h("img", { src: step.screenshot_url, alt: `Screen after step ${step.step}`, loading: "lazy" }))
    : h("div", { class: "shot", "aria-hidden": "true" });
  return h("li", { class: ["step", fresh && "fresh"], dataset: { step: step.step, status } },
    h("span", { class: "num", "aria-hidden": "true" }, String(step.step)),
    h("div", { class: "body" },
      h("div", { class: "line" },
        h("span", { class: "sr-only" }, `Step ${step.step}: `),
        h("span", { class: "cmd" }, step.command),
        chip(step.controller_type),
        badge(status === "not-run" ? "skipped" : status, status === "not-run" ? "not run" : status),
        status !== "pending" && status !== "not-run" ? h("span", { class: "dur", title: "duration" }, fmt.ms(step.duration_ms)) : null),
      step.description ? h("div", { class: "desc" }, step.description) : null,
      Object.keys(step.params || {}).length ? h("div", { class: "params" }, fmt.params(step.params)) : null,
      step.message ? h("div", { class: "msg" }, step.message) : null),
    shot);
}

/**
 * Live timeline of run *runId*.
 * options.header: show a compact status line (status, progress, duration, links).
 * options.onUpdate(run): called with the run whenever it changes.
 * Returns {element, ready, dispose}.
 */
export function runTimeline(runId, options = {}) {
  const list = h("ol", { class: "timeline", "aria-label": "Steps", "aria-live": "polite", "aria-relevant": "additions" });
  const head = h("div", { class: "run-head" });
  const progress = h("div", { class: "progress", role: "progressbar", "aria-label": "Run progress", "aria-valuemin": "0", "aria-valuemax": "100" }, h("span", { style: { width: "0%" } }));
  const element = h("div", { class: "stack timeline-box", style: { gap: "12px" }, dataset: { run: runId } },
    options.header ? head : null, options.header ? progress : null, list);
  let run = null;
  const results = new Map(); // step number -> step dict from the host
  const seen = new Set();
  let buffered = [];
  let ticker = null;

  function plannedSteps() {
    return run?.plan?.plan || [];
  }

  const slots = {
    status: h("span", { class: "run-status" }),
    task: h("span", { class: "task" }),
    planner: h("span", { class: "muted small" }),
    count: h("span", { class: "muted small nowrap" }),
    duration: h("span", { class: "muted small nowrap", title: "duration" }),
    cancel: h("button", { type: "button", class: "btn btn--sm btn--danger", "aria-label": "Cancel this run" }, "Cancel"),
    report: h("a", { class: "btn btn--sm", href: `#/runs/${enc(runId)}`, "aria-label": "Open the report of this run" }, "Open report"),
  };
  slots.cancel.addEventListener("click", async () => {
    slots.cancel.disabled = true;
    await api.post(`/api/runs/${enc(runId)}/cancel`).catch(() => {});
  });
  head.append(...Object.values(slots));

  function renderHead() {
    if (!options.header || !run) return;
    const total = Math.max(plannedSteps().length, results.size);
    const done = results.size;
    const finished = fmt.FINISHED.has(run.status);
    const pct = finished ? 100 : total ? Math.round((100 * done) / total) : 0;
    progress.firstChild.style.width = `${pct}%`;
    progress.setAttribute("aria-valuenow", String(pct));
    if (slots.status.dataset.runStatus !== run.status) {
      slots.status.dataset.runStatus = run.status;
      replace(slots.status, badge(run.status));
    }
    slots.task.textContent = run.task;
    slots.planner.textContent = run.planner ? `planned by ${run.planner}` : "";
    slots.count.textContent = `${done}/${total || "?"} steps`;
    slots.duration.textContent = fmt.runDuration(run);
    slots.cancel.hidden = finished;
  }

  const items = new Map(); // step number -> [li, status key]

  function renderSteps() {
    const planned = plannedSteps();
    const numbers = [...new Set([...planned.map((p) => p.step), ...results.keys()])].sort((a, b) => a - b);
    const finished = Boolean(run) && fmt.FINISHED.has(run.status);
    if (!numbers.length) {
      items.clear();
      const text = !run ? "Loading…" : run.status === "infeasible" ? `Infeasible: ${run.plan?.analysis || run.message}`
        : finished ? (run.message || "No step was run.") : "Planning…";
      replace(list, h("li", { class: "empty" }, text));
      return;
    }
    if (!items.size) list.textContent = "";
    numbers.forEach((n, index) => {
      const result = results.get(n);
      const plannedStep = planned.find((p) => p.step === n);
      const status = result ? result.status : finished ? "not-run" : "pending";
      const key = `${status}:${result ? result.duration_ms : ""}`;
      const existing = items.get(n);
      if (existing && existing[1] === key) return;
      const fresh = Boolean(result) && !seen.has(n) && !finished;
      if (result) seen.add(n);
      const li = stepItem(result || { ...plannedStep, message: "" }, status, fresh);
      if (existing) existing[0].replaceWith(li);
      else list.insertBefore(li, list.children[index] || null);
      items.set(n, [li, key]);
    });
  }

  function apply(event) {
    if (event.type === "step") {
      results.set(event.data.step.step, event.data.step);
      renderSteps();
    } else {
      run = { ...run, ...event.data };
      renderSteps();
    }
    renderHead();
    options.onUpdate?.(run, results);
    if (run && fmt.FINISHED.has(run.status)) {
      clearInterval(ticker);
      ticker = null;
    }
  }

  const offStep = on("step", (data) => {
    if (data.run_id !== runId) return;
    const event = { type: "step", data };
    if (buffered) buffered.push(event);
    else apply(event);
  });
  const offRun = on("run_update", (data) => {
    if (data.id !== runId) return;
    const event = { type: "run", data };
    if (buffered) buffered.push(event);
    else apply(event);
  });

  const ready = api.get(`/api/runs/${enc(runId)}`).then((fetched) => {
    run = fetched;
    for (const st of fetched.steps || []) {
      results.set(st.step, st);
      seen.add(st.step);
    }
    const pending = buffered;
    buffered = null;
    renderSteps();
    renderHead();
    options.onUpdate?.(run, results);
    for (const event of pending) apply(event);
    if (!fmt.FINISHED.has(run.status)) ticker = setInterval(renderHead, 1000);
    return run;
  });
  ready.catch(() => {});
  renderSteps();

  return {
    element,
    ready,
    get run() { return run; },
    dispose() {
      offStep();
      offRun();
      clearInterval(ticker);
    },
  };
}
