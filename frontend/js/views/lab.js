// Lab view: hosts and their devices with live state and a slowly refreshed thumbnail of each screen.

import { api, enc } from "../api.js";
import { badge, chip, emptyState, errorBanner, h, replace } from "../dom.js";
import { relative } from "../format.js";
import { on, seedLab } from "../live.js";

const THUMB_EVERY_MS = 5000;
const THUMB_WIDTH = 480;

class Thumbnails {
  /** Refreshes the thumbnails of the cards every few seconds while the page is visible. */
  constructor() {
    this.slots = new Map(); // device id -> {img, box, age, loading, status}
    this.timer = null;
    this.onVisibility = () => (document.visibilityState === "visible" ? this.start() : this.stop());
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  add(deviceId, box, status) {
    this.slots.set(deviceId, { box, status, loading: false, img: null, loadedAt: 0 });
    this.refresh(deviceId);
  }

  setStatus(deviceId, status) {
    const slot = this.slots.get(deviceId);
    if (slot) slot.status = status;
  }

  start() {
    if (this.timer || document.visibilityState !== "visible") return;
    this.timer = setInterval(() => this.refreshAll(), THUMB_EVERY_MS);
    this.refreshAll();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }

  refreshAll() {
    for (const id of this.slots.keys()) this.refresh(id);
  }

  refresh(deviceId) {
    const slot = this.slots.get(deviceId);
    if (!slot || slot.loading) return;
    if (slot.status === "offline") {
      replace(slot.box, h("span", null, "Offline: no screen"));
      slot.img = null;
      return;
    }
    slot.loading = true;
    const img = new Image();
    img.alt = `Screen of ${deviceId}`;
    img.onload = () => {
      slot.loading = false;
      slot.loadedAt = Date.now();
      slot.img = img;
      replace(slot.box, img, h("span", { class: "age", "aria-hidden": "true" }, "updated just now"));
    };
    img.onerror = () => {
      slot.loading = false;
      if (!slot.img) replace(slot.box, h("span", null, "No screenshot available"));
    };
    img.src = `/api/devices/${enc(deviceId)}/thumbnail?width=${THUMB_WIDTH}&t=${Date.now()}`;
  }

  dispose() {
    this.stop();
    document.removeEventListener("visibilitychange", this.onVisibility);
    this.slots.clear();
  }
}

function stat(label, value, status) {
  return h("div", { class: "panel stat" },
    h("div", { class: "label" }, label),
    h("div", { class: "value", dataset: { stat: status || label } }, String(value)));
}

function controllerChips(device) {
  const types = [...new Set((device.controllers || []).map((c) => c.controller_type))];
  return h("div", { class: "kv" }, types.map((t) => chip(t)));
}

function deviceCard(device, thumbs) {
  const box = h("div", { class: "thumb" }, h("span", null, "Loading screen…"));
  const card = h("a", {
    class: "panel device-card", href: `#/device/${enc(device.id)}`,
    "aria-label": `${device.name} (${device.status}) — open device`, dataset: { device: device.id },
  },
  box,
  h("div", { class: "meta" },
    h("div", { class: "title" }, h("h3", null, device.name), badge(device.status)),
    h("div", { class: "kv" },
      h("span", null, h("b", null, "Model "), device.model || "—"),
      h("span", null, h("b", null, "UI "), device.userinterface || "—"),
      h("span", null, h("b", null, "Screen "), device.current_node || "unknown")),
    controllerChips(device)));
  thumbs.add(device.id, box, device.status);
  return card;
}

export default async function labView(root, ctx) {
  ctx.setTitle("Lab");
  const statsBox = h("div", { class: "stats" });
  const hostsBox = h("div", { class: "stack" });
  root.append(
    h("div", { class: "page-head" },
      h("div", null, h("h1", null, "Lab"),
        h("div", { class: "sub" }, "Hosts and their devices. Open a device to watch its screen, drive it and run tasks."))),
    statsBox, hostsBox);

  const thumbs = new Thumbnails();
  ctx.onLeave(() => thumbs.dispose());
  let shownKey = "";

  function renderSnapshot(snapshot) {
    const { hosts, devices } = snapshot;
    const count = (status) => devices.filter((d) => d.status === status).length;
    replace(statsBox,
      stat("Hosts online", `${hosts.filter((x) => x.status === "online").length} / ${hosts.length}`, "hosts"),
      stat("Devices online", count("online"), "online"),
      stat("Busy", count("busy"), "busy"),
      stat("Offline", count("offline"), "offline"));

    const key = JSON.stringify([hosts.map((x) => [x.id, x.status]), devices.map((d) => [d.id, d.host_id, d.status])]);
    if (key === shownKey) {
      updateCards(devices);
      return;
    }
    shownKey = key;
    thumbs.slots.clear();
    if (!hosts.length) {
      replace(hostsBox, h("div", { class: "panel" },
        emptyState("No host has connected yet", "Start one with: devicepilot host --server <this server's URL> --config host.yaml")));
      return;
    }
    const known = new Set(hosts.map((x) => x.id));
    const groups = hosts.map((host) => ({ host, devices: devices.filter((d) => d.host_id === host.id) }));
    const orphans = devices.filter((d) => !known.has(d.host_id));
    if (orphans.length) groups.push({ host: { id: "?", name: "Unknown host", status: "offline" }, devices: orphans });
    replace(hostsBox, groups.map(({ host, devices: list }) =>
      h("section", { class: "panel", "aria-label": `Host ${host.name}`, dataset: { host: host.id } },
        h("div", { class: "panel-head" },
          h("div", { class: "host-head" }, h("h2", null, host.name), h("span", { class: "muted mono" }, host.id), badge(host.status)),
          h("span", { class: "spacer" }),
          h("span", { class: "muted small", title: host.last_seen || "" },
            host.status === "online" ? `${list.length} device${list.length === 1 ? "" : "s"}` : `last seen ${relative(host.last_seen)}`)),
        h("div", { class: "panel-body" },
          list.length ? h("div", { class: "devices" }, list.map((d) => deviceCard(d, thumbs)))
            : emptyState("No device on this host")))));
    thumbs.start();
  }

  function updateCards(devices) {
    for (const d of devices) {
      const card = hostsBox.querySelector(`[data-device="${CSS.escape(d.id)}"]`);
      if (!card) continue;
      card.querySelector(".badge").replaceWith(badge(d.status));
      card.setAttribute("aria-label", `${d.name} (${d.status}) — open device`);
      const screen = card.querySelectorAll(".kv span")[2];
      if (screen) replace(screen, h("b", null, "Screen "), d.current_node || "unknown");
      thumbs.setStatus(d.id, d.status);
    }
  }

  try {
    const [hosts, devices] = await Promise.all([api.get("/api/hosts"), api.get("/api/devices")]);
    if (!ctx.alive()) return;
    seedLab({ hosts, devices });
    renderSnapshot({ hosts, devices });
  } catch (err) {
    hostsBox.append(errorBanner("The lab could not be loaded", err.message));
    return;
  }
  ctx.onLeave(on("lab_update", (snapshot) => renderSnapshot(snapshot)));
}
