// The remote-control pad: one button per key the device's press_key command accepts,
// each sending the real command to the device.

import { api, enc } from "../api.js";
import { h, toast } from "../dom.js";

const LABELS = {
  UP: "▲", DOWN: "▼", LEFT: "◀", RIGHT: "▶", OK: "OK", BACK: "Back", HOME: "Home", MENU: "Menu",
  CHANNEL_UP: "CH +", CHANNEL_DOWN: "CH −", VOLUME_UP: "VOL +", VOLUME_DOWN: "VOL −", MUTE: "Mute",
  PLAY_PAUSE: "Play/Pause", PLAY: "Play", PAUSE: "Pause", STOP: "Stop", FAST_FORWARD: "FF »", REWIND: "« Rew", POWER: "Power",
};
const NAMES = {
  UP: "Up", DOWN: "Down", LEFT: "Left", RIGHT: "Right", OK: "OK", CHANNEL_UP: "Channel up",
  CHANNEL_DOWN: "Channel down", VOLUME_UP: "Volume up", VOLUME_DOWN: "Volume down", PLAY_PAUSE: "Play/pause",
  FAST_FORWARD: "Fast forward", REWIND: "Rewind",
};
const GROUPS = [
  { title: "System", keys: ["POWER", "HOME", "MENU", "BACK"] },
  { title: "Channel", keys: ["CHANNEL_UP", "CHANNEL_DOWN"] },
  { title: "Volume", keys: ["VOLUME_UP", "VOLUME_DOWN", "MUTE"] },
  { title: "Playback", keys: ["REWIND", "PLAY", "PLAY_PAUSE", "PAUSE", "STOP", "FAST_FORWARD"] },
];
const DPAD = [[null, "UP", null], ["LEFT", "OK", "RIGHT"], [null, "DOWN", null]];
const DIGITS = ["DIGIT_1", "DIGIT_2", "DIGIT_3", "DIGIT_4", "DIGIT_5", "DIGIT_6", "DIGIT_7", "DIGIT_8", "DIGIT_9", "DIGIT_0"];

/** Keyboard keys of the live screen mapped to remote keys. */
export const KEYBOARD_MAP = {
  ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT", Enter: "OK",
  Backspace: "BACK", Escape: "BACK", Home: "HOME", PageUp: "CHANNEL_UP", PageDown: "CHANNEL_DOWN",
  ...Object.fromEntries([..."0123456789"].map((d) => [d, `DIGIT_${d}`])),
};

export function keyName(key) {
  if (key.startsWith("DIGIT_")) return `Digit ${key.slice(6)}`;
  return NAMES[key] || key.charAt(0) + key.slice(1).toLowerCase().replace(/_/g, " ");
}

/** The keys this device accepts, from its context (press_key's `key` choices). */
export function allowedKeys(commands) {
  const spec = commands.get("press_key");
  const param = spec?.params?.find((p) => p.name === "key");
  return param ? (param.choices || []).map(String) : [];
}

/**
 * Build the pad for *deviceId*. onResult(reply) is called after each key.
 * Returns {element, press(key)}.
 */
export function remotePad(deviceId, keys, onResult = () => {}) {
  const allowed = new Set(keys);
  const buttons = new Map();

  async function press(key, button) {
    if (!allowed.has(key)) return;
    const btn = button || buttons.get(key);
    if (btn) {
      btn.classList.remove("key-flash");
      void btn.offsetWidth;
      btn.classList.add("key-flash");
    }
    try {
      const reply = await api.post(`/api/devices/${enc(deviceId)}/execute`, { command: "press_key", params: { key } });
      onResult(reply);
      if (reply.status !== "passed") toast(`${keyName(key)}: ${reply.message}`, "error");
    } catch (err) {
      toast(`${keyName(key)} failed: ${err.message}`, "error", 6000);
    }
  }

  function keyButton(key, extraClass = "") {
    const btn = h("button", {
      type: "button", class: `btn ${extraClass}`.trim(), "aria-label": `Press ${keyName(key)}`,
      title: keyName(key), dataset: { key },
    }, LABELS[key] || (key.startsWith("DIGIT_") ? key.slice(6) : key));
    btn.addEventListener("click", () => press(key, btn));
    buttons.set(key, btn);
    return btn;
  }

  if (!allowed.size) {
    return { element: h("p", { class: "muted" }, "This device has no press_key command: no remote pad."), press };
  }

  const left = h("div", { class: "group" }, h("span", { class: "group-title", id: `dpad-${deviceId}` }, "Navigate"));
  const dpad = h("div", { class: "dpad", role: "group", "aria-labelledby": `dpad-${deviceId}` });
  for (const row of DPAD) {
    for (const key of row) dpad.append(key && allowed.has(key) ? keyButton(key, key === "OK" ? "ok" : "") : h("span"));
  }
  left.append(dpad);

  const digits = DIGITS.filter((k) => allowed.has(k));
  if (digits.length) {
    left.append(h("span", { class: "group-title", id: `digits-${deviceId}` }, "Digits"),
      h("div", { class: "digits", role: "group", "aria-labelledby": `digits-${deviceId}` },
        digits.map((k) => keyButton(k, k === "DIGIT_0" ? "zero" : ""))));
  }

  const side = h("div", { class: "remote-side" });
  const placed = new Set([...DPAD.flat(), ...DIGITS]);
  for (const group of GROUPS) {
    const present = group.keys.filter((k) => allowed.has(k));
    present.forEach((k) => placed.add(k));
    if (!present.length) continue;
    const id = `g-${group.title}-${deviceId}`.replace(/\W/g, "-");
    side.append(h("div", { class: "group" }, h("span", { class: "group-title", id }, group.title),
      h("div", { class: "keys", role: "group", "aria-labelledby": id }, present.map((k) => keyButton(k, "btn--sm")))));
  }
  const others = keys.filter((k) => !placed.has(k));
  if (others.length) {
    side.append(h("div", { class: "group" }, h("span", { class: "group-title" }, "Other keys"),
      h("div", { class: "keys" }, others.map((k) => keyButton(k, "btn--sm")))));
  }
  side.append(h("p", { class: "muted small" },
    "Tip: focus the screen and use the arrow keys, Enter, Backspace, Page Up/Down and digits."));
  return { element: h("div", { class: "remote" }, left, side), press };
}
