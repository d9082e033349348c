// Accessible tabs (WAI-ARIA tab pattern: arrow keys move between tabs).

import { h } from "../dom.js";

let uid = 0;

/** tabs([{id, label, render: () => Node}]) -> element; panels render lazily on first show. */
export function tabs(items, label) {
  const base = `tabs${++uid}`;
  const list = h("div", { class: "tabs", role: "tablist", "aria-label": label });
  const panels = h("div");
  const entries = items.map((item, i) => {
    const tab = h("button", {
      type: "button", role: "tab", id: `${base}-${item.id}-tab`, "aria-controls": `${base}-${item.id}`,
      "aria-selected": "false", tabindex: "-1", dataset: { tab: item.id },
    }, item.label);
    const panel = h("div", { role: "tabpanel", id: `${base}-${item.id}`, "aria-labelledby": tab.id, hidden: true, class: "panel-body", tabindex: "0" });
    tab.addEventListener("click", () => select(i));
    tab.addEventListener("keydown", (event) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1 };
      if (event.key in moves) {
        event.preventDefault();
        const next = (i + moves[event.key] + items.length) % items.length;
        select(next);
        entries[next].tab.focus();
      }
    });
    list.append(tab);
    panels.append(panel);
    return { tab, panel, item, rendered: false };
  });

  function select(index) {
    entries.forEach((entry, i) => {
      const on = i === index;
      entry.tab.setAttribute("aria-selected", String(on));
      entry.tab.tabIndex = on ? 0 : -1;
      entry.panel.hidden = !on;
      if (on && !entry.rendered) {
        entry.rendered = true;
        entry.panel.append(entry.item.render());
      }
    });
  }

  select(0);
  return h("div", null, list, panels);
}
