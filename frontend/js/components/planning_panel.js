// A window into the planner for one run: the rules its task used, the planners tried for each
// part and why each was or was not used, the prompt sent to the LLM and its raw answer
// (secrets scrubbed by the server), what validation dropped and why, re-plans, closed-loop
// observations, token usage and time. Reads GET /api/runs/<id>/planning.

import { api, enc } from "../api.js";
import { badge, errorBanner, h, replace } from "../dom.js";
import * as fmt from "../format.js";

const OUTCOME_STATUS = { used: "passed", skipped: "planned", failed: "error", infeasible: "infeasible" };

function usageText(usage) {
  return usage && usage.llm_calls ? fmt.tokens(usage) : "no LLM call";
}

function promptBlock(call) {
  if (!call.prompt) return null;
  return h("details", { class: "raw planning-prompt" },
    h("summary", null, `Prompt sent (${call.prompt_template || "default"} template, ${call.prompt_chars} characters)`),
    call.prompt.map((m) => h("div", { class: "planning-message" },
      h("div", { class: "k small muted" }, m.role), h("pre", null, m.content))));
}

function answerBlock(call) {
  if (call.answer === null || call.answer === undefined) {
    return call.prompt ? h("p", { class: "muted small" }, "No answer was received.") : null;
  }
  return h("details", { class: "raw planning-answer" },
    h("summary", null, `Raw answer (${call.answer.length} characters)`), h("pre", null, call.answer));
}

function callItem(call) {
  return h("li", { class: "planning-call", dataset: { planner: call.planner, outcome: call.outcome } },
    h("div", { class: "planning-call-head" },
      h("strong", null, call.planner), " ", badge(OUTCOME_STATUS[call.outcome] || "planned", call.outcome),
      h("span", { class: "muted small" }, ` ${fmt.ms(call.duration_ms)} · ${usageText(call.usage)}`)),
    call.reason ? h("div", { class: "small planning-reason" }, call.reason) : null,
    promptBlock(call), answerBlock(call));
}

function droppedList(notes, label) {
  return notes && notes.length
    ? h("div", { class: "planning-dropped" }, h("div", { class: "k small muted" }, label),
      h("ul", { class: "notes", "aria-label": label }, notes.map((n) => h("li", null, n))))
    : null;
}

function partItem(part, rules) {
  const rule = part.rule_use ? rules.find((u) => u.use === part.rule_use) : null;
  return h("li", { class: "planning-part" },
    h("div", null, h("span", { class: "muted small" }, part.fixed ? "explicit steps: " : "planned: "),
      h("q", null, part.task),
      rule ? h("span", { class: "muted small" }, ` — from rule “${rule.rule}” v${rule.version}`) : null,
      part.steps.length ? h("span", { class: "muted small" }, ` → step(s) ${part.steps.join(", ")}`) : null),
    part.calls.length ? h("ol", { class: "planning-calls", "aria-label": "Planners tried" }, part.calls.map(callItem)) : null,
    droppedList(part.dropped, "Dropped by validation"));
}

function render(view) {
  const record = view.record;
  if (!record) {
    return h("p", { class: "muted" }, view.given_plan
      ? `This run's plan was given (${view.planner}); no planner was asked.`
      : "Not planned yet.");
  }
  const rules = record.rules || [];
  return h("div", { class: "stack planning", style: { gap: "10px" } },
    h("div", { class: "summary-grid" },
      h("div", null, h("div", { class: "k" }, "Planning time"), h("div", { class: "v" }, fmt.ms(record.duration_ms))),
      h("div", null, h("div", { class: "k" }, "Tokens"), h("div", { class: "v" }, usageText(record.usage))),
      h("div", null, h("div", { class: "k" }, "Prompt template"), h("div", { class: "v" }, record.prompt_template || "server default"))),
    rules.length ? h("div", { "aria-label": "Rules used" }, h("div", { class: "k small muted" }, "Rules used"),
      h("ul", { class: "notes planning-rules" }, rules.map((u) => h("li", null,
        `“${u.clause}” → rule “${u.rule}” v${u.version}`,
        Object.keys(u.args).length ? ` (${Object.entries(u.args).map(([k, v]) => `${k}=${v}`).join(", ")})` : "",
        u.steps.length ? `: step(s) ${u.steps.join(", ")}` : "")))) : null,
    record.expanded_task !== record.task ? h("p", { class: "small" }, h("span", { class: "muted" }, "Expanded task: "), record.expanded_task) : null,
    h("ol", { class: "planning-parts", "aria-label": "Planning parts" }, record.parts.map((p) => partItem(p, rules))),
    record.parts.length > 1 ? droppedList(record.notes, "Validation notes of the whole plan") : null,
    record.replans.length ? h("div", { "aria-label": "Re-plans" }, h("div", { class: "k small muted" }, "Re-plans"),
      h("ol", { class: "planning-calls" }, record.replans.map((r) => h("li", null,
        h("div", null, `after step ${r.after_step ?? "?"} from ${r.from_node || "an unknown screen"}: ${r.failure}`),
        h("ol", { class: "planning-calls" }, (r.calls || []).map(callItem)),
        droppedList(r.dropped, "Dropped by validation"))))) : null,
    h("div", { "aria-label": "Closed-loop observations" }, h("div", { class: "k small muted" }, "Closed-loop observations"),
      record.observations.length
        ? h("ul", { class: "notes" }, record.observations.map((o) => h("li", null, typeof o === "string" ? o : JSON.stringify(o))))
        : h("span", { class: "muted small" }, "none")));
}

/** The planning panel of a run; call refresh() when the run changes (a re-plan adds to it). */
export function planningPanel(runId) {
  const element = h("div", { class: "planning-panel" }, h("p", { class: "muted" }, "Loading…"));
  let last = "";
  async function refresh() {
    try {
      const view = await api.get(`/api/runs/${enc(runId)}/planning`);
      const key = JSON.stringify(view);
      if (key !== last) {
        last = key;
        replace(element, render(view));
      }
    } catch (err) {
      replace(element, errorBanner("The planning record could not be loaded", err.message));
    }
  }
  return { element, refresh };
}
