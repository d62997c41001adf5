// How people move around the graph page's drawing. Mouse, pen and touch: pointing at a node shows
// its tooltip, a click or tap selects it (a click on nothing clears the selection), dragging a node
// moves it, dragging elsewhere pans, the wheel and a two-finger pinch zoom about the pointer.
// Keyboard, on the focused drawing: arrows pan, + and - zoom, 0 (or f) fits, Escape clears the
// selection; the toolbar's buttons do the same. Zooming or panning ends fitting; Fit resumes it.

const KEY_PAN = 60;        // CSS px per arrow key press
const KEY_ZOOM = 1.25;
const WHEEL_ZOOM = 0.002;  // zoom factor e^(-deltaY × this): a wheel notch (100) is about ×0.82
const CLICK_SLOP = 4;      // CSS px a pointer may move and still click
const TOUCH_SLOP = 10;     // CSS px around a node that a finger still hits

export function attachInput({ canvas, view, store, details, select }) {
  const pointers = new Map();  // pointerId -> {x, y}
  let gesture = null;          // {kind: 'node'|'pan'|'pinch', ...}

  const local = (event) => {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  const slopOf = (event) => (event.pointerType === 'touch' ? TOUCH_SLOP : 3);
  const pinchOf = () => {
    const [a, b] = [...pointers.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };
  const endDrag = () => {
    if (gesture?.kind === 'node' && gesture.dragging) store.unpin(gesture.node);
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    const point = local(event);
    pointers.set(event.pointerId, point);
    if (pointers.size === 2) {
      endDrag();
      gesture = { kind: 'pinch', ...pinchOf() };
    } else if (pointers.size === 1) {
      const node = view.nodeAt(point.x, point.y, slopOf(event));
      gesture = { kind: node ? 'node' : 'pan', node, start: point, last: point, moved: false };
    }
  });

  canvas.addEventListener('pointermove', (event) => {
    const point = local(event);
    if (!pointers.has(event.pointerId)) {
      // A pointer moving over the drawing without a button down: the tooltip follows it.
      const node = view.nodeAt(point.x, point.y, slopOf(event));
      view.hover(node);
      details.showTooltip(node, point.x, point.y);
      canvas.classList.toggle('over-node', Boolean(node));
      return;
    }
    pointers.set(event.pointerId, point);
    if (!gesture) return;
    if (gesture.kind === 'pinch') {
      if (pointers.size < 2) return;
      const pinch = pinchOf();
      view.panBy(pinch.x - gesture.x, pinch.y - gesture.y);
      if (gesture.distance > 0) view.zoomAt(pinch.distance / gesture.distance, pinch.x, pinch.y);
      Object.assign(gesture, pinch);
      return;
    }
    if (!gesture.moved && Math.hypot(point.x - gesture.start.x, point.y - gesture.start.y) < CLICK_SLOP) return;
    gesture.moved = true;
    if (gesture.kind === 'node') {
      gesture.dragging = true;
      const world = view.toWorld(point.x, point.y);
      store.pin(gesture.node, world.x, world.y);
      details.showTooltip(gesture.node, point.x, point.y);
      view.request();
    } else {
      view.panBy(point.x - gesture.last.x, point.y - gesture.last.y);
      gesture.last = point;
      details.showTooltip(null);
    }
  });

  const release = (event, cancelled) => {
    if (!pointers.delete(event.pointerId)) return;
    if (gesture && gesture.kind !== 'pinch' && !gesture.moved && !cancelled) {
      select(gesture.node ?? null, { centre: false });
      const point = local(event);
      details.showTooltip(gesture.node, point.x, point.y);
    }
    endDrag();
    // After a pinch the finger left on the screen pans.
    gesture = pointers.size === 1
      ? { kind: 'pan', start: [...pointers.values()][0], last: [...pointers.values()][0], moved: true }
      : null;
  };
  canvas.addEventListener('pointerup', (event) => release(event, false));
  canvas.addEventListener('pointercancel', (event) => release(event, true));
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType !== 'mouse') return;
    view.hover(null);
    if (!pointers.size) details.showTooltip(null);
  });

  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const point = local(event);
    const lines = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? 33 : 1;
    view.zoomAt(Math.exp(-event.deltaY * lines * WHEEL_ZOOM), point.x, point.y);
    details.showTooltip(null);
  }, { passive: false });

  const actions = {
    ArrowLeft: () => view.panBy(KEY_PAN, 0),
    ArrowRight: () => view.panBy(-KEY_PAN, 0),
    ArrowUp: () => view.panBy(0, KEY_PAN),
    ArrowDown: () => view.panBy(0, -KEY_PAN),
    '+': () => view.zoomAt(KEY_ZOOM),
    '=': () => view.zoomAt(KEY_ZOOM),
    '-': () => view.zoomAt(1 / KEY_ZOOM),
    _: () => view.zoomAt(1 / KEY_ZOOM),
    0: () => view.setFitting(true),
    f: () => view.setFitting(true),
    Escape: () => select(null),
  };
  canvas.addEventListener('keydown', (event) => {
    const action = actions[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
    details.showTooltip(null);
  });
  document.getElementById('zoom-in').addEventListener('click', actions['+']);
  document.getElementById('zoom-out').addEventListener('click', actions['-']);
  document.getElementById('fit').addEventListener('click', actions[0]);
}
