// "Send a command": any command of the device, with a form built from its declared params.

import { api, enc } from "../api.js";
import { badge, busy, chip, h, replace } from "../dom.js";
import * as fmt from "../format.js";
import { paramForm } from "./param_form.js";

const KINDS = [["action", "Actions"], ["verification", "Verifications"], ["navigation", "Navigation"]];

export function commandForm(deviceId, context, onResult = () => {}) {
  const nodes = context.navigation?.nodes || [];
  const select = h("select", { id: `cmd-${deviceId}`, "aria-label": "Command" },
    KINDS.map(([kind, label]) => h("optgroup", { label },
      (context[kind]?.commands || []).map((c) => h("option", { value: `${kind}:${c.name}` }, c.name)))));
  const about = h("div", { class: "small muted" });
  const formBox = h("div");
  const result = h("div", { "aria-live": "polite" });
  const send = h("button", { type: "submit", class: "btn btn--primary" }, "Send");
  let form = null;
  let current = null;

  function show() {
    const [kind, name] = select.value.split(":");
    current = (context[kind]?.commands || []).find((c) => c.name === name);
    if (!current) return;
    form = paramForm(current, {}, { nodes });
    replace(about, chip(current.controller_type), " ", current.description || "",
      current.destructive ? h("span", { class: "badge badge--destructive", style: { marginLeft: "6px" } }, "destructive") : null);
    replace(formBox, form.element);
    send.setAttribute("aria-label", `Send ${current.name} to the device`);
  }

  const element = h("form", { class: "stack", style: { gap: "12px" }, "aria-label": "Send a command" },
    h("div", { class: "toolbar" }, h("label", { class: "field", for: select.id }, "Command", select)),
    about, formBox,
    h("div", { class: "toolbar" }, send),
    result);

  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!current) return;
    const { params, errors } = form.read();
    if (errors.length) {
      replace(result, h("div", { class: "banner banner--error" }, `Fix the parameters: ${errors.join("; ")}`));
      return;
    }
    if (current.destructive && !window.confirm(`${current.name} is destructive. Send it?`)) return;
    await busy(send, async () => {
      try {
        const reply = await api.post(`/api/devices/${enc(deviceId)}/execute`,
          { command: current.name, params, ...(current.destructive ? { confirm: true } : {}) });  // confirmed above
        replace(result, h("div", { class: `banner ${reply.status === "passed" ? "banner--ok" : "banner--error"}`, dataset: { result: reply.status } },
          h("div", null, h("div", { class: "title" }, badge(reply.status), " ", reply.command, " ", h("span", { class: "muted small" }, fmt.ms(reply.duration_ms))),
            reply.message ? h("pre", null, reply.message) : null)));
        onResult(reply);
      } catch (err) {
        replace(result, h("div", { class: "banner banner--error", dataset: { result: "error" } }, err.message));
      }
    });
  });
  select.addEventListener("change", show);
  show();
  return element;
}
