// The live network graph at /: it draws what networkGraph returns, a claim made over HTTP adds the
// new wallet node within a second without a reload (highlighting it and the round it joined), and
// after netgraph-ws restarts the page reconnects by itself and shows the next update. The view
// fits the graph to the window and keeps fitting as nodes arrive; zoom and pan by wheel, drag,
// keyboard and buttons; a node's details on hover, click and search by id; a node's change
// highlighted as it arrives; a phone-sized viewport; and 10,000 nodes, fed through the page's own
// update path, drawn within the window at measured frame times.
//
// What the canvas shows is read through window.netgraphGraph (web/graph.js) and, for colours, from
// the canvas's pixels.
import { after, before, test } from 'node:test';
import { performance } from 'node:perf_hooks';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { baseUrl, graphql, stackStart, stopStackWs, waitFor } from '../support/stack.mjs';
import { networkUpdate, publish, uniqueMarker } from '../support/websocket.mjs';
import { launchBrowser, openPage, screenshot } from './browser.mjs';

const GRAPH_LIMIT = 1000;   // the page's networkGraph limit (web/graph.js)
const MAX_FIT_ZOOM = 2;     // the largest zoom fitting uses (web/graph-view.js)
const KEY_PAN = 60;         // CSS px an arrow key pans (web/graph-input.js)
const KEY_ZOOM = 1.25;      // the zoom step of + and - (web/graph-input.js)

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

function state(page) {
  return page.$eval('#graph', (element) => ({ ...element.dataset }));
}

const nodeOf = (page, id) => page.evaluate((nodeId) => window.netgraphGraph.node(nodeId), id);
const idsOf = (page, type) => page.evaluate((nodeType) => window.netgraphGraph.ids(nodeType), type);
const frameOf = (page) => page.evaluate(() => window.netgraphGraph.frame());

// The colour the canvas shows at (x, y) CSS px, as #rrggbb.
function pixelAt(page, x, y) {
  return page.evaluate(([px, py]) => {
    const canvas = document.getElementById('drawing');
    const ratio = canvas.width / canvas.clientWidth;
    const [r, g, b] = canvas.getContext('2d').getImageData(Math.round(px * ratio), Math.round(py * ratio), 1, 1).data;
    return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  }, [x, y]);
}

// The colour the legend gives a node type.
function legendColour(page, type) {
  return page.evaluate((nodeType) => [...document.querySelectorAll('#legend li')]
    .find((item) => item.textContent === nodeType)?.style.getPropertyValue('--colour'), type);
}

// Whether every node of the last drawing is within the canvas.
function inside(frame) {
  const { bounds, width, height } = frame;
  return bounds.left >= 0 && bounds.top >= 0 && bounds.right <= width && bounds.bottom <= height;
}

// Records, at every animation frame from now until stopRecording, the interval since the previous
// frame and the page's last drawing (netgraphGraph.frame()).
function startRecording(page) {
  return page.evaluate(() => {
    const recording = { frames: [], stop: false };
    window.netgraphTestRecording = recording;
    let last = performance.now();
    const step = (time) => {
      recording.frames.push({ interval: time - last, frame: window.netgraphGraph.frame() });
      last = time;
      if (!recording.stop) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}

function stopRecording(page) {
  return page.evaluate(() => {
    window.netgraphTestRecording.stop = true;
    return window.netgraphTestRecording.frames.slice(1);
  });
}

// Until two animation frames have passed: a drawing asked for before has been made.
function nextFrame(page) {
  return page.evaluate(() => new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(resolve));
  }));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// Frame times of a recording: the intervals between animation frames and how long the page's
// drawings took (each counted once), in ms, rounded to 0.1.
function frameTimes(frames) {
  const intervals = frames.map((f) => f.interval);
  const drawings = [...new Map(frames.map(({ frame }) => [frame.sequence, frame])).values()];
  const draws = drawings.map((frame) => frame.drawMs);
  const slowest = drawings.reduce((a, b) => (b.drawMs > a.drawMs ? b : a));
  const round = (value) => Math.round(value * 10) / 10;
  return {
    frames: intervals.length, intervalMedian: round(percentile(intervals, 50)),
    interval95: round(percentile(intervals, 95)), intervalMax: round(Math.max(...intervals)),
    drawings: draws.length, drawMedian: round(percentile(draws, 50)), draw95: round(percentile(draws, 95)),
    slowest: { ms: round(slowest.drawMs), nodes: slowest.nodes, inView: slowest.inView, dense: slowest.dense },
  };
}

async function openGraph({ viewport } = {}) {
  const page = await openPage(browser, viewport ? { viewport } : undefined);
  await page.goto(`${baseUrl}/`);
  await waitFor(async () => (await state(page)).connection === 'live',
    { timeoutMs: 30000, what: 'the page to connect' });
  await waitFor(async () => Number((await state(page)).nodeCount) > 0,
    { timeoutMs: 30000, what: 'the page to draw nodes' });
  return page;
}

// Until the layout has stopped moving: positions on the screen are then where clicks land.
function settled(page, timeoutMs = 60000) {
  return waitFor(async () => (await state(page)).layout === 'settled',
    { timeoutMs, intervalMs: 100, what: 'the layout to settle' });
}

// Publishes `update` through Redis, signed as the outbox relay signs it, and waits until the page
// has the node `id`.
async function deliver(page, update, id) {
  await publish(update);
  await page.waitForFunction((nodeId) => window.netgraphGraph.node(nodeId) !== null, id,
    { polling: 100, timeout: 30000 });
}

// Publishes marker updates through Redis until the page draws one: from then on, the page's
// subscription is in place and sees every update.
async function warmUp(page) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const marker = uniqueMarker('browser');
    try { await publish(networkUpdate(marker)); } catch { /* Redis busy: try again */ }
    for (let i = 0; i < 10; i++) {
      if (await nodeOf(page, marker)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (Date.now() > deadline) throw new Error('no published update reached the page');
  }
}

// A point of the canvas at least `clearance` CSS px from every node, nearest the middle.
function emptyPoint(page, clearance = 30) {
  return page.evaluate((gap) => {
    const graph = window.netgraphGraph;
    const { width, height } = graph.frame();
    const nodes = graph.ids().map((id) => graph.node(id));
    let best = null;
    for (let x = gap; x < width - gap; x += 10) {
      for (let y = gap; y < height - gap; y += 10) {
        if (nodes.some((n) => Math.hypot(n.x - x, n.y - y) < gap + n.radius)) continue;
        const distance = Math.hypot(x - width / 2, y - height / 2);
        if (!best || distance < best.distance) best = { x, y, distance };
      }
    }
    return best;
  }, clearance);
}

// Where the canvas is on the page, to turn its CSS px into mouse coordinates.
const canvasBox = (page) => page.$eval('#drawing', (canvas) => canvas.getBoundingClientRect().toJSON());

// Claims a fresh voucher and waits for the page to draw a Wallet node it did not draw before;
// returns the node's id and the time from the claim's response to the drawing.
async function claimAndWatch(page) {
  const known = await idsOf(page, 'Wallet');
  const [code] = issueVouchers(5);
  const result = await claim(newUser('browser').token, code, randomWallet());
  const answered = performance.now();
  assert.equal(result.success, true, JSON.stringify(result));
  const handle = await page.waitForFunction((before) =>
    window.netgraphGraph.ids('Wallet').find((id) => !before.includes(id)), known, { polling: 'raf', timeout: 30000 });
  const elapsed = performance.now() - answered;
  const id = await handle.jsonValue();
  const wallet = await nodeOf(page, id);
  assert.equal(wallet.fresh, true, 'a new node is highlighted');
  // The round the wallet joined was drawn already: the update touched it, so it is highlighted too.
  const joined = wallet.links.find((link) => link.source === id && link.type === 'INVESTED_IN');
  assert.ok(joined, JSON.stringify(wallet));
  assert.equal((await nodeOf(page, joined.target)).fresh, true, `the round ${joined.target} is highlighted`);
  // It is the claim's wallet: the newest Wallet node the API reports.
  const { body } = await graphql('{ networkGraph(limit: 5) { nodes { id type } } }');
  const newest = body.data.networkGraph.nodes.find((n) => n.type === 'Wallet');
  assert.equal(id, newest.id);
  return { id, elapsed };
}

test('the graph page draws networkGraph, adds a claimed wallet within 1 s and survives a netgraph-ws restart', { timeout: 240000 }, async (t) => {
  const { body } = await graphql(`{ networkGraph(limit: ${GRAPH_LIMIT}) { nodes { id } links { source } metadata { lastUpdated } } }`);
  const expected = body.data.networkGraph;
  assert.ok(expected.nodes.length > 0, 'the demo data has nodes');

  const page = await openGraph();
  await waitFor(async () => Number((await state(page)).nodeCount) === expected.nodes.length,
    { timeoutMs: 30000, what: `the page to draw ${expected.nodes.length} nodes` });
  const loaded = await state(page);
  assert.equal(Number(loaded.nodeCount), expected.nodes.length);
  assert.equal(Number(loaded.linkCount), expected.links.length);
  assert.equal(loaded.lastUpdated, expected.metadata.lastUpdated);
  assert.deepEqual(new Set(await idsOf(page)), new Set(expected.nodes.map((n) => n.id)));
  // investmentData beside the drawing.
  await page.waitForSelector('#investment dd');
  const { body: investment } = await graphql('{ investmentData { tokenName tokenSymbol } }');
  const { tokenName, tokenSymbol } = investment.data.investmentData;
  assert.equal(await page.textContent('#token'), `${tokenName} (${tokenSymbol})`);
  await settled(page);
  assert.equal((await frameOf(page)).nodes, expected.nodes.length);
  await screenshot(page, 'graph-page');

  await warmUp(page);
  const first = await claimAndWatch(page);
  t.diagnostic(`claim response to node drawn: ${first.elapsed.toFixed(0)} ms`);
  assert.ok(first.elapsed < 1000, `the new wallet appeared ${first.elapsed.toFixed(0)} ms after the claim's response`);
  assert.notEqual((await state(page)).lastUpdated, loaded.lastUpdated);
  await screenshot(page, 'graph-page-after-claim');

  assert.deepEqual(page.problems, []);

  // netgraph-ws goes away: the page notices, and reconnects once it is back.
  assert.ok(await stopStackWs(), 'the stack runs netgraph-ws');
  await waitFor(async () => (await state(page)).connection !== 'live',
    { timeoutMs: 20000, what: 'the page to see the socket drop' });
  stackStart('ws');  // starts netgraph-ws again
  await waitFor(async () => (await state(page)).connection === 'live',
    { timeoutMs: 60000, intervalMs: 200, what: 'the page to reconnect' });
  await warmUp(page);
  const second = await claimAndWatch(page);
  t.diagnostic(`after the restart, claim response to node drawn: ${second.elapsed.toFixed(0)} ms`);
  assert.notEqual(second.id, first.id);
  await screenshot(page, 'graph-page-after-reconnect');
  // While netgraph-ws was down Chromium itself logs each failed reconnection attempt (nginx: 502);
  // nothing else may have gone wrong.
  assert.deepEqual(page.problems.filter((problem) =>
    !/WebSocket connection to '.*' failed: .*Unexpected response code: 502/.test(problem)), []);
  await page.context().close();
});

test('the graph page fits the graph to the window and keeps fitting it as nodes arrive', { timeout: 180000 }, async () => {
  const page = await openGraph();
  await settled(page);
  const fitted = await frameOf(page);
  assert.equal((await state(page)).fit, 'auto');
  assert.equal(fitted.fitting, true);
  assert.ok(inside(fitted), `every node is in the window: ${JSON.stringify(fitted)}`);
  // Fitted, not merely inside: the graph spans the window along one side (less padding), unless
  // it is so small that fitting stops at the largest zoom.
  const span = Math.max((fitted.bounds.right - fitted.bounds.left) / fitted.width,
    (fitted.bounds.bottom - fitted.bounds.top) / fitted.height);
  assert.ok(fitted.k === MAX_FIT_ZOOM || span > 0.85, `the graph spans ${span.toFixed(2)} of the window at zoom ${fitted.k}`);

  // Three deliveries of 150 nodes, each a chain hanging off the token: the graph grows well past
  // the window it had, and at every frame meanwhile it is all in view.
  await warmUp(page);
  await startRecording(page);
  for (let batch = 0; batch < 3; batch++) {
    const prefix = uniqueMarker('chain');
    const ids = Array.from({ length: 150 }, (_, i) => `${prefix}-${i}`);
    await deliver(page, {
      nodes: ids.map((id) => ({ id, type: 'Wallet', labels: ['Wallet', 'chain'] })),
      links: ids.map((id, i) => ({ source: id, target: i === 0 ? 'token' : ids[i - 1], type: 'NEXT' })),
      metadata: { nodeCount: ids.length, linkCount: ids.length, lastUpdated: new Date().toISOString() },
    }, ids.at(-1));
  }
  await nextFrame(page);
  const frames = await stopRecording(page);
  const grown = frames.filter(({ frame }) => frame.nodes >= fitted.nodes + 450);
  assert.ok(grown.length > 0, 'the recording saw all the new nodes drawn');
  const outside = frames.filter(({ frame }) => !inside(frame));
  assert.deepEqual(outside.map(({ frame }) => frame), [], 'no frame drew a node outside the window');
  await settled(page, 120000);
  const after = await frameOf(page);
  assert.ok(inside(after), JSON.stringify(after));
  assert.ok(after.k < fitted.k, `the view zoomed out for the larger graph (${fitted.k} -> ${after.k})`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the graph page zooms and pans by wheel, drag, keyboard and buttons, and then stays put', { timeout: 120000 }, async () => {
  const page = await openGraph();
  await settled(page);
  const box = await canvasBox(page);
  const anchor = (await idsOf(page, 'Token'))[0] ?? (await idsOf(page))[0];

  // The wheel zooms in about the pointer: the node under it stays under it; fitting ends.
  const before = await nodeOf(page, anchor);
  const zoomBefore = (await frameOf(page)).k;
  await page.mouse.move(box.x + before.x, box.y + before.y);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((k) => window.netgraphGraph.frame().k > k * 1.5, zoomBefore, { polling: 'raf' });
  const zoomed = await nodeOf(page, anchor);
  assert.ok(Math.hypot(zoomed.x - before.x, zoomed.y - before.y) < 1.5, `${JSON.stringify(before)} -> ${JSON.stringify(zoomed)}`);
  assert.equal((await state(page)).fit, 'manual');
  assert.equal(await page.getAttribute('#fit', 'aria-pressed'), 'false');

  // Dragging on empty canvas pans by as much.
  const empty = await emptyPoint(page);
  assert.ok(empty, 'somewhere on the canvas is free of nodes');
  await page.mouse.move(box.x + empty.x, box.y + empty.y);
  await page.mouse.down();
  await page.mouse.move(box.x + empty.x + 60, box.y + empty.y + 40, { steps: 6 });
  await page.mouse.up();
  await nextFrame(page);
  const panned = await nodeOf(page, anchor);
  assert.ok(Math.abs(panned.x - zoomed.x - 60) < 1 && Math.abs(panned.y - zoomed.y - 40) < 1,
    `${JSON.stringify(zoomed)} -> ${JSON.stringify(panned)}`);

  // The keyboard, on the focused drawing (it is in the tab order).
  assert.equal(await page.$eval('#drawing', (canvas) => canvas.tabIndex), 0);
  await page.focus('#drawing');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await nextFrame(page);
  const keyed = await nodeOf(page, anchor);
  assert.ok(Math.abs(keyed.x - panned.x - KEY_PAN) < 1 && Math.abs(keyed.y - panned.y - KEY_PAN) < 1,
    `${JSON.stringify(panned)} -> ${JSON.stringify(keyed)}`);
  const zoomOf = async () => { await nextFrame(page); return (await frameOf(page)).k; };
  const k = await zoomOf();
  await page.keyboard.press('+');
  assert.ok(Math.abs((await zoomOf()) / k - KEY_ZOOM) < 1e-9);
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  assert.ok(Math.abs(((await zoomOf()) * KEY_ZOOM) / k - 1) < 1e-9);
  await page.keyboard.press('0');
  assert.equal((await state(page)).fit, 'auto');
  await page.waitForFunction(() => window.netgraphGraph.frame().fitting, null, { polling: 'raf' });
  assert.ok(inside(await frameOf(page)));

  // The buttons.
  const fittedZoom = await zoomOf();
  await page.click('#zoom-in');
  assert.ok(Math.abs((await zoomOf()) / fittedZoom - KEY_ZOOM) < 1e-9);
  assert.equal(await page.getAttribute('#fit', 'aria-pressed'), 'false');
  await page.click('#zoom-out');
  await page.click('#zoom-out');
  assert.ok((await zoomOf()) < fittedZoom);

  // Zoomed by hand, the view stays put when nodes arrive.
  await warmUp(page);
  await nextFrame(page);
  const held = await frameOf(page);
  const marker = uniqueMarker('held');
  await deliver(page, networkUpdate(marker, { links: [{ source: marker, target: anchor, type: 'HOLDS' }] }), marker);
  await nextFrame(page);
  const still = await frameOf(page);
  assert.deepEqual([still.k, still.tx, still.ty], [held.k, held.tx, held.ty]);
  // Fit resumes fitting.
  await page.click('#fit');
  assert.equal(await page.getAttribute('#fit', 'aria-pressed'), 'true');
  await settled(page);
  await nextFrame(page);
  assert.ok(inside(await frameOf(page)));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the graph page shows a node\'s details on hover, click and search, and highlights its change', { timeout: 120000 }, async () => {
  const page = await openGraph();
  await settled(page);
  const box = await canvasBox(page);
  const { body } = await graphql(`{ networkGraph(limit: ${GRAPH_LIMIT}) { nodes { id type labels } links { source target type } } }`);
  const drawn = new Set(await idsOf(page));
  const id = 'token';
  const apiNode = body.data.networkGraph.nodes.find((n) => n.id === id);
  assert.ok(apiNode, 'the demo data has the token node');
  const apiLinks = body.data.networkGraph.links.filter((l) => (l.source === id || l.target === id) &&
    drawn.has(l.source) && drawn.has(l.target));

  // Hover: the tooltip names the node.
  const token = await nodeOf(page, id);
  await page.mouse.move(box.x + token.x, box.y + token.y);
  await page.waitForSelector('#tooltip:not([hidden])');
  const tip = await page.textContent('#tooltip');
  assert.ok(tip.includes(id) && tip.includes(apiNode.type) && tip.includes(apiNode.labels[0]), tip);
  await page.mouse.move(box.x + 1, box.y + 1);

  // Click: the panel shows its id, type, labels and links.
  await page.mouse.click(box.x + token.x, box.y + token.y);
  await page.waitForSelector('#details:not([hidden])');
  assert.equal((await state(page)).selected, id);
  assert.equal(await page.textContent('#details-id'), id);
  assert.equal(await page.textContent('#details-type'), apiNode.type);
  assert.equal(await page.textContent('#details-labels'), apiNode.labels.join(', '));
  assert.equal(await page.textContent('#details-links-title'), `Links (${apiLinks.length})`);
  const listed = await page.$$eval('#details-links button', (buttons) => buttons.map((b) => b.dataset.id));
  assert.deepEqual(new Set(listed), new Set(apiLinks.map((l) => (l.source === id ? l.target : l.source))));
  assert.ok(listed.length > 0, 'the token has links');

  // A link's button, from the keyboard, selects the node at its other end and centres it.
  await page.focus('#details-links button');
  await page.keyboard.press('Enter');
  assert.equal((await state(page)).selected, listed[0]);
  assert.equal(await page.textContent('#details-id'), listed[0]);

  // Search by id: the node is selected and put in the middle, drawn in its type's colour.
  await page.fill('#search-id', 'treasury');
  await page.press('#search-id', 'Enter');
  assert.equal((await state(page)).selected, 'treasury');
  assert.equal(await page.textContent('#details-type'), 'Treasury');
  await nextFrame(page);
  const treasury = await nodeOf(page, 'treasury');
  const frame = await frameOf(page);
  assert.ok(Math.abs(treasury.x - frame.width / 2) < 1 && Math.abs(treasury.y - frame.height / 2) < 1, JSON.stringify(treasury));
  assert.equal(await pixelAt(page, treasury.x, treasury.y), await legendColour(page, 'Treasury'));
  // A part of an id that only one node has finds it too; one that none has says so.
  await page.fill('#search-id', 'liquidity-po');
  await page.press('#search-id', 'Enter');
  assert.equal((await state(page)).selected, 'liquidity-pool');
  await page.fill('#search-id', 'no-such-node');
  await page.press('#search-id', 'Enter');
  assert.match(await page.textContent('#search-status'), /No node “no-such-node”/);
  assert.equal((await state(page)).selected, 'liquidity-pool');

  // A node's change is highlighted as it arrives, and the open details follow it.
  await warmUp(page);
  const marker = uniqueMarker('changed');
  await deliver(page, networkUpdate(marker), marker);
  await page.fill('#search-id', marker);
  await page.press('#search-id', 'Enter');
  assert.equal(await page.textContent('#details-labels'), 'e2e');
  await page.waitForFunction((nodeId) => !window.netgraphGraph.node(nodeId).fresh, marker, { polling: 200, timeout: 20000 });
  await publish(networkUpdate(marker, { nodes: [{ id: marker, type: 'Wallet', labels: ['e2e', 'Confidential'] }] }));
  await page.waitForFunction((nodeId) => window.netgraphGraph.node(nodeId).fresh, marker, { polling: 'raf', timeout: 30000 });
  assert.deepEqual((await nodeOf(page, marker)).labels, ['e2e', 'Confidential']);
  assert.equal(await page.textContent('#details-labels'), 'e2e, Confidential');
  assert.match(await page.textContent('#changes'), /0 new nodes, 1 changed/);
  await screenshot(page, 'graph-page-details');

  // Escape clears the selection.
  await page.focus('#drawing');
  await page.keyboard.press('Escape');
  assert.equal((await state(page)).selected, '');
  assert.equal(await page.isHidden('#details'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the graph page is usable on a phone-sized viewport', { timeout: 120000 }, async () => {
  const page = await openGraph({ viewport: { width: 390, height: 844 } });
  await page.waitForSelector('#investment dd');
  // Nothing is wider than the screen, and the drawing and the figures are both on it, stacked.
  const layout = await page.evaluate(() => {
    const box = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
    return {
      scrollWidth: document.documentElement.scrollWidth, graph: box('#graph'), panel: box('.panel'),
      tools: box('.tools'),
    };
  });
  assert.ok(layout.scrollWidth <= 390, `the page is ${layout.scrollWidth} px wide`);
  assert.ok(layout.graph.width >= 380 && layout.graph.height >= 300, JSON.stringify(layout.graph));
  assert.ok(layout.panel.top >= layout.graph.bottom - 1, 'the figures come below the drawing');
  assert.ok(layout.tools.right <= 390 && layout.tools.top >= layout.graph.top, JSON.stringify(layout.tools));
  await settled(page);
  assert.ok(inside(await frameOf(page)), 'the graph fits the narrow window');
  // A tap on a node shows its tooltip and selects it.
  const box = await canvasBox(page);
  const id = (await idsOf(page, 'Round'))[0] ?? (await idsOf(page))[0];
  const node = await nodeOf(page, id);
  await page.mouse.click(box.x + node.x, box.y + node.y);
  assert.equal(await page.isVisible('#tooltip'), true);
  assert.ok((await page.textContent('#tooltip')).includes(id));
  assert.equal((await state(page)).selected, id);
  await screenshot(page, 'graph-page-phone');
  // Two fingers moving apart zoom in about the point between them; fitting ends.
  const touch = await page.context().newCDPSession(page);
  await touch.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
  const zoomBefore = (await frameOf(page)).k;
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const fingers = (spread) => [{ x: middle.x - spread, y: middle.y, id: 0 }, { x: middle.x + spread, y: middle.y, id: 1 }];
  await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(20) });
  for (let spread = 30; spread <= 80; spread += 10) {
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(spread) });
  }
  await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await nextFrame(page);
  const pinched = await frameOf(page);
  assert.ok(Math.abs(pinched.k / zoomBefore - 4) < 0.05, `zoom ${zoomBefore} -> ${pinched.k}`);
  assert.equal((await state(page)).fit, 'manual');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// networkGraph returns at most 1000 nodes (docs/api.md), so a page shows 10,000 only after updates
// brought the rest: ten networkUpdated deliveries of 1000 nodes, published through Redis as the
// outbox relay publishes (each well under netgraph-ws's 256 KiB message limit) and nothing
// written to the database, whose graph the other suites count.
test('the graph page draws 10,000 nodes within the window, legibly, at measured frame times', { timeout: 600000 }, async (t) => {
  const page = await openGraph();
  await warmUp(page);
  const start = Number((await state(page)).nodeCount);
  const prefix = uniqueMarker('bulk');
  const types = ['Investor', 'Wallet', 'Wallet', 'Pool'];
  const idOf = (i) => `${prefix}-${i}`;
  await startRecording(page);
  for (let batch = 0; batch < 10; batch++) {
    const nodes = [];
    const links = [];
    for (let i = batch * 1000; i < (batch + 1) * 1000; i++) {
      // Groups of 100 around a hub; the hubs form a chain; every tenth node also links to a
      // node of the group before.
      const hub = i - (i % 100);
      nodes.push({ id: idOf(i), type: i === hub ? 'Round' : types[i % types.length], labels: ['bulk'] });
      if (i === hub) {
        if (i > 0) links.push({ source: idOf(i), target: idOf(i - 100), type: 'FOLLOWS' });
      } else {
        links.push({ source: idOf(i), target: idOf(hub), type: 'IN' });
        if (i % 10 === 0 && hub > 0) links.push({ source: idOf(i), target: idOf(i - 95), type: 'KNOWS' });
      }
    }
    await deliver(page, {
      nodes, links, metadata: { nodeCount: nodes.length, linkCount: links.length, lastUpdated: new Date().toISOString() },
    }, nodes.at(-1).id);
  }
  await nextFrame(page);
  const arriving = await stopRecording(page);
  assert.equal(Number((await state(page)).nodeCount), start + 10000);
  assert.deepEqual(arriving.filter(({ frame }) => !inside(frame)).map(({ frame }) => frame), [],
    'no frame drew a node outside the window while they arrived');

  // Frame times while the layout runs, first as the nodes arrive (fitting), then as the view is
  // dragged and zoomed a notch at a time: the intervals between the frames Chromium achieved and
  // how long the page's drawings took.
  const box = await canvasBox(page);
  await startRecording(page);
  for (let round = 0; round < 4; round++) {
    await page.mouse.move(box.x + 300, box.y + 300);
    await page.mouse.down();
    await page.mouse.move(box.x + 500, box.y + 400, { steps: 20 });
    await page.mouse.up();
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, round % 2 ? 100 : -100);
  }
  const moving = await stopRecording(page);
  const figures = { arriving: frameTimes(arriving), moving: frameTimes(moving) };
  t.diagnostic(`10,000 nodes, frame times (ms): ${JSON.stringify(figures)}`);
  // Bounds with room for a loaded 2-core CI machine (docs/operations.md has the figures measured).
  // Moving the view: at least 20 frames a second at the median, drawings within 50 ms at the
  // median, no frame later than a second. While 1000 nodes at a time arrive (each delivery parsed
  // and merged between frames): at least 10 a second at the median, no stall of 2 s.
  const { arriving: a, moving: m } = figures;
  assert.ok(m.intervalMedian < 50 && m.drawMedian < 50 && m.intervalMax < 1000, JSON.stringify(figures));
  assert.ok(a.intervalMedian < 100 && a.intervalMax < 2000, JSON.stringify(figures));

  // Legible: fitted again, every node drawn inside the window and at least 1.5 px in radius, the
  // graph spread over the window; zoomed in on one node, its id and its neighbours' are written.
  await page.click('#fit');
  await settled(page, 300000);
  await nextFrame(page);
  const fitted = await frameOf(page);
  assert.ok(inside(fitted), JSON.stringify(fitted));
  assert.equal(fitted.nodes, start + 10000);
  const span = Math.max((fitted.bounds.right - fitted.bounds.left) / fitted.width,
    (fitted.bounds.bottom - fitted.bounds.top) / fitted.height);
  assert.ok(span > 0.85, `the graph spans ${span.toFixed(2)} of the window`);
  assert.ok((await nodeOf(page, idOf(5))).radius >= 1.5);
  await screenshot(page, 'graph-page-10000');

  const hub = idOf(4200);
  await page.fill('#search-id', hub);
  await page.press('#search-id', 'Enter');
  assert.equal((await state(page)).selected, hub);
  assert.equal(await page.textContent('#details-links-title'), 'Links (101)');
  await nextFrame(page);
  const close = await frameOf(page);
  assert.ok(close.labels > 1, `ids written: ${close.labels}`);
  const centre = await nodeOf(page, hub);
  assert.equal(await pixelAt(page, centre.x, centre.y), await legendColour(page, 'Round'));
  await page.mouse.move(box.x + centre.x, box.y + centre.y);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.ok((await page.textContent('#tooltip')).includes(hub));
  await screenshot(page, 'graph-page-10000-zoomed');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
