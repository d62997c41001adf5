// GraphiQL at GET /graphql for browsers (Accept: text/html): it loads without console errors, runs
// queries over HTTP with the header the user sets, and runs a networkUpdated subscription over the
// same endpoint's WebSocket. GraphQL clients asking for JSON still get GraphQL over HTTP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { graphqlUrl } from '../support/stack.mjs';
import { networkUpdate, publish, uniqueMarker } from '../support/websocket.mjs';
import { launchBrowser, openPage, screenshot } from './browser.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// GraphiQL's editors are CodeMirror instances; the test sets their text as typing would.
function setEditor(page, selector, text) {
  return page.$eval(`${selector} .CodeMirror`, (element, value) => element.CodeMirror.setValue(value), text);
}

function response(page) {
  return page.$eval('.graphiql-response .CodeMirror', (element) => element.CodeMirror.getValue());
}

async function run(page, query) {
  await setEditor(page, '.graphiql-query-editor', query);
  await page.click('.graphiql-execute-button');
}

async function openGraphiQL() {
  const page = await openPage(browser);
  const loaded = await page.goto(graphqlUrl);
  assert.equal(loaded.status(), 200);
  assert.match(loaded.headers()['content-type'], /^text\/html/);
  await page.waitForSelector('.graphiql-query-editor .CodeMirror');
  return page;
}

test('GET /graphql asking for HTML is GraphiQL; asking for JSON is still GraphQL over HTTP', async () => {
  const html = await fetch(graphqlUrl, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.equal(html.status, 200);
  assert.match(html.headers.get('content-type'), /^text\/html/);
  assert.match(await html.text(), /\/ui\/graphiql\.js/);
  for (const accept of ['application/json', 'application/graphql-response+json', '*/*']) {
    const json = await fetch(`${graphqlUrl}?query=${encodeURIComponent('{ graphdbStatus { connected } }')}`,
      { headers: { accept } });
    assert.equal(json.status, 200, accept);
    assert.deepEqual((await json.json()).data, { graphdbStatus: { connected: true } });
  }
  // A POST that accepts HTML too is a GraphQL request all the same.
  const post = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/html, application/json' },
    body: JSON.stringify({ query: '{ graphdbStatus { connected } }' }),
  });
  assert.equal(post.status, 200);
  assert.match(post.headers.get('content-type'), /^application\/json/);
});

test('GraphiQL loads without errors, runs a query, and with a token header runs getUserPortfolio', { timeout: 120000 }, async () => {
  const page = await openGraphiQL();
  await run(page, '{ networkGraph(limit: 5) { nodes { id } } }');
  await page.waitForFunction(() => document.querySelector('.graphiql-response .CodeMirror')
    ?.CodeMirror.getValue().includes('"networkGraph"'));
  const graph = JSON.parse(await response(page));
  assert.equal(graph.data.networkGraph.nodes.length, 5);
  // This query's result, not the default query's (which selects more fields).
  for (const node of graph.data.networkGraph.nodes) assert.deepEqual(Object.keys(node), ['id']);
  await screenshot(page, 'graphiql-query');

  // The header editor (GraphiQL's "Headers" tab) carries the token.
  const user = newUser('graphiql', { email: 'graphiql@example.com' });
  await page.click('button:text-is("Headers")');
  await setEditor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', JSON.stringify({ Authorization: `Bearer ${user.token}` }));
  await run(page, '{ getUserPortfolio { success error data { user { idpDid email } } } }');
  await page.waitForFunction(() => document.querySelector('.graphiql-response .CodeMirror')
    ?.CodeMirror.getValue().includes('"getUserPortfolio"'));
  const portfolio = JSON.parse(await response(page));
  assert.deepEqual(portfolio.data.getUserPortfolio,
    { success: true, error: null, data: { user: { idpDid: user.did, email: 'graphiql@example.com' } } });
  await screenshot(page, 'graphiql-portfolio');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a networkUpdated subscription run in GraphiQL receives the update of a claim made over HTTP', { timeout: 120000 }, async () => {
  const page = await openGraphiQL();
  await run(page, 'subscription { networkUpdated { nodes { id type labels } metadata { nodeCount } } }');
  // Marker updates through Redis until GraphiQL shows one: the subscription is then in place.
  const deadline = Date.now() + 30000;
  for (let seen = false; !seen;) {
    assert.ok(Date.now() < deadline, `no published update reached GraphiQL:\n${page.socketLog.join('\n')}`);
    const marker = uniqueMarker('graphiql');
    try { await publish(networkUpdate(marker)); } catch { /* Redis busy: try again */ }
    for (let i = 0; i < 10 && !seen; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = (await response(page)).includes(marker);
    }
  }
  const [code] = issueVouchers(5);
  assert.equal((await claim(newUser('graphiql-claim').token, code, randomWallet())).success, true);
  // A claim's update lists the investor, the wallet and the round.
  await page.waitForFunction(() => {
    const text = document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror.getValue() ?? '';
    return text.includes('"Investor"') && text.includes('"Round"');
  }, null, { timeout: 30000 });
  const update = JSON.parse(await response(page));
  assert.deepEqual(update.data.networkUpdated.nodes.map((n) => n.type).sort(), ['Investor', 'Round', 'Wallet']);
  assert.equal(update.data.networkUpdated.metadata.nodeCount, 3);
  await screenshot(page, 'graphiql-subscription');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
