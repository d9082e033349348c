// The dashboard's Socket.IO connection to the server's /dashboard namespace.
// Views subscribe to events (run_update, step, lab_update, frame) and release
// their handlers when they are left; watched devices are re-watched after a reconnect.

import { io } from "/static/vendor/socket.io.esm.min.js";

const socket = io("/dashboard", { transports: ["websocket", "polling"], reconnectionDelayMax: 4000 });
const watched = new Map(); // device_id -> number of watchers in this page
const statusListeners = new Set();

function setStatus(up) {
  const el = document.getElementById("conn");
  if (el) {
    el.className = `conn ${up ? "conn--up" : "conn--down"}`;
    el.querySelector(".conn-text").textContent = up ? "Live" : "Reconnecting…";
    el.title = up ? "Receiving live events from the server" : "Live events paused: reconnecting to the server";
  }
  for (const fn of statusListeners) fn(up);
}

socket.on("connect", () => {
  setStatus(true);
  for (const deviceId of watched.keys()) socket.emit("watch_device", { device_id: deviceId });
});
socket.on("disconnect", () => setStatus(false));
socket.on("connect_error", () => setStatus(false));

// The server sends the whole lab (lab_update) when hosts come and go, and one device (device_update)
// when a run starts or ends; lab_update listeners get the last lab with that device patched in.
let lastLab = null;
const labListeners = new Set();
socket.on("lab_update", (snapshot) => { lastLab = snapshot; });
socket.on("device_update", ({ device }) => {
  if (!device) return;
  if (!lastLab) {   // nothing loaded the whole lab yet: listeners that look one device up still learn of it
    for (const fn of labListeners) fn({ hosts: [], devices: [device], partial: true });
    return;
  }
  const devices = lastLab.devices.some((d) => d.id === device.id)
    ? lastLab.devices.map((d) => (d.id === device.id ? device : d)) : [...lastLab.devices, device];
  lastLab = { ...lastLab, devices };
  for (const fn of labListeners) fn(lastLab);
});

/** Remember the lab a view loaded (GET /api/hosts + /api/devices), so device updates patch it. */
export function seedLab(snapshot) {
  lastLab = snapshot;
}

/** Subscribe to a server event; returns the function that unsubscribes. */
export function on(event, handler) {
  if (event === "lab_update") labListeners.add(handler);
  socket.on(event, handler);
  return () => {
    labListeners.delete(handler);
    socket.off(event, handler);
  };
}

/** Call fn(connected) now and on every connection change; returns the unsubscribe function. */
export function onConnection(fn) {
  statusListeners.add(fn);
  fn(socket.connected);
  return () => statusListeners.delete(fn);
}

/** Start receiving `frame` events of a device; returns the function that stops. */
export function watchDevice(deviceId) {
  const count = watched.get(deviceId) || 0;
  watched.set(deviceId, count + 1);
  if (count === 0 && socket.connected) socket.emit("watch_device", { device_id: deviceId });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (watched.get(deviceId) || 1) - 1;
    if (left > 0) {
      watched.set(deviceId, left);
    } else {
      watched.delete(deviceId);
      if (socket.connected) socket.emit("unwatch_device", { device_id: deviceId });
    }
  };
}

export function isConnected() {
  return socket.connected;
}
