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

/** Subscribe to a server event; returns the function that unsubscribes. */
export function on(event, handler) {
  socket.on(event, handler);
  return () => socket.off(event, handler);
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
