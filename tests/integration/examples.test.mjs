// The client examples (examples/*) against the stack: each installs its locked packages (npm ci, the
// npm cache in the run directory) and runs `npm start` with a token and a voucher of its own, and
// must exit 0. examples/README.md says what each one shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { graphqlUrl, repo, runDir } from '../support/stack.mjs';
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

test('examples/apollo runs against the stack, a repeated query as the hash alone (persisted queries)', { timeout: 300000 }, async () => {
  const result = await runExample('apollo');
  assertPassed('apollo', result);
  assert.match(result.output, /^persisted queries: the hash alone was answered \(GET \/graphql, /m, result.output);
  // GraphQLWsLink sends the text with the hash: the subscription went through the WebSocket's
  // persisted-query path and is registered under Apollo's hash (Apollo's printing, __typename
  // added), as the claim is through HTTP's.
  const registered = (start) => Number(execFileSync('psql', [process.env.DATABASE_URL, '-tAc',
    `SELECT count(*) FROM persisted_documents WHERE document LIKE '${start}%__typename%'`], { encoding: 'utf8' }).trim());
  assert.ok(registered('subscription Updates') >= 1, 'the subscription, registered over WebSocket');
  assert.ok(registered('mutation Claim') >= 1, 'the claim, registered over HTTP');
});

test('an example that fails exits non-zero, and the suite sees it', { timeout: 300000 }, async () => {
  const { code, output } = await runExample('graphql-request', { NETGRAPH_VOUCHER: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ' });
  assert.equal(code, 1, output);
  assert.match(output, /graphql-request example: FAILED: claimVoucher refused: Voucher not found/);
});
