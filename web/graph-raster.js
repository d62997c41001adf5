// Draws many small nodes and links straight into a canvas's pixels, for the graph page's views
// of thousands of nodes. Where the browser rasterises canvas paths on the CPU (no GPU, as in CI's
// headless Chromium), thousands of antialiased arcs and strokes cost hundreds of milliseconds a
// frame; writing the pixels here costs a few. Lines are 1 device pixel wide and not antialiased,
// nodes are filled discs: at the scale where this is used, neither shows.
//
// All coordinates are in device pixels. Colours are '#rrggbb'.

const LINK_ALPHA = 0.3;          // how much one link darkens a pixel; crossings add up
const LINK_RGB = [120, 130, 145];

// ImageData holds R, G, B, A bytes: on the little-endian machines browsers run on, a pixel read as
// a 32-bit word is A << 24 | B << 16 | G << 8 | R.
function packed(r, g, b, a) {
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

export class PixelCanvas {
  constructor() {
    this.image = null;
    this.pixels = null;
    this.width = 0;
    this.height = 0;
    this.colours = new Map();  // '#rrggbb' -> packed pixel
    // The link colour at each coverage step: a pixel crossed by n links is step min(n, 15).
    this.linkShades = Array.from({ length: 16 }, (_, n) =>
      packed(...LINK_RGB, Math.round(255 * (1 - (1 - LINK_ALPHA) ** n))));
  }

  // Starts a frame of `width` × `height`, all transparent.
  begin(context, width, height) {
    if (!this.image || this.width !== width || this.height !== height) {
      this.image = context.createImageData(width, height);
      this.pixels = new Uint32Array(this.image.data.buffer);
      this.width = width;
      this.height = height;
    }
    this.pixels.fill(0);
    this.coverage = this.coverage?.length === width * height ? this.coverage : new Uint8Array(width * height);
    this.coverage.fill(0);
  }

  colourOf(hex) {
    let value = this.colours.get(hex);
    if (value === undefined) {
      const n = Number.parseInt(hex.slice(1), 16);
      value = packed(n >> 16, (n >> 8) & 255, n & 255, 255);
      this.colours.set(hex, value);
    }
    return value;
  }

  // A link from (x0, y0) to (x1, y1): translucent grey, or `colour` when given (opaque).
  line(x0, y0, x1, y1, colour) {
    const { width, height, pixels, coverage, linkShades } = this;
    // Clipped to the frame first (Liang and Barsky), so the part outside costs nothing.
    const ddx = x1 - x0;
    const ddy = y1 - y0;
    let enter = 0;
    let leave = 1;
    const edge = (p, q) => {
      if (p === 0) return q >= 0;
      const t = q / p;
      if (p < 0) enter = Math.max(enter, t);
      else leave = Math.min(leave, t);
      return enter <= leave;
    };
    if (!edge(-ddx, x0) || !edge(ddx, width - 1 - x0) || !edge(-ddy, y0) || !edge(ddy, height - 1 - y0)) return;
    let x = Math.round(x0 + enter * ddx);
    let y = Math.round(y0 + enter * ddy);
    const xEnd = Math.round(x0 + leave * ddx);
    const yEnd = Math.round(y0 + leave * ddy);
    const dx = Math.abs(xEnd - x);
    const dy = -Math.abs(yEnd - y);
    const sx = x < xEnd ? 1 : -1;
    const sy = y < yEnd ? 1 : -1;
    const value = colour === undefined ? undefined : this.colourOf(colour);
    let error = dx + dy;
    for (;;) {
      const i = y * width + x;
      if (value !== undefined) pixels[i] = value;
      else if (coverage[i] < 15) pixels[i] = linkShades[++coverage[i]];
      if (x === xEnd && y === yEnd) break;
      const twice = 2 * error;
      if (twice >= dy) { error += dy; x += sx; }
      if (twice <= dx) { error += dx; y += sy; }
    }
  }

  // A filled disc of radius r centred on (cx, cy).
  disc(cx, cy, r, colour) {
    const { width, height, pixels } = this;
    const value = this.colourOf(colour);
    const top = Math.max(0, Math.ceil(cy - r - 0.5));
    const bottom = Math.min(height - 1, Math.floor(cy + r - 0.5));
    const rr = r * r;
    for (let y = top; y <= bottom; y++) {
      const dy = y + 0.5 - cy;
      const half = Math.sqrt(Math.max(0, rr - dy * dy));
      const left = Math.max(0, Math.round(cx - half));
      const right = Math.min(width, Math.round(cx + half));
      pixels.fill(value, y * width + left, y * width + right);
    }
  }

  // Puts the frame on the canvas (replacing what was there).
  finish(context) {
    context.putImageData(this.image, 0, 0);
  }
}

