// Small DOM helpers. Text always goes in through textContent: no server data is parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" && "value" in el && !(el instanceof SVGElement)) el.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** h("button", {class: "btn", onclick}, "Save") — create an element. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** s("rect", {x, y}) — create an SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

/** Show a short message in the toast area (announced to screen readers). */
export function toast(message, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast toast--${kind}`, role: kind === "error" ? "alert" : null }, message);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}

/** Mark a button busy while an async action runs; returns the action's result. */
export async function busy(button, action) {
  button.setAttribute("aria-busy", "true");
  button.disabled = true;
  try {
    return await action();
  } finally {
    button.removeAttribute("aria-busy");
    button.disabled = false;
  }
}

/** Open the shared screenshot viewer. */
export function showImage(src, caption) {
  const dialog = document.getElementById("lightbox");
  document.getElementById("lightbox-img").src = src;
  document.getElementById("lightbox-img").alt = caption || "Screenshot";
  document.getElementById("lightbox-caption").textContent = caption || "";
  dialog.showModal();
}

export function badge(status, text) {
  return h("span", { class: `badge badge--${status}` }, text || status);
}

export function chip(type) {
  return type ? h("span", { class: `chip chip--${type}`, title: `${type} controller` }, type) : null;
}

export function emptyState(title, detail) {
  return h("div", { class: "empty" }, h("strong", null, title), detail ? h("span", null, detail) : null);
}

export function errorBanner(title, detail) {
  return h("div", { class: "banner banner--error", role: "alert" },
    h("div", null, h("div", { class: "title" }, title), detail ? h("pre", null, detail) : null));
}
