// The navigation tree drawn as an SVG graph: nodes (screens) and edges (actions), laid out in
// layers from the entry node. Nodes and edges are focusable and selectable with the keyboard.

import { h, s } from "../dom.js";
import * as fmt from "../format.js";
import { curvePath, layeredLayout } from "../graph_layout.js";

const NODE_W = 156;
const NODE_H = 54;

function trim(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function edgeSummary(edge) {
  const actions = edge.actions || [];
  if (!actions.length) return "no action";
  return actions.map(fmt.action).join(", ");
}

/** Give each edge its own attachment point on a node's side, ordered by where the edge comes from. */
function spreadPorts(layout, edges) {
  const groups = new Map();
  edges.forEach((edge, index) => {
    const route = layout.routes[index];
    if (!route || route.length < 2) return;
    for (const [node, at, neighbour] of [[String(edge.from), 0, 1], [String(edge.to), route.length - 1, route.length - 2]]) {
      const box = layout.nodes.get(node);
      const side = route[at].x <= box.x + 1 ? "left" : "right";
      const key = `${node}|${side}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push({ point: route[at], toward: route[neighbour].y, centre: box.y + NODE_H / 2 });
    }
  });
  for (const ports of groups.values()) {
    if (ports.length < 2) continue;
    ports.sort((a, b) => a.toward - b.toward);
    const step = Math.min(14, (NODE_H - 14) / (ports.length - 1));
    ports.forEach((port, i) => { port.point.y = port.centre + (i - (ports.length - 1) / 2) * step; });
  }
}

/**
 * Draw *tree* (its raw JSON form).
 * view: {selected: {type, id|index} | null, path: {nodes: [], edges: [{from,to}]} | null, pins: Map(node -> [device ids])}
 * onSelect({type: "node", id} | {type: "edge", index})
 */
export function drawTree(tree, view, onSelect) {
  const nodes = tree.nodes || [];
  const edges = tree.edges || [];
  const ids = nodes.map((n) => String(n.id));
  const layout = layeredLayout(ids, edges.map((e) => ({ from: String(e.from), to: String(e.to) })), {
    entry: tree.entry || ids[0], nodeWidth: NODE_W, nodeHeight: NODE_H, layerGap: 176, rowGap: 24, padding: 30,
  });
  spreadPorts(layout, edges);
  const pathNodes = view.path?.nodes || [];
  const pathEdges = view.path?.edges || [];
  const forwardOnPath = (e) => pathEdges.some((p) => p.from === String(e.from) && p.to === String(e.to));
  const backwardOnPath = (e) => (e.reverse_actions || []).length > 0
    && pathEdges.some((p) => p.from === String(e.to) && p.to === String(e.from));

  const svg = s("svg", {
    viewBox: `0 0 ${Math.max(layout.width, 400)} ${Math.max(layout.height, 300)}`,
    role: "group", "aria-label": `Navigation graph of ${tree.userinterface}: ${nodes.length} nodes, ${edges.length} edges`,
    style: { maxWidth: `${Math.max(layout.width, 400) * 1.35}px`, margin: "0 auto" },
  });
  svg.append(s("defs", null,
    ...[["arrow", "#94a3b8"], ["arrow-sel", "#2f5bea"], ["arrow-path", "#ea580c"]].map(([id, color]) =>
      s("marker", { id, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "9", markerHeight: "9", markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 z", fill: color })))));

  const edgeLayer = s("g", { class: "edges" });
  const labelLayer = s("g", { class: "edge-labels" });
  edges.forEach((edge, index) => {
    const route = layout.routes[index];
    if (!route || route.length < 2) return;
    const selected = view.selected?.type === "edge" && view.selected.index === index;
    const backward = backwardOnPath(edge) && !forwardOnPath(edge);
    const highlighted = backward || forwardOnPath(edge);
    const marker = highlighted ? "arrow-path" : selected ? "arrow-sel" : "arrow";
    const both = (edge.reverse_actions || []).length > 0;
    const reverseSummary = both ? edgeSummary({ actions: edge.reverse_actions }) : "";
    const d = curvePath(route);
    const summary = edgeSummary(edge);
    const g = s("g", {
      class: ["gedge", selected && "selected", highlighted && "on-path"], tabindex: "0", role: "button",
      "aria-pressed": String(selected),
      "aria-label": `Edge ${edge.from} to ${edge.to}: ${summary}${both ? `; back: ${reverseSummary}` : ""}${highlighted ? `; on the goto path${backward ? " (taken backwards)" : ""}` : ""}`,
      dataset: { edge: String(index), from: String(edge.from), to: String(edge.to) },
    },
    s("title", null, `${edge.from} → ${edge.to}\nactions: ${summary}${both ? `\nback (${edge.to} → ${edge.from}): ${reverseSummary}` : ""}`),
    s("path", { class: "line", d, "marker-end": backward ? null : `url(#${marker})`, "marker-start": backward ? `url(#${marker})` : null }),
    s("path", { class: "hit", d }));
    const select = () => onSelect({ type: "edge", index });
    g.addEventListener("click", select);
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(); } });
    edgeLayer.append(g);
    // label just before the target, above the arriving line
    const end = route[route.length - 1];
    const fromLeft = route[route.length - 2].x < end.x;
    const label = s("text", { x: (end.x + (fromLeft ? -10 : 10)).toFixed(1), y: (end.y - 5).toFixed(1), "text-anchor": fromLeft ? "end" : "start" },
      `${both ? "↔ " : ""}${trim(summary, 27)}`);
    const lg = s("g", { class: ["gedge", selected && "selected", highlighted && "on-path"], "aria-hidden": "true" }, label);
    labelLayer.append(lg);
  });

  const nodeLayer = s("g", { class: "nodes" });
  nodes.forEach((node) => {
    const id = String(node.id);
    const p = layout.nodes.get(id);
    if (!p) return;
    const selected = view.selected?.type === "node" && view.selected.id === id;
    const order = pathNodes.indexOf(id);
    const verifications = (node.verifications || []).length;
    const g = s("g", {
      class: ["gnode", selected && "selected", id === tree.entry && "entry", order >= 0 && "on-path",
        (order === 0 || order === pathNodes.length - 1) && order >= 0 && "path-end"],
      transform: `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})`, tabindex: "0", role: "button",
      "aria-pressed": String(selected),
      "aria-label": `Node ${node.label || id} (${id})${id === tree.entry ? ", entry" : ""}, ${verifications} verification${verifications === 1 ? "" : "s"}${order >= 0 ? `, path step ${order}` : ""}`,
      dataset: { node: id },
    },
    s("title", null, `${node.label || id} (${id})${node.description ? `\n${node.description}` : ""}\nverifications: ${(node.verifications || []).map(fmt.action).join(", ") || "none"}`),
    s("rect", { class: "box", width: NODE_W, height: NODE_H, rx: "9" }),
    s("text", { class: "label", x: "12", y: "22" }, trim(String(node.label || id), 19)),
    s("text", { class: "id", x: "12", y: "39" }, trim(id, 16)),
    s("text", { class: "meta", x: String(NODE_W - 10), y: "39", "text-anchor": "end" }, verifications ? `✓ ${verifications}` : ""),
    id === tree.entry ? s("text", { class: "meta", x: String(NODE_W - 10), y: "20", "text-anchor": "end" }, "entry") : null,
    order >= 0 ? s("g", { transform: `translate(0 0)` },
      s("circle", { class: "order", cx: "0", cy: "0", r: "10" }),
      s("text", { class: "order-text", x: "0", y: "4", "text-anchor": "middle" }, String(order))) : null);
    const pins = view.pins?.get(id) || [];
    pins.forEach((deviceId, k) => {
      const w = Math.min(110, 14 + deviceId.length * 6);
      g.append(s("g", { transform: `translate(${NODE_W - w - 4 - k * (w + 4)} -12)` },
        s("title", null, `${deviceId} is on this screen`),
        s("rect", { class: "pin", width: String(w), height: "16", rx: "8" }),
        s("text", { class: "pin-text", x: String(w / 2), y: "11.5", "text-anchor": "middle" }, trim(deviceId, 16))));
    });
    const select = () => onSelect({ type: "node", id });
    g.addEventListener("click", select);
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(); } });
    nodeLayer.append(g);
  });
  svg.append(edgeLayer, labelLayer, nodeLayer);
  return svg;
}

export function legend() {
  return h("div", { class: "legend", "aria-hidden": "true" },
    h("span", null, h("i", { style: { borderColor: "#047857" } }), "entry node"),
    h("span", null, h("i", { style: { borderColor: "#2f5bea" } }), "selected"),
    h("span", null, h("i", { style: { borderColor: "#ea580c", background: "#fff7ed" } }), "goto path"),
    h("span", null, "✓ n = verifications"),
    h("span", null, "↔ = edge with reverse actions (the way back)"),
    h("span", null, "Tab to a node or edge, Enter to edit it"));
}
