// Device view: live screen, remote pad, task box with plan preview and live run,
// any command from a form, and the device's context as AI Central sees it.

import { api, enc } from "../api.js";
import { badge, errorBanner, h, replace } from "../dom.js";
import { on } from "../live.js";
import { commandForm } from "../components/command_form.js";
import { contextView } from "../components/context_view.js";
import { commandIndex } from "../components/param_form.js";
import { liveScreen } from "../components/live_screen.js";
import { nextCommands } from "../components/next_commands.js";
import { KEYBOARD_MAP, allowedKeys, remotePad } from "../components/remote_pad.js";
import { tabs } from "../components/tabs.js";
import { taskBox } from "../components/task_box.js";

function panel(title, body, extra) {
  return h("section", { class: "panel", "aria-label": title },
    h("div", { class: "panel-head" }, h("h2", null, title), h("span", { class: "spacer" }), extra || null),
    body);
}

export default async function deviceView(root, ctx) {
  const deviceId = ctx.params.deviceId;
  ctx.setTitle(deviceId);
  let device;
  let context;
  try {
    device = await api.get(`/api/devices/${enc(deviceId)}`);
  } catch (err) {
    root.append(errorBanner(`Device ${deviceId} could not be loaded`, err.message), h("a", { href: "#/lab" }, "Back to the lab"));
    return;
  }
  if (!ctx.alive()) return;
  ctx.setTitle(device.name);

  const statusSlot = h("span", null, badge(device.status));
  const nodeSlot = h("span", null, device.current_node || "unknown");
  root.append(h("div", { class: "page-head" },
    h("div", null,
      h("div", { class: "crumbs" }, h("a", { href: "#/lab" }, "Lab"), " / ", device.host_id),
      h("div", { style: { display: "flex", gap: "10px", alignItems: "center" } }, h("h1", null, device.name), statusSlot),
      h("div", { class: "sub kv" },
        h("span", null, h("b", null, "Id "), h("code", null, device.id)),
        h("span", null, h("b", null, "Model "), device.model || "—"),
        h("span", null, h("b", null, "UI "), device.userinterface || "—"),
        h("span", null, h("b", null, "Screen "), nodeSlot))),
    h("div", { class: "actions" },
      h("a", { class: "btn", href: `#/runs?device=${enc(device.id)}` }, "Runs of this device"),
      device.userinterface ? h("a", { class: "btn", href: `#/navigation/${enc(device.userinterface)}` }, "Navigation tree") : null)));

  ctx.onLeave(on("lab_update", (snap) => {
    const d = snap.devices.find((x) => x.id === deviceId);
    if (!d) return;
    replace(statusSlot, badge(d.status));
    nodeSlot.textContent = d.current_node || "unknown";
  }));
  const noteResult = (reply) => { if (reply?.current_node) nodeSlot.textContent = reply.current_node; };

  const body = h("div", { class: "stack" }, h("p", { class: "muted" }, "Loading the device's context…"));
  root.append(body);
  try {
    context = await api.get(`/api/devices/${enc(deviceId)}/context`);
  } catch (err) {
    replace(body, errorBanner("The device's context could not be loaded (is its host online?)", err.message));
  }
  if (!ctx.alive()) return;
  const commands = context ? commandIndex(context) : new Map();
  const keys = allowedKeys(commands);
  const pad = remotePad(deviceId, keys, noteResult);
  const screen = liveScreen(deviceId, {
    onKey: (key) => {
      const remote = KEYBOARD_MAP[key];
      if (!remote || !keys.includes(remote)) return false;
      pad.press(remote);
      return true;
    },
  });
  ctx.onLeave(() => screen.dispose());

  const left = h("div", { class: "stack" },
    panel("Live screen", screen.element, screen.pill),
    panel("Remote", h("div", { class: "panel-body" }, pad.element)));
  const right = h("div", { class: "stack" });
  if (context) {
    const box = taskBox(device, { commands, context, onLeave: ctx.onLeave });
    right.append(panel("Task", h("div", { class: "panel-body" }, box.element)),
      h("section", { class: "panel", "aria-label": "Commands and context" },
        tabs([
          { id: "command", label: "Send a command", render: () => commandForm(deviceId, context, noteResult) },
          { id: "context", label: "Context (as AI Central sees it)", render: () => contextView(deviceId, context) },
          { id: "next", label: "Next run", render: () => nextCommands(deviceId, commands).element },
        ], "Device tools")));
    box.showActiveRun();
    body.remove();
  } else {
    right.append(body);
  }
  root.append(h("div", { class: "device-layout" }, left, right));
}
