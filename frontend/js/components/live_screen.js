// The live screen of a device: `frame` events from the /dashboard namespace while this view
// watches the device (watch_device / unwatch_device), paused while the page is hidden.

import { h, replace } from "../dom.js";
import { on, onConnection, watchDevice } from "../live.js";

export function liveScreen(deviceId, { onKey } = {}) {
  const img = h("img", { alt: `Live screen of ${deviceId}` });
  const overlay = h("div", { class: "overlay" }, "Waiting for the first frame…");
  const wrap = h("div", {
    class: "screen-wrap", tabindex: "0", role: "img",
    "aria-label": `Live screen of ${deviceId}. Focus it and use the arrow keys, Enter and Backspace to drive the device.`,
  }, img, overlay);
  const pill = h("span", { class: "live-pill", role: "status" }, h("span", { class: "dot" }), h("span", { class: "txt" }, "connecting"));
  let objectUrl = null;
  let stop = null;
  const times = [];
  let frames = 0;

  function setPill(live, text) {
    pill.className = `live-pill ${live ? "live-pill--on" : ""}`;
    pill.querySelector(".txt").textContent = text;
  }

  const offFrame = on("frame", (data) => {
    if (data.device_id !== deviceId) return;
    const url = URL.createObjectURL(new Blob([data.image], { type: data.mime || "image/jpeg" }));
    const previous = objectUrl;
    objectUrl = url;
    img.src = url;
    if (previous) setTimeout(() => URL.revokeObjectURL(previous), 1000);
    overlay.hidden = true;
    frames += 1;
    wrap.dataset.frames = String(frames);
    const now = performance.now();
    times.push(now);
    while (times.length && now - times[0] > 3000) times.shift();
    setPill(true, `live · ${(times.length / 3).toFixed(1)} fps`);
  });

  const stale = setInterval(() => {
    const last = times[times.length - 1];
    if (stop && (!last || performance.now() - last > 5000)) setPill(false, frames ? "no frame for 5 s" : "waiting for frames");
  }, 1000);

  function start() {
    if (!stop) stop = watchDevice(deviceId);
  }

  function pause() {
    if (stop) {
      stop();
      stop = null;
    }
    setPill(false, "paused");
  }

  const onVisibility = () => (document.visibilityState === "visible" ? start() : pause());
  document.addEventListener("visibilitychange", onVisibility);
  const offConn = onConnection((up) => { if (!up) setPill(false, "reconnecting"); });

  wrap.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (onKey && onKey(event.key)) event.preventDefault();
  });

  if (document.visibilityState === "visible") start();
  return {
    element: wrap,
    pill,
    dispose() {
      pause();
      offFrame();
      offConn();
      clearInterval(stale);
      document.removeEventListener("visibilitychange", onVisibility);
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      replace(wrap);
    },
  };
}
