// CORS for the HTTP API (NETGRAPH_CORS_ORIGINS): a page served from another origin calls /graphql
// with fetch. The stack allows http://127.0.0.1:<HTTP port + 3> (scripts/stack); a page from the
// port after it is refused: the browser sees no CORS headers and fetch fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { newUser } from '../support/api.mjs';
import { baseUrl, graphqlUrl } from '../support/stack.mjs';
import { launchBrowser, openPage, screenshot } from './browser.mjs';

const apiPort = Number(new URL(baseUrl).port);
const allowedOrigin = `http://127.0.0.1:${apiPort + 3}`;
const refusedOrigin = `http://127.0.0.1:${apiPort + 4}`;

// A page whose script calls the API with a token (so the browser makes a preflight first) and
// writes what happened into #result.
function pageHtml(token) {
  return `<!doctype html><meta charset="utf-8"><title>second origin</title><pre id="result">running</pre>
<script>
fetch(${JSON.stringify(graphqlUrl)}, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer ${token}' },
  body: JSON.stringify({ query: '{ getUserPortfolio { success data { user { idpDid } } } }' }),
}).then((r) => r.json())
  .then((body) => { document.getElementById('result').textContent = 'ok ' + JSON.stringify(body); })
  .catch((error) => { document.getElementById('result').textContent = 'failed ' + error.name; });
</script>`;
}

let browser;
const servers = [];
const user = newUser('cors');
before(async () => {
  browser = await launchBrowser();
  for (const origin of [allowedOrigin, refusedOrigin]) {
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(pageHtml(user.token));
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(Number(new URL(origin).port), '127.0.0.1', resolve);
    });
    servers.push(server);
  }
});
after(async () => {
  await browser?.close();
  for (const server of servers) server.close();
});

async function resultFrom(origin, name) {
  const page = await openPage(browser);
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.getElementById('result').textContent !== 'running');
  const text = await page.textContent('#result');
  await screenshot(page, name);
  await page.context().close();
  return text;
}

test('a page from an allowed origin calls the API with fetch', { timeout: 60000 }, async () => {
  const text = await resultFrom(allowedOrigin, 'cors-allowed');
  assert.match(text, /^ok /);
  assert.deepEqual(JSON.parse(text.slice(3)).data.getUserPortfolio,
    { success: true, data: { user: { idpDid: user.did } } });
});

test('a page from another origin cannot read the API\'s answers', { timeout: 60000 }, async () => {
  assert.equal(await resultFrom(refusedOrigin, 'cors-refused'), 'failed TypeError');
});

test('preflight: the allowed origin gets methods, headers and max age; another gets no CORS header', async () => {
  const preflight = (origin) => fetch(graphqlUrl, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type' },
  });
  const allowed = await preflight(allowedOrigin);
  assert.equal(allowed.status, 204);
  assert.equal(allowed.headers.get('access-control-allow-origin'), allowedOrigin);
  assert.equal(allowed.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS');
  assert.equal(allowed.headers.get('access-control-allow-headers'), 'authorization, content-type');
  assert.equal(allowed.headers.get('access-control-max-age'), '600');
  assert.equal(allowed.headers.get('vary'), 'Origin');
  assert.equal(allowed.headers.get('access-control-allow-credentials'), null);

  const refused = await preflight(refusedOrigin);
  assert.equal(refused.status, 204);
  assert.equal(refused.headers.get('vary'), 'Origin');
  for (const name of refused.headers.keys()) assert.doesNotMatch(name, /^access-control-/);

  // The actual request: the allowed origin's answer carries the header, the other's does not.
  const post = (origin) => fetch(graphqlUrl, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ graphdbStatus { connected } }' }),
  });
  const fromAllowed = await post(allowedOrigin);
  assert.equal(fromAllowed.status, 200);
  assert.equal(fromAllowed.headers.get('access-control-allow-origin'), allowedOrigin);
  // The media type follows Accept too (docs/api.md, "Media types").
  assert.equal(fromAllowed.headers.get('vary'), 'Accept, Origin');
  const fromRefused = await post(refusedOrigin);
  assert.equal(fromRefused.status, 200);
  assert.equal(fromRefused.headers.get('access-control-allow-origin'), null);
});
