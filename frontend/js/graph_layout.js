// A layered (Sugiyama-style) layout of a directed graph, left to right:
//   1. break cycles (edges that close a cycle are laid out reversed),
//   2. longest-path layering from the entry node,
//   3. dummy nodes on edges that span several layers,
//   4. barycentre ordering sweeps that keep the ordering with the fewest crossings,
//   5. vertical placement pulled toward neighbours, without overlaps.
// Pure function of its input: no DOM.

/**
 * @param {string[]} ids node ids, in their declared order
 * @param {{from: string, to: string}[]} edges directed edges (may repeat or form cycles)
 * @param {object} opts {entry, nodeWidth, nodeHeight, layerGap, rowGap, padding}
 * @returns {{nodes: Map<string, {x, y, layer}>, routes: {x, y}[][], width: number, height: number}}
 *   routes[i] is the polyline of edges[i] from its source's border to its target's border.
 */
export function layeredLayout(ids, edges, opts = {}) {
  const o = { nodeWidth: 150, nodeHeight: 50, layerGap: 140, rowGap: 26, padding: 24, ...opts };
  const known = new Set(ids);
  const valid = edges.map((e) => known.has(e.from) && known.has(e.to) && e.from !== e.to);

  // 1. cycle breaking by depth-first search, starting from the entry
  const out = new Map(ids.map((id) => [id, []]));
  edges.forEach((e, i) => valid[i] && out.get(e.from).push({ to: e.to, i }));
  const reversed = new Set();
  const state = new Map();
  const discovery = [];
  const roots = o.entry && known.has(o.entry) ? [o.entry, ...ids.filter((id) => id !== o.entry)] : ids;
  for (const root of roots) {
    if (state.has(root)) continue;
    const stack = [[root, 0]];
    state.set(root, 1);
    discovery.push(root);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = out.get(top[0])[top[1]++];
      if (!next) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const seen = state.get(next.to);
      if (seen === 1) reversed.add(next.i);
      else if (seen === undefined) {
        state.set(next.to, 1);
        discovery.push(next.to);
        stack.push([next.to, 0]);
      }
    }
  }
  const dag = edges.map((e, i) => (!valid[i] ? null : reversed.has(i) ? { from: e.to, to: e.from } : { from: e.from, to: e.to }));

  // 2. longest-path layering (a topological pass)
  const layer = new Map(ids.map((id) => [id, 0]));
  const indeg = new Map(ids.map((id) => [id, 0]));
  const succ = new Map(ids.map((id) => [id, []]));
  for (const e of dag) {
    if (!e) continue;
    succ.get(e.from).push(e.to);
    indeg.set(e.to, indeg.get(e.to) + 1);
  }
  const queue = discovery.filter((id) => indeg.get(id) === 0);
  while (queue.length) {
    const id = queue.shift();
    for (const t of succ.get(id)) {
      layer.set(t, Math.max(layer.get(t), layer.get(id) + 1));
      indeg.set(t, indeg.get(t) - 1);
      if (indeg.get(t) === 0) queue.push(t);
    }
  }

  // 3. dummy nodes so that every laid-out edge joins adjacent layers
  const vnodes = new Map(ids.map((id) => [id, { id, layer: layer.get(id), dummy: false }]));
  const links = []; // {from, to} between adjacent layers
  const chains = edges.map(() => null);
  dag.forEach((e, i) => {
    if (!e) return;
    const chain = [e.from];
    let prev = e.from;
    for (let l = layer.get(e.from) + 1; l < layer.get(e.to); l++) {
      const id = `\u0000d${i}:${l}`;
      vnodes.set(id, { id, layer: l, dummy: true });
      links.push({ from: prev, to: id });
      chain.push(id);
      prev = id;
    }
    links.push({ from: prev, to: e.to });
    chain.push(e.to);
    chains[i] = chain;
  });
  const layerCount = Math.max(0, ...[...vnodes.values()].map((v) => v.layer)) + 1;
  let layers = Array.from({ length: layerCount }, () => []);
  const rank = new Map(discovery.map((id, i) => [id, i]));
  for (const v of vnodes.values()) layers[v.layer].push(v.id);
  layers.forEach((l) => l.sort((a, b) => (rank.get(a) ?? 1e9) - (rank.get(b) ?? 1e9)));
  const preds = new Map([...vnodes.keys()].map((id) => [id, []]));
  const succs = new Map([...vnodes.keys()].map((id) => [id, []]));
  for (const l of links) {
    preds.get(l.to).push(l.from);
    succs.get(l.from).push(l.to);
  }

  // 4. ordering: barycentre sweeps, keeping the best ordering seen
  const crossings = (ls) => {
    let total = 0;
    for (let k = 0; k + 1 < ls.length; k++) {
      const pos = new Map(ls[k + 1].map((id, i) => [id, i]));
      const segs = [];
      ls[k].forEach((id, i) => succs.get(id).forEach((t) => segs.push([i, pos.get(t)])));
      for (let a = 0; a < segs.length; a++) {
        for (let b = a + 1; b < segs.length; b++) {
          if ((segs[a][0] - segs[b][0]) * (segs[a][1] - segs[b][1]) < 0) total++;
        }
      }
    }
    return total;
  };
  const sweep = (ls, down) => {
    const next = ls.map((l) => [...l]);
    const range = down ? [...Array(ls.length).keys()].slice(1) : [...Array(ls.length).keys()].reverse().slice(1);
    for (const k of range) {
      const ref = new Map(next[down ? k - 1 : k + 1].map((id, i) => [id, i]));
      const bary = new Map(next[k].map((id, i) => {
        const ns = (down ? preds : succs).get(id).map((n) => ref.get(n)).filter((x) => x !== undefined);
        return [id, ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : i];
      }));
      next[k].sort((a, b) => bary.get(a) - bary.get(b));
    }
    return next;
  };
  let best = layers;
  let bestCount = crossings(layers);
  for (let it = 0; it < 8 && bestCount > 0; it++) {
    layers = sweep(layers, it % 2 === 0);
    const c = crossings(layers);
    if (c < bestCount) {
      best = layers;
      bestCount = c;
    }
  }
  layers = best;

  // 5. vertical placement: pulled toward neighbours, kept apart
  const size = (id) => (vnodes.get(id).dummy ? 8 : o.nodeHeight);
  const y = new Map();
  const tallest = Math.max(...layers.map((l) => l.reduce((s, id) => s + size(id) + o.rowGap, -o.rowGap)));
  layers.forEach((l) => {
    const h = l.reduce((s, id) => s + size(id) + o.rowGap, -o.rowGap);
    let cursor = (tallest - h) / 2;
    for (const id of l) {
      y.set(id, cursor + size(id) / 2);
      cursor += size(id) + o.rowGap;
    }
  });
  // the average of the "push down" and the "push up" solutions keeps order and gaps
  const gap = (l, i) => (size(l[i - 1]) + size(l[i])) / 2 + o.rowGap;
  const settle = (l, desired) => {
    const down = [];
    l.forEach((id, i) => down.push(i ? Math.max(desired[i], down[i - 1] + gap(l, i)) : desired[i]));
    const up = new Array(l.length);
    for (let i = l.length - 1; i >= 0; i--) {
      up[i] = i < l.length - 1 ? Math.min(desired[i], up[i + 1] - gap(l, i + 1)) : desired[i];
    }
    l.forEach((id, i) => y.set(id, (down[i] + up[i]) / 2));
  };
  for (let it = 0; it < 6; it++) {
    const down = it % 2 === 0;
    const order = down ? layers.keys() : [...layers.keys()].reverse();
    for (const k of order) {
      const l = layers[k];
      const desired = l.map((id) => {
        const ns = [...preds.get(id), ...succs.get(id)].filter((n) => vnodes.get(n).layer === (down ? k - 1 : k + 1));
        return ns.length ? ns.reduce((s, n) => s + y.get(n), 0) / ns.length : y.get(id);
      });
      settle(l, desired);
    }
  }
  const top = Math.min(...[...y.entries()].map(([id, v]) => v - size(id) / 2));
  const shift = o.padding - top;
  const x = (l) => o.padding + l * (o.nodeWidth + o.layerGap);
  const nodes = new Map(ids.map((id) => [id, { x: x(layer.get(id)), y: y.get(id) + shift - o.nodeHeight / 2, layer: layer.get(id) }]));
  const bottom = Math.max(...[...y.entries()].map(([id, v]) => v + size(id) / 2)) + shift;

  // routes: source border -> dummies -> target border, in the edge's real direction
  const routes = edges.map((e, i) => {
    if (!chains[i]) return [];
    const pts = chains[i].map((id) => {
      const v = vnodes.get(id);
      return { id, x: x(v.layer), y: y.get(id) + shift, dummy: v.dummy };
    });
    if (reversed.has(i)) pts.reverse();
    return pts.map((p, k) => {
      if (p.dummy) return { x: p.x + o.nodeWidth / 2, y: p.y };
      const other = pts[k === 0 ? 1 : k - 1];
      const rightward = other.x > p.x;
      return { x: rightward ? p.x + o.nodeWidth : p.x, y: p.y };
    });
  });

  return {
    nodes,
    routes,
    width: x(layerCount - 1) + o.nodeWidth + o.padding,
    height: bottom + o.padding,
  };
}

/** An SVG path through *points* with horizontal tangents (smooth left-to-right curves). */
export function curvePath(points) {
  if (!points.length) return "";
  let d = `M ${points[0].x.toFixed(1)} ${points[0].y.toFixed(1)}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const dx = (b.x - a.x) / 2;
    d += ` C ${(a.x + dx).toFixed(1)} ${a.y.toFixed(1)} ${(b.x - dx).toFixed(1)} ${b.y.toFixed(1)} ${b.x.toFixed(1)} ${b.y.toFixed(1)}`;
  }
  return d;
}
