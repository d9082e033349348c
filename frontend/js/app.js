// Dashboard entry point: hash routing between views, each view cleaned up when it is left.
//   #/lab  #/device/<id>  #/runs  #/runs/<id>  #/navigation/<ui>  #/plan-cache  #/rules  #/assistant

import { clear, errorBanner } from "./dom.js";
import "./live.js"; // the live-events connection and its indicator, on every view
import { api } from "./api.js";

const ROUTES = [
  { pattern: /^\/lab$/, nav: "lab", load: () => import("./views/lab.js") },
  { pattern: /^\/device\/([^/]+)$/, nav: "lab", keys: ["deviceId"], load: () => import("./views/device.js") },
  { pattern: /^\/runs$/, nav: "runs", load: () => import("./views/runs.js") },
  { pattern: /^\/runs\/([^/]+)$/, nav: "runs", keys: ["runId"], load: () => import("./views/run.js") },
  { pattern: /^\/navigation(?:\/([^/]+))?$/, nav: "navigation", keys: ["ui"], load: () => import("./views/navigation.js") },
  { pattern: /^\/plan-cache$/, nav: "plan-cache", load: () => import("./views/plan_cache.js") },
  { pattern: /^\/rules$/, nav: "rules", load: () => import("./views/rules.js") },
  { pattern: /^\/explore-review$/, nav: "navigation", load: () => import("./views/explore_review.js") },  { pattern: /^\/assistant$/, nav: "assistant", load: () => import("./views/assistant.js") },
];

let current = null; // {leave: [fns], alive: bool}
let firstRender = true;

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/lab";
  const [path, qs] = raw.split("?");
  return { path, query: new URLSearchParams(qs || "") };
}

function leaveCurrent() {
  if (!current) return;
  current.alive = false;
  for (const fn of current.leave.splice(0)) {
    try {
      fn();
    } catch (err) {
      console.error("leaving the view failed", err);
    }
  }
}

async function render() {
  const { path, query } = parseHash();
  const route = ROUTES.find((r) => r.pattern.test(path));
  if (!route) {
    location.replace("#/lab");
    return;
  }
  const match = path.match(route.pattern);
  const params = {};
  (route.keys || []).forEach((key, i) => {
    if (match[i + 1] !== undefined) params[key] = decodeURIComponent(match[i + 1]);
  });
  leaveCurrent();
  const state = { leave: [], alive: true };
  current = state;
  const ctx = {
    params,
    query,
    alive: () => state.alive,
    onLeave: (fn) => (state.alive ? state.leave.push(fn) : fn()),
    setTitle: (title) => { document.title = title ? `${title} · devicepilot` : "devicepilot"; },
  };
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === route.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const root = document.getElementById("view");
  root.setAttribute("aria-busy", "true");
  try {
    const module = await route.load();
    if (!state.alive) return;
    clear(root);
    await module.default(root, ctx);
  } catch (err) {
    console.error(err);
    if (state.alive) {
      clear(root).append(errorBanner("This view could not be shown", err.message || String(err)));
    }
  } finally {
    if (state.alive) root.setAttribute("aria-busy", "false");
  }
  if (!firstRender && state.alive) document.getElementById("main").focus({ preventScroll: true });
  firstRender = false;
}

window.addEventListener("hashchange", render);
document.getElementById("lightbox").addEventListener("click", (event) => {
  if (event.target.id === "lightbox") event.target.close();
});
if (!location.hash) history.replaceState(null, "", "#/lab");
render();

// Who is logged in, and the way out.
(async () => {
  try {
    const me = await api.get("/api/auth/me");
    const who = document.getElementById("whoami");
    who.textContent = `${me.user.name} · ${me.user.role}`;
    who.hidden = false;
    const logout = document.getElementById("logout");
    logout.hidden = false;
    logout.addEventListener("click", async () => {
      await api.post("/api/auth/logout");
      window.location.assign("/login");
    });
  } catch (err) {
    console.warn("who is logged in is unknown", err.message);
  }
})();
