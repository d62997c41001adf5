// CORS for the HTTP API (NETGRAPH_CORS_ORIGINS): a page served from another origin calls /graphql
// with fetch. The stack allows http://127.0.0.1:<HTTP port + 3> (scripts/stack); a page from the
// port after it is refused: the browser sees no CORS headers and fetch fails. The allowed page also
// reads the exposed headers (X-Request-Id, traceresponse) and nginx's own 429 with its Retry-After,
// from a private nginx with a rate limit it reaches at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { newUser } from '../support/api.mjs';
import { baseUrl, graphqlUrl } from '../support/stack.mjs';
import { sparePort, startPrivatePool } from '../support/private-pool.mjs';
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

// A page that GETs a query from the stack once, then from `url` until nginx answers 429 (at most
// four times), and writes what its script could read of each answer into #result.
function limitedPageHtml(url) {
  const stackUrl = `${graphqlUrl}?query=${encodeURIComponent('{ __typename }')}`;
  return `<!doctype html><meta charset="utf-8"><title>second origin</title><pre id="result">running</pre>
<script>
(async () => {
  const seen = [];
  const read = async (r) => seen.push({ status: r.status, retryAfter: r.headers.get('retry-after'),
    requestId: r.headers.get('x-request-id'), traceresponse: r.headers.get('traceresponse'), body: await r.json() });
  await read(await fetch(${JSON.stringify(stackUrl)}));
  for (let i = 0; i < 4 && seen.at(-1).status !== 429; i += 1) await read(await fetch(${JSON.stringify(url)}));
  document.getElementById('result').textContent = 'ok ' + JSON.stringify(seen);
})().catch((error) => { document.getElementById('result').textContent = 'failed ' + error.name; });
</script>`;
}

let browser;
let limitedUrl;
const servers = [];
const user = newUser('cors');
before(async () => {
  browser = await launchBrowser();
  for (const origin of [allowedOrigin, refusedOrigin]) {
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(request.url === '/limited' ? limitedPageHtml(limitedUrl) : pageHtml(user.token));
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

async function resultFrom(origin, name, pagePath = '/') {
  const page = await openPage(browser);
  await page.goto(`${origin}${pagePath}`);
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

test("a page from an allowed origin reads the exposed headers and nginx's 429 with its Retry-After", { timeout: 90000 }, async (t) => {
  // One request a minute and one more at once: nginx's 429 comes by the third request.
  const pool = await startPrivatePool('browser-limited', {
    port: sparePort(10),
    nginxConf: (conf) => conf.replace('rate=5000r/s', 'rate=1r/m').replace('burst=5000', 'burst=1'),
  });
  t.after(() => pool.stop());
  limitedUrl = `${pool.baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`;
  const text = await resultFrom(allowedOrigin, 'cors-limited', '/limited');
  assert.match(text, /^ok /, 'the browser let the page read every answer, the 429 included');
  const seen = JSON.parse(text.slice(3));
  const limited = seen.at(-1);
  assert.equal(limited.status, 429);
  assert.equal(limited.retryAfter, '1');
  assert.match(limited.requestId, /^[0-9a-f]{32}$/);
  assert.deepEqual(limited.body, { errors: [{ message: 'Too many requests' }] });
  // The pool's own answer (the stack's): its request id and traceresponse are readable too.
  assert.equal(seen[0].status, 200);
  assert.match(seen[0].requestId, /^[0-9a-f]{32}$/);
  assert.match(seen[0].traceresponse, /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
});
