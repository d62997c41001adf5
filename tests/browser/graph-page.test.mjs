// The live network graph at /: it draws what networkGraph returns, a claim made over HTTP adds the
// new wallet node within a second without a reload, and after netgraph-ws restarts the page
// reconnects by itself and shows the next update. Also on a phone-sized viewport.
import { after, before, test } from 'node:test';
import { performance } from 'node:perf_hooks';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { baseUrl, graphql, isAlive, readPid, stackStart, waitFor } from '../support/stack.mjs';
import { networkUpdate, publish, uniqueMarker } from '../e2e/ws-support.mjs';
import { launchBrowser, openPage, screenshot } from './browser.mjs';

const GRAPH_LIMIT = 500;  // the page's networkGraph limit (web/graph.js)

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

function state(page) {
  return page.$eval('#graph', (element) => ({ ...element.dataset }));
}

function drawnIds(page, type) {
  return page.$$eval(`#graph circle[data-type="${type}"]`, (circles) => circles.map((c) => c.dataset.id));
}

// Publishes marker updates through Redis until the page draws one: from then on, the page's
// subscription is in place and sees every update.
async function warmUp(page) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const marker = uniqueMarker('browser');
    try { await publish(networkUpdate(marker)); } catch { /* Redis busy: try again */ }
    for (let i = 0; i < 10; i++) {
      if (await page.$(`#graph circle[data-id="${marker}"]`)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (Date.now() > deadline) throw new Error('no published update reached the page');
  }
}

// Claims a fresh voucher and waits for the page to draw a Wallet node it did not draw before;
// returns the node's id and the time from the claim's response to the drawing.
async function claimAndWatch(page) {
  const before = new Set(await drawnIds(page, 'Wallet'));
  const [code] = issueVouchers(5);
  const result = await claim(newUser('browser').token, code, randomWallet());
  const answered = performance.now();
  assert.equal(result.success, true, JSON.stringify(result));
  const handle = await page.waitForFunction((known) => {
    const fresh = [...document.querySelectorAll('#graph circle[data-type="Wallet"]')]
      .find((c) => !known.includes(c.dataset.id));
    return fresh?.dataset.id;
  }, [...before], { polling: 'raf', timeout: 30000 });
  const elapsed = performance.now() - answered;
  const id = await handle.jsonValue();
  const highlighted = await page.$eval(`#graph circle[data-id="${id}"]`, (c) => c.classList.contains('fresh'));
  assert.equal(highlighted, true, 'a new node is highlighted');
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

  const page = await openPage(browser);
  await page.goto(`${baseUrl}/`);
  await waitFor(async () => (await state(page)).connection === 'live',
    { timeoutMs: 30000, what: 'the page to connect' });
  await waitFor(async () => Number((await state(page)).nodeCount) === expected.nodes.length,
    { timeoutMs: 30000, what: `the page to draw ${expected.nodes.length} nodes` });
  const loaded = await state(page);
  assert.equal(Number(loaded.nodeCount), expected.nodes.length);
  assert.equal(Number(loaded.linkCount), expected.links.length);
  assert.equal(loaded.lastUpdated, expected.metadata.lastUpdated);
  assert.equal(await page.$$eval('#graph circle', (c) => c.length), expected.nodes.length);
  // investmentData beside the drawing.
  await page.waitForSelector('#investment dd');
  const { body: investment } = await graphql('{ investmentData { tokenName tokenSymbol } }');
  const { tokenName, tokenSymbol } = investment.data.investmentData;
  assert.equal(await page.textContent('#token'), `${tokenName} (${tokenSymbol})`);
  await page.waitForTimeout(1500);  // lets the layout settle for the screenshot
  await screenshot(page, 'graph-page');

  await warmUp(page);
  const first = await claimAndWatch(page);
  t.diagnostic(`claim response to node drawn: ${first.elapsed.toFixed(0)} ms`);
  assert.ok(first.elapsed < 1000, `the new wallet appeared ${first.elapsed.toFixed(0)} ms after the claim's response`);
  assert.notEqual((await state(page)).lastUpdated, loaded.lastUpdated);
  await screenshot(page, 'graph-page-after-claim');

  assert.deepEqual(page.problems, []);

  // netgraph-ws goes away: the page notices, and reconnects once it is back.
  const wsPid = readPid('ws.pid');
  assert.ok(wsPid && isAlive(wsPid), 'the stack runs netgraph-ws');
  process.kill(wsPid, 'SIGTERM');
  await waitFor(() => !isAlive(wsPid), { timeoutMs: 20000, what: 'netgraph-ws to stop' });
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

test('the graph page is usable on a phone-sized viewport', { timeout: 120000 }, async () => {
  const page = await openPage(browser, { viewport: { width: 390, height: 844 } });
  await page.goto(`${baseUrl}/`);
  await waitFor(async () => Number((await state(page)).nodeCount) > 0,
    { timeoutMs: 30000, what: 'the page to draw nodes' });
  await page.waitForSelector('#investment dd');
  // Nothing is wider than the screen, and the drawing and the figures are both on it, stacked.
  const layout = await page.evaluate(() => {
    const box = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
    return { scrollWidth: document.documentElement.scrollWidth, graph: box('#graph'), panel: box('.panel') };
  });
  assert.ok(layout.scrollWidth <= 390, `the page is ${layout.scrollWidth} px wide`);
  assert.ok(layout.graph.width >= 380 && layout.graph.height >= 300, JSON.stringify(layout.graph));
  assert.ok(layout.panel.top >= layout.graph.bottom - 1, 'the figures come below the drawing');
  // A tap on a node shows its label.
  const node = await page.$('#graph circle[data-type="Round"]') ?? await page.$('#graph circle');
  await node.dispatchEvent('pointerenter', { clientX: 10, clientY: 10 });
  assert.equal(await page.isVisible('#tooltip'), true);
  await page.waitForTimeout(1500);
  await screenshot(page, 'graph-page-phone');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
