// Draws the graph store's nodes and links on a canvas, through a view transform: screen = world ×
// k + (tx, ty), in CSS pixels. While `fitting` (the default, until the user zooms or pans) the
// transform is recomputed at every frame from where the nodes are, so the whole graph stays in the
// window as nodes arrive and the layout moves. A canvas rather than SVG: 10,000 nodes as DOM
// elements cost more to lay out and paint than a frame allows. A view of a few nodes is drawn with
// antialiased paths; one of thousands straight in pixels (graph-raster.js), which costs a few
// milliseconds where paths would cost hundreds without a GPU.
//
// Drawing happens only when something changed (positions, the view, a highlight ending), at most
// once per animation frame. `frame` describes the last drawing, for tools and tests.

import { PixelCanvas } from './graph-raster.js';

const PADDING = 24;       // CSS px between the graph and the canvas's edges when fitted
const MIN_ZOOM = 0.01;
const MAX_ZOOM = 16;
const MAX_FIT_ZOOM = 2;   // a graph of a few nodes is not blown up beyond this
const MIN_RADIUS = 1.5;   // CSS px: the smallest a node is drawn, however far out the view is
const LABEL_CANDIDATES = 2000;  // ids are written beside nodes when at most this many are in view
const MAX_LABELS = 300;
const LABEL_SAMPLE = 'investor-0123456789abcdef';  // a typical id, for the width of labels
const LABEL_CELL = 6;     // CSS px: the grain of the map of where labels and nodes are
// Views with more nodes or links than these are drawn in pixels (graph-raster.js), not paths.
// Highlight rings are the dearest paths to rasterise.
const DENSE_NODES = 1000;
const DENSE_LINKS = 2000;
const DENSE_FRESH = 200;
const DRAW_TIMES = 240;   // how many recent drawing durations `drawTimes` keeps

const FRESH_COLOUR = '#ff9d00';
const SELECTED_COLOUR = '#1d2430';

export class GraphView {
  constructor(canvas, store, colourOf, onViewChange) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.store = store;
    this.colourOf = colourOf;
    this.onViewChange = onViewChange;  // called when k, fitting or the selection change
    this.k = 1;
    this.tx = 0;
    this.ty = 0;
    this.fitting = true;
    this.selected = null;
    this.hovered = null;
    this.width = 0;
    this.height = 0;
    this.pending = false;
    this.nextExpiry = Infinity;
    this.expiryTimer = null;
    this.frame = null;
    this.drawTimes = [];
    this.pixels = new PixelCanvas();
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  resize() {
    this.width = this.canvas.clientWidth;
    this.height = this.canvas.clientHeight;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(this.width * ratio));
    this.canvas.height = Math.max(1, Math.round(this.height * ratio));
    this.request();
  }

  // Asks for a drawing at the next animation frame.
  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  toScreen(node) {
    return { x: node.x * this.k + this.tx, y: node.y * this.k + this.ty };
  }

  toWorld(x, y) {
    return { x: (x - this.tx) / this.k, y: (y - this.ty) / this.k };
  }

  radiusOnScreen(node) {
    return Math.min(2 * node.radius, Math.max(MIN_RADIUS, node.radius * this.k));
  }

  // Fitting on or off; on, the next frame fits the graph to the window.
  setFitting(fitting) {
    this.fitting = fitting;
    this.changed();
  }

  // Zooms by `factor` around the screen point (x, y), which stays where it is; fitting ends.
  zoomAt(factor, x = this.width / 2, y = this.height / 2) {
    const world = this.toWorld(x, y);
    this.k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.k * factor));
    this.tx = x - world.x * this.k;
    this.ty = y - world.y * this.k;
    this.fitting = false;
    this.changed();
  }

  panBy(dx, dy) {
    this.tx += dx;
    this.ty += dy;
    this.fitting = false;
    this.changed();
  }

  // Puts `node` in the middle of the window, zoomed in to at least `minZoom`; fitting ends.
  centreOn(node, minZoom = 1.5) {
    this.k = Math.max(this.k, minZoom);
    this.tx = this.width / 2 - node.x * this.k;
    this.ty = this.height / 2 - node.y * this.k;
    this.fitting = false;
    this.changed();
  }

  select(node) {
    this.selected = node;
    this.changed();
  }

  hover(node) {
    if (this.hovered === node) return;
    this.hovered = node;
    this.request();
  }

  changed() {
    this.onViewChange();
    this.request();
  }

  // The node drawn under the screen point (x, y), within `slop` CSS px of its edge, or null.
  nodeAt(x, y, slop = 3) {
    let best = null;
    let bestDistance = Infinity;
    for (const node of this.store.nodes.values()) {
      const point = this.toScreen(node);
      const distance = Math.hypot(point.x - x, point.y - y);
      if (distance <= this.radiusOnScreen(node) + slop && distance < bestDistance) {
        best = node;
        bestDistance = distance;
      }
    }
    return best;
  }

  fit() {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const node of this.store.nodes.values()) {
      minX = Math.min(minX, node.x - node.radius);
      maxX = Math.max(maxX, node.x + node.radius);
      minY = Math.min(minY, node.y - node.radius);
      maxY = Math.max(maxY, node.y + node.radius);
    }
    if (minX > maxX) return;
    const k = Math.min(MAX_FIT_ZOOM,
      (this.width - 2 * PADDING) / Math.max(maxX - minX, 1),
      (this.height - 2 * PADDING) / Math.max(maxY - minY, 1));
    const previous = this.k;
    this.k = Math.max(MIN_ZOOM, k);
    this.tx = this.width / 2 - ((minX + maxX) / 2) * this.k;
    this.ty = this.height / 2 - ((minY + maxY) / 2) * this.k;
    if (this.k !== previous) this.onViewChange();
  }

  draw() {
    const start = performance.now();
    const now = Date.now();
    if (this.fitting) this.fit();
    // Where each node is on the screen (CSS px), which are in view, and the bounds of them all.
    const inView = [];
    let freshInView = 0;
    let left = Infinity;
    let top = Infinity;
    let right = -Infinity;
    let bottom = -Infinity;
    let nextExpiry = Infinity;
    for (const node of this.store.nodes.values()) {
      node.sx = node.x * this.k + this.tx;
      node.sy = node.y * this.k + this.ty;
      node.sr = this.radiusOnScreen(node);
      left = Math.min(left, node.sx - node.sr);
      right = Math.max(right, node.sx + node.sr);
      top = Math.min(top, node.sy - node.sr);
      bottom = Math.max(bottom, node.sy + node.sr);
      if (node.freshUntil > now) nextExpiry = Math.min(nextExpiry, node.freshUntil);
      if (node.sx + node.sr >= 0 && node.sy + node.sr >= 0 &&
          node.sx - node.sr <= this.width && node.sy - node.sr <= this.height) {
        inView.push(node);
        if (node.freshUntil > now) freshInView += 1;
      }
    }
    const links = [];
    for (const link of this.store.links.values()) {
      if (link.freshUntil > now) nextExpiry = Math.min(nextExpiry, link.freshUntil);
      const { source: a, target: b } = link;
      if (Math.max(a.sx, b.sx) >= 0 && Math.min(a.sx, b.sx) <= this.width &&
          Math.max(a.sy, b.sy) >= 0 && Math.min(a.sy, b.sy) <= this.height) links.push(link);
    }

    const ratio = this.canvas.width / Math.max(this.width, 1);
    const c = this.context;
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    c.clearRect(0, 0, this.width, this.height);
    const dense = inView.length > DENSE_NODES || links.length > DENSE_LINKS || freshInView > DENSE_FRESH;
    if (dense) this.drawPixels(inView, links, now, ratio);
    else this.drawPaths(inView, links, now);
    // The hovered and selected nodes again, over any neighbour drawn across them, and ringed.
    for (const node of [this.hovered, this.selected]) {
      if (!node) continue;
      c.beginPath();
      c.arc(node.sx, node.sy, node.sr, 0, 2 * Math.PI);
      c.fillStyle = this.colourOf(node.type);
      c.fill();
      c.beginPath();
      c.arc(node.sx, node.sy, node.sr + 4, 0, 2 * Math.PI);
      c.lineWidth = 2;
      c.strokeStyle = SELECTED_COLOUR;
      c.stroke();
    }
    const labels = this.drawLabels(inView);

    this.scheduleExpiry(nextExpiry, now);
    const drawMs = performance.now() - start;
    this.drawTimes.push(drawMs);
    if (this.drawTimes.length > DRAW_TIMES) this.drawTimes.shift();
    this.frame = {
      width: this.width, height: this.height, k: this.k, tx: this.tx, ty: this.ty,
      fitting: this.fitting, nodes: this.store.nodes.size, inView: inView.length, labels, dense, drawMs,
      sequence: (this.frame?.sequence ?? 0) + 1,
      bounds: left <= right ? { left, top, right, bottom } : null,
    };
  }

  // Antialiased paths: links in one path (the highlighted ones in another, over them), nodes in
  // one path per colour with a white edge when large enough, rings round the highlighted nodes.
  drawPaths(inView, links, now) {
    const c = this.context;
    const plain = new Path2D();
    const fresh = new Path2D();
    for (const link of links) {
      const path = link.freshUntil > now ? fresh : plain;
      path.moveTo(link.source.sx, link.source.sy);
      path.lineTo(link.target.sx, link.target.sy);
    }
    c.lineWidth = 1;
    c.strokeStyle = 'rgba(120, 130, 145, 0.6)';
    c.stroke(plain);
    c.lineWidth = 2;
    c.strokeStyle = FRESH_COLOUR;
    c.stroke(fresh);

    const fills = new Map();
    const rings = new Path2D();
    for (const node of inView) {
      const { sx: x, sy: y, sr: r } = node;
      const colour = this.colourOf(node.type);
      let path = fills.get(colour);
      if (!path) fills.set(colour, path = new Path2D());
      path.moveTo(x + r, y);
      path.arc(x, y, r, 0, 2 * Math.PI);
      if (node.freshUntil > now) {
        rings.moveTo(x + r + 2, y);
        rings.arc(x, y, r + 2, 0, 2 * Math.PI);
      }
    }
    c.lineWidth = 1;
    c.strokeStyle = '#fff';
    for (const [colour, path] of fills) {
      c.fillStyle = colour;
      c.fill(path);
      if (this.k >= 0.5) c.stroke(path);
    }
    c.lineWidth = 2.5;
    c.strokeStyle = FRESH_COLOUR;
    c.stroke(rings);
  }

  // The same in pixels (graph-raster.js), for views of thousands: a highlighted node sits on a
  // larger disc of the highlight colour.
  drawPixels(inView, links, now, ratio) {
    const pixels = this.pixels;
    pixels.begin(this.context, this.canvas.width, this.canvas.height);
    for (const { source: a, target: b, freshUntil } of links) {
      if (freshUntil <= now) pixels.line(a.sx * ratio, a.sy * ratio, b.sx * ratio, b.sy * ratio);
    }
    for (const { source: a, target: b, freshUntil } of links) {
      if (freshUntil > now) pixels.line(a.sx * ratio, a.sy * ratio, b.sx * ratio, b.sy * ratio, FRESH_COLOUR);
    }
    for (const node of inView) {
      if (node.freshUntil > now) pixels.disc(node.sx * ratio, node.sy * ratio, (node.sr + 1.5) * ratio, FRESH_COLOUR);
      pixels.disc(node.sx * ratio, node.sy * ratio, node.sr * ratio, this.colourOf(node.type));
    }
    pixels.finish(this.context);
  }

  // Writes ids beside the nodes in view where they overlap neither a node nor another id: the
  // selected and hovered nodes' first, then the larger nodes'. Returns how many were written.
  drawLabels(inView) {
    const c = this.context;
    c.font = '11px system-ui, sans-serif';
    c.textBaseline = 'middle';
    c.lineWidth = 3;
    c.strokeStyle = 'rgba(246, 247, 249, 0.9)';
    c.fillStyle = SELECTED_COLOUR;
    const columns = Math.ceil(this.width / LABEL_CELL) + 1;
    const rows = Math.ceil(this.height / LABEL_CELL) + 1;
    const taken = new Uint8Array(columns * rows);
    const cells = (left, top, right, bottom, mark) => {
      const x0 = Math.max(0, Math.floor(left / LABEL_CELL));
      const x1 = Math.min(columns - 1, Math.floor(right / LABEL_CELL));
      const y0 = Math.max(0, Math.floor(top / LABEL_CELL));
      const y1 = Math.min(rows - 1, Math.floor(bottom / LABEL_CELL));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          if (mark) taken[y * columns + x] = 1;
          else if (taken[y * columns + x]) return false;
        }
      }
      return true;
    };
    const forced = [this.selected, this.hovered].filter((node) => node);
    const candidates = inView.length <= LABEL_CANDIDATES
      ? [...inView].sort((a, b) => b.radius - a.radius) : [];
    if (candidates.length > 0) {
      for (const node of inView) cells(node.sx - node.sr, node.sy - node.sr, node.sx + node.sr, node.sy + node.sr, true);
    }
    let written = 0;
    const done = new Set();
    for (const node of [...forced, ...candidates]) {
      if (written >= MAX_LABELS || done.has(node)) continue;
      done.add(node);
      // Estimated from the font's average character width: measuring each of a thousand new ids
      // would take longer than the rest of the frame.
      this.charWidth ||= c.measureText(LABEL_SAMPLE).width / LABEL_SAMPLE.length;
      node.labelWidth ||= node.id.length * this.charWidth;
      const top = node.sy - 7;
      const bottom = node.sy + 7;
      const right = node.sx + node.sr + 3;                  // the id to the right of the node,
      const left = node.sx - node.sr - 3 - node.labelWidth;  // else to its left
      const fits = (x) => x >= 0 && x + node.labelWidth <= this.width && top >= 0 && bottom <= this.height &&
        cells(x, top, x + node.labelWidth, bottom, false);
      let x = null;
      if (fits(right)) x = right;
      else if (fits(left)) x = left;
      else if (forced.includes(node)) x = right;
      if (x === null) continue;
      cells(x, top, x + node.labelWidth, bottom, true);
      c.strokeText(node.id, x, node.sy);
      c.fillText(node.id, x, node.sy);
      written += 1;
    }
    return written;
  }

  // A drawing when the earliest highlight ends, so that it goes away even if nothing else changes.
  scheduleExpiry(expiry, now) {
    if (expiry === Infinity || expiry >= this.nextExpiry) return;
    clearTimeout(this.expiryTimer);
    this.nextExpiry = expiry;
    this.expiryTimer = setTimeout(() => {
      this.nextExpiry = Infinity;
      this.request();
    }, expiry - now + 1);
  }
}
