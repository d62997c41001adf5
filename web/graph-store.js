// What the graph page knows of the network: the nodes and links it has been sent (networkGraph,
// then every networkUpdated), each node's position, and which ones changed recently. Positions
// come from the layout worker (graph-layout.js); a node that arrives starts next to a node it is
// linked to, so the drawing grows where the change is instead of in the middle.

// How long a node or link that arrived or changed stays highlighted.
export const FRESH_MS = 4000;

export function radiusOf(type) {
  return type === 'Round' || type === 'Token' ? 9 : 6;
}

function sameLabels(a, b) {
  return a.length === b.length && a.every((label, i) => label === b[i]);
}

export class GraphStore {
  // onLayout() is called whenever positions move.
  constructor(onLayout) {
    this.nodes = new Map();  // id -> {id, type, labels, index, x, y, radius, links, freshUntil, ...}
    this.links = new Map();  // "source|target|type" -> {source, target, type, freshUntil} (nodes)
    this.byIndex = [];       // the layout's index -> node
    this.layoutRunning = false;
    this.worker = new Worker('/ui/graph-layout.js');
    this.worker.onmessage = ({ data }) => {
      const { positions } = data;
      for (let i = 0; 2 * i < positions.length; i++) {
        const node = this.byIndex[i];
        if (node.pinned) continue;
        node.x = positions[2 * i];
        node.y = positions[2 * i + 1];
      }
      this.layoutRunning = data.running;
      onLayout();
    };
  }

  // Adds what is new in `graph` ({nodes, links}) and updates the type and labels of known nodes.
  // Links are kept only between known nodes. With `fresh`, every node and link in `graph` is
  // highlighted until FRESH_MS after `now`: new ones and changed ones alike. Returns
  // {added, changed, links}: nodes added, known nodes whose type or labels changed, links added.
  merge(graph, fresh, now) {
    const freshUntil = fresh ? now + FRESH_MS : 0;
    const addedNodes = [];
    let changed = 0;
    for (const incoming of graph.nodes) {
      const known = this.nodes.get(incoming.id);
      if (known) {
        if (known.type !== incoming.type || !sameLabels(known.labels, incoming.labels)) changed += 1;
        known.type = incoming.type;
        known.labels = incoming.labels;
        known.radius = radiusOf(incoming.type);
        known.freshUntil = Math.max(known.freshUntil, freshUntil);
        continue;
      }
      const node = {
        id: incoming.id, type: incoming.type, labels: incoming.labels, index: this.byIndex.length,
        x: NaN, y: NaN, radius: radiusOf(incoming.type), links: [], freshUntil, pinned: false,
        // Where the view last drew it (graph-view.js): screen x, y and radius, and its id's width.
        sx: 0, sy: 0, sr: 0, labelWidth: 0,
      };
      this.nodes.set(node.id, node);
      this.byIndex.push(node);
      addedNodes.push(node);
    }
    const addedLinks = [];
    for (const incoming of graph.links) {
      const key = `${incoming.source}|${incoming.target}|${incoming.type}`;
      const source = this.nodes.get(incoming.source);
      const target = this.nodes.get(incoming.target);
      if (!source || !target) continue;
      const known = this.links.get(key);
      if (known) {
        known.freshUntil = Math.max(known.freshUntil, freshUntil);
        continue;
      }
      const link = { source, target, type: incoming.type, freshUntil };
      this.links.set(key, link);
      source.links.push(link);
      if (target !== source) target.links.push(link);
      addedLinks.push(link);
    }
    this.place(addedNodes);
    if (addedNodes.length > 0 || addedLinks.length > 0) {
      this.worker.postMessage({
        type: 'add',
        nodes: addedNodes.map(({ x, y, radius }) => ({ x, y, radius })),
        links: addedLinks.map((link) => ({ source: link.source.index, target: link.target.index })),
        // A few nodes joining a large graph move it little; a large delivery lays it out anew.
        heat: Math.min(1, Math.max(0.1, (3 * addedNodes.length) / this.nodes.size)),
      });
      this.layoutRunning = true;
    }
    return { added: addedNodes.length, changed, links: addedLinks.length };
  }

  // Starting positions: beside a placed neighbour when there is one, else anywhere within the
  // disc the graph already covers (its radius grows with the square root of the node count).
  place(newNodes) {
    const spread = 10 * Math.sqrt(this.nodes.size);
    const unplaced = new Set(newNodes);
    // A chain of new nodes is placed from its end that touches the drawing, one ring at a time.
    for (let progress = true; progress && unplaced.size > 0;) {
      progress = false;
      for (const node of unplaced) {
        const link = node.links.find((l) => !Number.isNaN((l.source === node ? l.target : l.source).x));
        if (!link) continue;
        const neighbour = link.source === node ? link.target : link.source;
        const angle = Math.random() * 2 * Math.PI;
        node.x = neighbour.x + 20 * Math.cos(angle);
        node.y = neighbour.y + 20 * Math.sin(angle);
        unplaced.delete(node);
        progress = true;
      }
    }
    for (const node of unplaced) {
      const angle = Math.random() * 2 * Math.PI;
      const distance = spread * Math.sqrt(Math.random());
      node.x = distance * Math.cos(angle);
      node.y = distance * Math.sin(angle);
    }
  }

  // Holds `node` at (x, y) while it is dragged; the rest of the layout follows.
  pin(node, x, y) {
    node.pinned = true;
    node.x = x;
    node.y = y;
    this.worker.postMessage({ type: 'pin', index: node.index, x, y });
  }

  unpin(node) {
    node.pinned = false;
    this.worker.postMessage({ type: 'unpin', index: node.index });
  }
}
