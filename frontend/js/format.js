// Formatting of dates, durations and parameters for display.

export function parseDate(iso) {
  return iso ? new Date(iso) : null;
}

const pad = (n) => String(n).padStart(2, "0");

export function dateTime(iso) {
  const d = parseDate(iso);
  if (!d || Number.isNaN(d.getTime())) return "—";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function timeOnly(iso) {
  const d = parseDate(iso);
  if (!d || Number.isNaN(d.getTime())) return "";
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function relative(iso) {
  const d = parseDate(iso);
  if (!d) return "";
  const s = Math.round((Date.now() - d.getTime()) / 1000);
  if (s < 5) return "just now";
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export function ms(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60000) return `${(value / 1000).toFixed(value < 10000 ? 2 : 1)} s`;
  const m = Math.floor(value / 60000);
  return `${m} min ${Math.round((value % 60000) / 1000)} s`;
}

export function runDuration(run) {
  const start = parseDate(run.started_at || run.created_at);
  const end = parseDate(run.finished_at);
  if (!start) return "—";
  return ms((end ? end.getTime() : Date.now()) - start.getTime());
}

export function params(p) {
  const entries = Object.entries(p || {});
  if (!entries.length) return "";
  return entries.map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v)}`).join("  ");
}

export function action(a) {
  const p = a.params || {};
  const main = p.selector ?? p.key ?? p.text ?? p.url ?? p.node ?? Object.values(p)[0];
  return main === undefined ? a.command : `${a.command} ${main}`;
}

export function tokens(usage) {
  const total = usage ? usage.total_tokens ?? ((usage.prompt_tokens || 0) + (usage.completion_tokens || 0)) : 0;
  if (!total) return "none (no LLM call)";
  const parts = [];
  if (usage.prompt_tokens !== undefined) parts.push(`${usage.prompt_tokens} prompt`);
  if (usage.completion_tokens !== undefined) parts.push(`${usage.completion_tokens} completion`);
  return parts.length ? `${total} (${parts.join(" + ")})` : JSON.stringify(usage);
}

export const FINISHED = new Set(["planned", "passed", "failed", "error", "infeasible", "cancelled"]);
export const RUN_STATUSES = ["queued", "planning", "planned", "running", "passed", "failed", "error", "infeasible", "cancelled"];
export const PLANNERS = ["cache", "llm", "builtin", "testcase", "user"];
