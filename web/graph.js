// The live network graph at /: draws networkGraph with a d3-force simulation in SVG, shows
// investmentData beside it, and merges every networkUpdated (graphql-ws, at /graphql) into the
// drawing, highlighting what is new. The element #graph carries data-node-count, data-link-count,
// data-last-updated and data-connection, the state tools and tests read.
import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation } from 'd3-force';
import { createClient } from 'graphql-ws';

// How many of the most recently changed nodes the page loads (networkGraph's limit).
const GRAPH_LIMIT = 500;
const FRESH_MS = 4000;  // how long new nodes and links stay highlighted
const SVG_NS = 'http://www.w3.org/2000/svg';

const httpUrl = new URL('/graphql', location.href).href;
const wsUrl = httpUrl.replace(/^http/, 'ws');

const container = document.getElementById('graph');
const svg = document.getElementById('drawing');
const tooltip = document.getElementById('tooltip');
const linkLayer = svg.appendChild(document.createElementNS(SVG_NS, 'g'));
const nodeLayer = svg.appendChild(document.createElementNS(SVG_NS, 'g'));

const nodes = new Map();  // id -> {id, type, labels, x, y, element}
const links = new Map();  // "source|target|type" -> {source, target, type, element}
let lastUpdated = null;

const palette = ['#3b7dd8', '#e0612f', '#2f9e6e', '#9b59b6', '#c9a227', '#d6457a', '#4aa3b5'];
// The service's types and the demo data's (docs/api.md) get distinct colours; others share the rest.
const knownTypes = ['Investor', 'Wallet', 'Round', 'Token', 'Treasury', 'Pool'];
const legend = new Map();
function colourOf(type) {
  let index = knownTypes.indexOf(type);
  if (index < 0) index = [...type].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  const colour = palette[index % palette.length];
  if (!legend.has(type)) {
    legend.set(type, colour);
    const item = document.createElement('li');
    item.textContent = type;
    item.style.setProperty('--colour', colour);
    document.getElementById('legend').append(item);
  }
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

const simulation = forceSimulation()
  .force('charge', forceManyBody().strength(-60))
  .force('link', forceLink().id((n) => n.id).distance(40))
  .force('collide', forceCollide(9))
  .on('tick', draw);

function size() {
  return { width: svg.clientWidth || 600, height: svg.clientHeight || 400 };
}

function resize() {
  const { width, height } = size();
  svg.setAttribute('viewBox', `${-width / 2} ${-height / 2} ${width} ${height}`);
  simulation.force('center', forceCenter(0, 0));
}

function radiusOf(node) {
  return node.type === 'Round' || node.type === 'Token' ? 9 : 6;
}

function draw() {
  for (const link of links.values()) {
    link.element.setAttribute('x1', link.source.x);
    link.element.setAttribute('y1', link.source.y);
    link.element.setAttribute('x2', link.target.x);
    link.element.setAttribute('y2', link.target.y);
  }
  for (const node of nodes.values()) {
    node.element.setAttribute('cx', node.x);
    node.element.setAttribute('cy', node.y);
  }
}

function highlight(element) {
  element.classList.add('fresh');
  setTimeout(() => element.classList.remove('fresh'), FRESH_MS);
}

function showTooltip(node, event) {
  const box = container.getBoundingClientRect();
  tooltip.textContent = `${node.type}: ${node.labels.length ? node.labels.join(', ') : node.id}`;
  tooltip.style.left = `${event.clientX - box.left + 12}px`;
  tooltip.style.top = `${event.clientY - box.top + 12}px`;
  tooltip.hidden = false;
}

// Dragging a node (mouse or touch) pins it to the pointer while the simulation re-arranges.
function makeDraggable(node) {
  const element = node.element;
  element.addEventListener('pointerdown', (event) => {
    element.setPointerCapture(event.pointerId);
    const matrix = svg.getScreenCTM().inverse();
    const move = (e) => {
      const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix);
      node.fx = point.x;
      node.fy = point.y;
      showTooltip(node, e);
      simulation.alphaTarget(0.3).restart();
    };
    const up = () => {
      node.fx = null;
      node.fy = null;
      simulation.alphaTarget(0);
      element.removeEventListener('pointermove', move);
      tooltip.hidden = true;
    };
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up, { once: true });
    element.addEventListener('pointercancel', up, { once: true });
    showTooltip(node, event);
  });
  element.addEventListener('pointerenter', (event) => showTooltip(node, event));
  element.addEventListener('pointerleave', () => { tooltip.hidden = true; });
}

// Adds the nodes and links not drawn yet (links only between drawn nodes); returns how many nodes
// were new. `fresh` highlights what was added.
function merge(graph, fresh) {
  let added = 0;
  for (const incoming of graph.nodes) {
    const known = nodes.get(incoming.id);
    if (known) {
      known.type = incoming.type;
      known.labels = incoming.labels;
      continue;
    }
    const element = document.createElementNS(SVG_NS, 'circle');
    const node = { ...incoming, element, x: (Math.random() - 0.5) * 40, y: (Math.random() - 0.5) * 40 };
    element.setAttribute('class', 'node');
    element.setAttribute('r', radiusOf(node));
    element.setAttribute('fill', colourOf(node.type));
    element.dataset.id = node.id;
    element.dataset.type = node.type;
    nodeLayer.append(element);
    makeDraggable(node);
    nodes.set(node.id, node);
    if (fresh) highlight(element);
    added += 1;
  }
  for (const incoming of graph.links) {
    const key = `${incoming.source}|${incoming.target}|${incoming.type}`;
    if (links.has(key) || !nodes.has(incoming.source) || !nodes.has(incoming.target)) continue;
    const element = document.createElementNS(SVG_NS, 'line');
    element.setAttribute('class', 'link');
    element.dataset.type = incoming.type;
    linkLayer.append(element);
    links.set(key, { source: incoming.source, target: incoming.target, type: incoming.type, element });
    if (fresh) highlight(element);
  }
  if (graph.metadata?.lastUpdated) lastUpdated = graph.metadata.lastUpdated;
  simulation.nodes([...nodes.values()]);
  simulation.force('link').links([...links.values()]);
  simulation.alpha(added > 0 ? 0.5 : 0.1).restart();
  publishState();
  return added;
}

function publishState() {
  container.dataset.nodeCount = String(nodes.size);
  container.dataset.linkCount = String(links.size);
  container.dataset.lastUpdated = lastUpdated ?? '';
  document.getElementById('node-count').textContent = nodes.size;
  document.getElementById('link-count').textContent = links.size;
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

resize();
window.addEventListener('resize', resize);
loadGraph()
  .catch((error) => console.warn('networkGraph:', error.message))
  .finally(subscribe);
loadInvestment();
