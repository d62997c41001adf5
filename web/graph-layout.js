// The graph page's layout, in a Web Worker (/ui/graph-layout.js) so that the force simulation
// never holds up drawing, zooming or panning: with 10,000 nodes one tick of d3-force takes tens
// of milliseconds, more than a frame. The page (graph-store.js) sends what to lay out; the worker
// answers with every node's position while the simulation runs, and stops once it has cooled.
//
// Messages in:  {type: 'add', nodes: [{x, y, radius}], links: [{source, target}], heat}
//                 nodes continue the indices already sent; links name nodes by index; heat (0-1)
//                 is how much the layout may move again (the simulation's alpha)
//               {type: 'pin', index, x, y}   holds a node where the pointer drags it
//               {type: 'unpin', index}
// Messages out: {positions: Float32Array [x0, y0, x1, y1, ...], running: boolean}
import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY } from 'd3-force';

// Above this many nodes the layout gets cheaper: no collision force and a faster cool-down, so a
// 10,000-node graph settles in about 100 ticks instead of 300.
const LARGE_GRAPH = 2000;
// How long the worker ticks before it reports positions: about one frame.
const REPORT_MS = 16;

const nodes = [];
const links = [];
const linkForce = forceLink().distance(30).strength(0.5);
const simulation = forceSimulation()
  .stop()
  .force('charge', forceManyBody().strength(-40))
  .force('link', linkForce)
  // A weak pull to the middle instead of a centring force: parts not linked to the rest stay near
  // it, so fitting the view to all nodes does not shrink the main part to a dot.
  .force('x', forceX(0).strength(0.05))
  .force('y', forceY(0).strength(0.05));

let timer = null;

function configure() {
  const large = nodes.length > LARGE_GRAPH;
  simulation.force('collide', large ? null : forceCollide((node) => node.radius + 2));
  simulation.alphaDecay(large ? 0.06 : 0.0228);
  simulation.nodes(nodes);
  linkForce.links(links);
}

function report() {
  const positions = new Float32Array(nodes.length * 2);
  nodes.forEach((node, i) => {
    positions[2 * i] = node.x;
    positions[2 * i + 1] = node.y;
  });
  const running = simulation.alpha() >= simulation.alphaMin() || simulation.alphaTarget() > 0;
  postMessage({ positions, running }, [positions.buffer]);
  return running;
}

function step() {
  timer = null;
  const start = performance.now();
  do simulation.tick();
  while (performance.now() - start < REPORT_MS && simulation.alpha() >= simulation.alphaMin());
  if (report()) run();
}

function run() {
  timer ??= setTimeout(step, 0);
}

onmessage = ({ data }) => {
  if (data.type === 'add') {
    for (const node of data.nodes) nodes.push({ x: node.x, y: node.y, radius: node.radius });
    for (const link of data.links) links.push({ source: link.source, target: link.target });
    configure();
    simulation.alpha(Math.max(simulation.alpha(), data.heat));
  } else if (data.type === 'pin') {
    nodes[data.index].fx = data.x;
    nodes[data.index].fy = data.y;
    simulation.alphaTarget(0.3);
  } else if (data.type === 'unpin') {
    nodes[data.index].fx = null;
    nodes[data.index].fy = null;
    simulation.alphaTarget(0);
  }
  run();
};
