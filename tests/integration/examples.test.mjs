// The client examples (examples/*) against the stack: each installs its locked packages (npm ci, the
// npm cache in the run directory) and runs `npm start` with a token and a voucher of its own, and
// must exit 0. examples/README.md says what each one shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { graphqlUrl, repo, restartStackWs, runDir, waitFor } from '../support/stack.mjs';
import { tokenFor } from '../support/jwt.mjs';
import { issueVouchers, randomWallet } from '../support/api.mjs';

const examples = path.join(repo, 'examples');

// Runs `command` in `cwd`; resolves to {code, output} (stdout and stderr together).
function run(command, args, { cwd, env = {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, npm_config_cache: path.join(runDir, 'npm-cache'), npm_config_update_notifier: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (data) => { output += data; });
    child.stderr.on('data', (data) => { output += data; });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const installs = new Map();  // example -> its npm ci, run once

// npm ci, then `npm start` as a new user with a voucher of its own claimed to a new wallet.
async function runExample(name, env = {}) {
  const cwd = path.join(examples, name);
  if (!installs.has(name)) installs.set(name, run('npm', ['ci', '--no-audit', '--no-fund'], { cwd }));
  const installed = await installs.get(name);
  assert.equal(installed.code, 0, `npm ci in examples/${name}:\n${installed.output}`);
  const [voucher] = issueVouchers(1);
  return run('npm', ['start', '--silent'], {
    cwd,
    env: {
      NETGRAPH_URL: graphqlUrl,
      NETGRAPH_SCHEMA_URL: `${graphqlUrl}/schema.graphql`,
      NETGRAPH_TOKEN: tokenFor(`did:example:${name}-${process.pid}-${Date.now()}`),
      NETGRAPH_VOUCHER: voucher,
      NETGRAPH_WALLET: randomWallet(),
      ...env,
    },
  });
}

function assertPassed(name, { code, output }) {
  assert.equal(code, 0, `examples/${name} failed:\n${output}`);
  assert.match(output, new RegExp(`^${name} example: OK$`, 'm'), output);
  assert.match(output, /^networkUpdated: the claim's update arrived/m, output);
}

for (const name of ['graphql-request', 'urql', 'codegen']) {
  test(`examples/${name} runs against the stack`, { timeout: 300000 }, async () => {
    assertPassed(name, await runExample(name));
  });
}

const psql = (sql) => execFileSync('psql', [process.env.DATABASE_URL, '-tAc', sql], { encoding: 'utf8' }).trim();

// The stack as one that never saw examples/apollo's WebSocket documents (Apollo's printing of them,
// with __typename added): their rows gone, and netgraph-ws started again so it remembers none.
async function forgetApolloSocketDocuments() {
  psql(`DELETE FROM persisted_documents WHERE document LIKE 'subscription Updates%__typename%'
          OR document LIKE 'query Snapshot%__typename%'`);
  await restartStackWs();
}

test('examples/apollo runs against the stack, persisted queries by hash alone over HTTP and WebSocket', { timeout: 300000 }, async () => {
  await forgetApolloSocketDocuments();
  const result = await runExample('apollo');
  assertPassed('apollo', result);
  assert.match(result.output, /^persisted queries: the hash alone was answered \(GET \/graphql, /m, result.output);
  // Over the socket, as the example recorded its messages: the first subscribe of the subscription
  // and of the query carried the hash alone, netgraph-ws answered PERSISTED_QUERY_NOT_FOUND, the
  // link sent the text once, and the same documents later went as the hash alone, answered.
  for (const operation of ['subscription Updates', 'query Snapshot']) {
    assert.match(result.output, new RegExp(`^persisted queries over WebSocket: ${operation}: the hash alone, `
      + 'PERSISTED_QUERY_NOT_FOUND, then the text once$', 'm'), result.output);
  }
  assert.match(result.output, /^persisted queries over WebSocket: the second subscription Updates and query Snapshot went as the hash alone$/m, result.output);
  assert.match(result.output, /^networkUpdated: the claim's update arrived \(wallet [^)]+\), on both subscriptions$/m, result.output);
  // The text the link sent registered the documents for every process (netgraph-ws's database
  // threads store them), as the claim's over HTTP.
  const registered = (start) => Number(psql(`SELECT count(*) FROM persisted_documents WHERE document LIKE '${start}%__typename%'`));
  for (const operation of ['subscription Updates', 'query Snapshot']) {
    await waitFor(() => registered(operation) === 1, { what: `${operation}, registered over WebSocket` });
  }
  assert.ok(registered('mutation Claim') >= 1, 'the claim, registered over HTTP');
});

test('an example that fails exits non-zero, and the suite sees it', { timeout: 300000 }, async () => {
  const { code, output } = await runExample('graphql-request', { NETGRAPH_VOUCHER: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ' });
  assert.equal(code, 1, output);
  assert.match(output, /graphql-request example: FAILED: claimVoucher refused: Voucher not found/);
});
