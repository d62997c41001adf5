// The live network graph at /: draws networkGraph on a canvas (graph-view.js), laid out by d3-force
// in a worker (graph-layout.js), shows investmentData beside it, and merges every networkUpdated
// (graphql-ws, at /graphql) into the drawing, highlighting the nodes and links each update
// touches. The view fits the graph to the window until the user zooms or pans (graph-input.js);
// a node's details show on hover, tap or search (graph-details.js).
//
// For tools and tests: the element #graph carries data-node-count, data-link-count,
// data-last-updated, data-connection, data-layout (running, settled), data-fit (auto, manual),
// data-zoom and data-selected; window.netgraphGraph reads what is drawn (see the end of this file).
import { createClient } from 'graphql-ws';
import { NodeDetails } from './graph-details.js';
import { attachInput } from './graph-input.js';
import { GraphStore } from './graph-store.js';
import { GraphView } from './graph-view.js';

// How many of the most recently changed nodes the page loads: networkGraph's largest limit. More
// arrive through networkUpdated.
const GRAPH_LIMIT = 1000;

const httpUrl = new URL('/graphql', location.href).href;
const wsUrl = httpUrl.replace(/^http/, 'ws');

const container = document.getElementById('graph');
const canvas = document.getElementById('drawing');
let lastUpdated = null;

const palette = ['#3b7dd8', '#e0612f', '#2f9e6e', '#9b59b6', '#c9a227', '#d6457a', '#4aa3b5'];
// The service's types and the demo data's (docs/api.md) get distinct colours; others share the rest.
const knownTypes = ['Investor', 'Wallet', 'Round', 'Token', 'Treasury', 'Pool'];
const legend = new Map();
function colourOf(type) {
  const known = legend.get(type);
  if (known) return known;
  let index = knownTypes.indexOf(type);
  if (index < 0) index = [...type].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  const colour = palette[index % palette.length];
  legend.set(type, colour);
  const item = document.createElement('li');
  item.textContent = type;
  item.style.setProperty('--colour', colour);
  document.getElementById('legend').append(item);
  return colour;
}

async function graphql(query, variables) {
  const response = await fetch(httpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data;
}

const store = new GraphStore(() => {
  container.dataset.layout = store.layoutRunning ? 'running' : 'settled';
  view.request();
});
const view = new GraphView(canvas, store, colourOf, () => {
  container.dataset.fit = view.fitting ? 'auto' : 'manual';
  container.dataset.zoom = view.k.toFixed(3);
  container.dataset.selected = view.selected?.id ?? '';
  document.getElementById('fit').setAttribute('aria-pressed', String(view.fitting));
});

// Selects `node` (null: none), shows its details and, unless told otherwise, centres it.
function select(node, { centre = true } = {}) {
  view.select(node);
  details.show(node);
  if (node && centre) {
    view.centreOn(node);
    details.showTooltip(null);
  }
}
const details = new NodeDetails(store, container, select);
attachInput({ canvas, view, store, details, select });

const changes = document.getElementById('changes');
function merge(graph, fresh) {
  const { added, changed, links } = store.merge(graph, fresh, Date.now());
  if (graph.metadata?.lastUpdated) lastUpdated = graph.metadata.lastUpdated;
  const shown = details.shown?.id;
  if (graph.nodes.some((n) => n.id === shown) || graph.links.some((l) => l.source === shown || l.target === shown)) {
    details.refresh();
  }
  publishState();
  if (fresh) {
    changes.textContent = `Last update: ${added} new nodes, ${changed} changed, ${links} new links.`;
  }
  view.request();
}

function publishState() {
  container.dataset.nodeCount = String(store.nodes.size);
  container.dataset.linkCount = String(store.links.size);
  container.dataset.lastUpdated = lastUpdated ?? '';
  container.dataset.layout = store.layoutRunning ? 'running' : 'settled';
  document.getElementById('node-count').textContent = store.nodes.size;
  document.getElementById('link-count').textContent = store.links.size;
  document.getElementById('last-updated').textContent =
    lastUpdated ? new Date(lastUpdated).toLocaleString() : '–';
}

function setConnection(state) {
  container.dataset.connection = state;
  const status = document.getElementById('status');
  status.dataset.state = state;
  status.textContent = { live: 'live', connecting: 'connecting…', offline: 'reconnecting…' }[state];
}

const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
function showInvestment(data) {
  document.getElementById('token').textContent = `${data.tokenName} (${data.tokenSymbol})`;
  const rows = [
    ['Round', data.currentRound ?? 'none open'],
    ['Raised', `${numbers.format(data.roundRaised)} / ${numbers.format(data.roundTarget)}`],
    ['Investors', numbers.format(data.investorCount)],
    ['Price', numbers.format(data.currentPrice)],
    ['Market cap', numbers.format(data.marketCap)],
  ];
  const list = document.getElementById('investment');
  list.replaceChildren(...rows.flatMap(([term, value]) => {
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = term;
    dd.textContent = value;
    return [dt, dd];
  }));
  if (data.roundTarget > 0) {
    const bar = document.createElement('progress');
    bar.max = data.roundTarget;
    bar.value = Math.min(data.roundRaised, data.roundTarget);
    list.append(bar);
  }
}

const GRAPH_QUERY = `query Graph($limit: Int) {
  networkGraph(limit: $limit) {
    nodes { id type labels } links { source target type } metadata { lastUpdated }
  }
}`;
const INVESTMENT_QUERY = `{ investmentData { tokenName tokenSymbol currentRound roundRaised roundTarget
  investorCount currentPrice marketCap } }`;

async function loadGraph() {
  merge((await graphql(GRAPH_QUERY, { limit: GRAPH_LIMIT })).networkGraph, false);
}

let investmentTimer = null;
async function loadInvestment() {
  clearTimeout(investmentTimer);
  investmentTimer = null;
  try {
    showInvestment((await graphql(INVESTMENT_QUERY)).investmentData);
  } catch (error) {
    console.warn('investmentData:', error.message);
  }
}

// graphql-ws retries for ever (the page is meant to stay open), waiting at most 5 s between tries,
// and subscribes again after each reconnection; the graph is then reloaded, for the changes made
// while the socket was down.
let connections = 0;
const client = createClient({
  url: wsUrl,
  retryAttempts: Infinity,
  shouldRetry: () => true,
  retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** retries, 5000))),
  on: {
    connected: () => {
      connections += 1;
      setConnection('live');
      if (connections > 1) loadGraph().catch((error) => console.warn('networkGraph:', error.message));
    },
    closed: () => setConnection('offline'),
  },
});

function subscribe() {
  client.subscribe({
    query: 'subscription { networkUpdated { nodes { id type labels } links { source target type } metadata { lastUpdated } } }',
  }, {
    next: (result) => {
      if (!result.data) return;
      merge(result.data.networkUpdated, true);
      if (investmentTimer === null) investmentTimer = setTimeout(loadInvestment, 500);
    },
    error: (error) => {
      console.warn('networkUpdated:', error);
      setTimeout(subscribe, 1000);
    },
    complete: () => {},
  });
}

// What the page has drawn, read-only, for tools and tests (page.evaluate in
// tests/browser/graph-page.test.mjs). Screen positions are CSS px from the canvas's top left
// corner, as of the last drawing.
window.netgraphGraph = Object.freeze({
  // One node: {id, type, labels, links: [{source, target, type}], x, y, radius, fresh, selected},
  // or null.
  node(id) {
    const node = store.nodes.get(id);
    const frame = view.frame;
    if (!node || !frame) return null;
    return {
      id: node.id, type: node.type, labels: [...node.labels],
      links: node.links.map((link) => ({ source: link.source.id, target: link.target.id, type: link.type })),
      x: node.x * frame.k + frame.tx, y: node.y * frame.k + frame.ty, radius: view.radiusOnScreen(node),
      fresh: node.freshUntil > Date.now(), selected: view.selected === node,
    };
  },
  // The ids of the nodes (of `type`, when given), oldest first.
  ids(type) {
    return [...store.nodes.values()].filter((node) => !type || node.type === type).map((node) => node.id);
  },
  // The last drawing: {width, height, k, tx, ty, fitting, nodes, inView, labels, drawMs, bounds:
  // {left, top, right, bottom} of all nodes on screen}, or null before the first.
  frame() {
    return view.frame && structuredClone(view.frame);
  },
  // How long the recent drawings took, in ms (up to 240, oldest first).
  drawTimes() {
    return [...view.drawTimes];
  },
});

loadGraph()
  .catch((error) => console.warn('networkGraph:', error.message))
  .finally(subscribe);
loadInvestment();
