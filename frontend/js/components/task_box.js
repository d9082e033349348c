// The task box: a plain-language task -> plan preview (edit it or not) -> run, watched live.

import { api, enc, withQuery } from "../api.js";
import { busy, errorBanner, h, replace } from "../dom.js";
import { FINISHED } from "../format.js";
import { planEditor } from "./plan_editor.js";
import { runTimeline } from "./run_timeline.js";
import { voiceButton } from "./voice_input.js";

const PREVIEW_WAIT_S = 60;

function examplesFrom(context) {
  const nodes = (context.navigation?.nodes || []).filter((n) => n.id !== context.navigation?.entry_node);
  return nodes.slice(0, 3).map((n) => `go to ${n.label}`);
}

/** options: {commands: Map, context, onLeave(fn)} */
export function taskBox(device, options) {
  const { commands, context } = options;
  const nodes = context.navigation?.nodes || [];
  const input = h("textarea", {
    id: "task-input", name: "task", rows: "2", maxlength: "2000", "aria-label": "Test task in plain language",
    placeholder: "Describe a test in plain language, e.g. “open the guide and check it lists Aurora News”",
  });
  const preview = h("button", { type: "button", class: "btn btn--primary", "aria-label": "Preview the plan of this task" }, "Preview plan");
  const runNow = h("button", { type: "button", class: "btn", "aria-label": "Plan and run this task now" }, "Run now");
  const planBox = h("div", { class: "slot" });
  const runBox = h("div", { class: "slot" });
  let timeline = null;

  function task() {
    return input.value.trim();
  }

  function showError(box, title, err) {
    replace(box, errorBanner(title, err.message || String(err)));
  }

  function watchRun(runId) {
    timeline?.dispose();
    timeline = runTimeline(runId, { header: true });
    replace(runBox, h("section", { "aria-label": "Live run", class: "live-run" },
      h("h3", { style: { margin: "4px 0 10px" } }, "Run"), timeline.element));
    timeline.ready.catch((err) => showError(runBox, "The run could not be loaded", err));
  }
  options.onLeave(() => { timeline?.dispose(); voice?.stop(); });

  // a spoken task runs only through its plan preview: "Run now" waits until the text has been typed or previewed
  let spokenUnpreviewed = false;
  function setSpoken(value) {
    spokenUnpreviewed = value;
    runNow.disabled = value;
    runNow.title = value ? "Preview the plan of a spoken task before running it" : "";
  }
  const voice = voiceButton(input, { onStart: () => setSpoken(true), onCancel: () => setSpoken(false),
    onFinal: () => previewPlan() });
  input.addEventListener("input", (event) => { if (event.isTrusted && spokenUnpreviewed) setSpoken(false); });

  async function startRun(plan, button, confirmed = false) {
    if (!plan && spokenUnpreviewed) return;
    if (!task()) {
      input.focus();
      return;
    }
    await busy(button, async () => {
      try {
        const body = { device: device.id, task: task(), mode: "run" };
        if (plan) body.plan = plan;
        if (confirmed) body.confirm = true;  // the plan editor asked about destructive steps
        const run = await api.post("/api/runs", body);
        replace(planBox);
        watchRun(run.id);
      } catch (err) {
        showError(runBox, "The run was not started", err);
      }
    });
  }

  async function previewPlan() {
    if (!task()) {
      input.focus();
      input.setAttribute("aria-invalid", "true");
      return;
    }
    input.removeAttribute("aria-invalid");
    replace(planBox, h("p", { class: "muted", role: "status" }, "Planning…"));
    await busy(preview, async () => {
      try {
        const run = await api.post(withQuery("/api/runs", { wait: PREVIEW_WAIT_S }), { device: device.id, task: task(), mode: "plan" });
        if (!FINISHED.has(run.status)) {
          replace(planBox, h("div", { class: "banner banner--warn" }, `Still planning after ${PREVIEW_WAIT_S} s (status ${run.status}). `,
            h("a", { href: `#/runs/${enc(run.id)}` }, "Follow it in Runs")));
          return;
        }
        if (run.status === "error") {
          replace(planBox, errorBanner("Planning failed", run.message));
          return;
        }
        const editor = planEditor(run, {
          commands, nodes,
          onRun: (plan, button) => startRun(plan, button, true),
          onDiscard: () => { replace(planBox); input.focus(); },
        });
        replace(planBox, editor.element);
        setSpoken(false);
      } catch (err) {
        showError(planBox, "The plan could not be made", err);
      }
    });
  }

  preview.addEventListener("click", previewPlan);
  runNow.addEventListener("click", () => startRun(null, runNow));
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      previewPlan();
    }
  });

  const examples = examplesFrom(context);
  const element = h("div", { class: "taskbox stack", style: { gap: "14px" } },
    h("div", null,
      input,
      examples.length ? h("div", { class: "examples", "aria-label": "Example tasks" }, h("span", { class: "muted small" }, "Try:"),
        examples.map((text) => h("button", { type: "button", onclick: () => { input.value = text; input.focus(); } }, text))) : null,
      h("div", { class: "row" }, h("span", { class: "hint" }, "Ctrl+Enter previews the plan"),
        voice ? [voice.status, voice.button] : null, runNow, preview)),
    planBox, runBox);

  return {
    element,
    watchRun,
    async showActiveRun() {
      const [running] = await api.get(withQuery("/api/runs", { device: device.id, status: "running", limit: 1 })).catch(() => []);
      if (running && !timeline) watchRun(running.id);
    },
  };
}
