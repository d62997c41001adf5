// --check-config on netgraph-fcgi and netgraph-ws (like nginx -t): exit 0 for a good configuration;
// exit 78 with every problem named for a bad one, from the environment and from the configuration
// file (NETGRAPH_CONFIG_FILE) alike. A bad NETGRAPH_LOG_LEVEL stops a daemon at start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runDir } from '../support/stack.mjs';
import { binDir, EX_CONFIG, runDaemon } from '../support/daemon.mjs';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'netgraph-check-config-'));

function checkConfig(binary, env) {
  const run = spawnSync(path.join(binDir, binary), ['--check-config'], { encoding: 'utf8', env, timeout: 30000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// The stack's configuration (the test runs with it in its environment) changed by `changes`.
const stackEnv = (changes = {}) => ({ ...process.env, ...changes });

test('the stack\'s configuration passes --check-config on both daemons (exit 0)', () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const { code, stdout, stderr } = checkConfig(binary, stackEnv());
    assert.equal(code, 0, `${binary}: ${stderr}`);
    assert.equal(stdout, 'configuration is valid (no configuration file)\n');
  }
});

test('netgraph-fcgi --check-config lists every problem at once, each naming its variable', () => {
  const { code, stderr } = checkConfig('netgraph-fcgi', stackEnv({
    NETGRAPH_LOG_LEVEL: 'loud',
    NETGRAPH_WORKERS: '0',
    NETGRAPH_MAX_DEPTH: 'deep',
    REDIS_URL: 'rediss://127.0.0.1:6380',
    NETGRAPH_JWT_ALG: 'HS256',
    NETGRAPH_CORS_ORIGINS: 'not an origin',
    NETGRAPH_UPDATE_SIGNING_KEY_FILE: path.join(scratch, 'no-such-key'),
  }));
  assert.equal(code, EX_CONFIG, stderr);
  for (const named of [
    /NETGRAPH_LOG_LEVEL must be one of debug, info, warn, error, not 'loud'/,
    /NETGRAPH_WORKERS must be an integer from 1 to 1024, not '0'/,
    /NETGRAPH_MAX_DEPTH must be an integer/,
    /REDIS_URL/,
    /NETGRAPH_JWT_ALG must be ES256 or RS256, not 'HS256'/,
    /not an origin/,
    /NETGRAPH_UPDATE_SIGNING_KEY_FILE/,
  ]) {
    assert.match(stderr, named);
  }
  // One log line per problem.
  assert.equal(stderr.split('\n').filter((l) => l.includes('configuration: ')).length, 7, stderr);
});

test('netgraph-ws --check-config lists its own settings\' problems with the service\'s', () => {
  const { code, stderr } = checkConfig('netgraph-ws', stackEnv({
    NETGRAPH_WS_TRUSTED_PROXIES: 'proxy.example',
    NETGRAPH_WS_MAX_CONNECTIONS: '-1',
    NETGRAPH_LOG_LEVEL: 'verbose',
    NETGRAPH_JWT_ISSUER: '',
  }));
  assert.equal(code, EX_CONFIG, stderr);
  assert.match(stderr, /NETGRAPH_WS_TRUSTED_PROXIES: "proxy.example" is not an IP address/);
  assert.match(stderr, /NETGRAPH_WS_MAX_CONNECTIONS must be an integer/);
  assert.match(stderr, /NETGRAPH_LOG_LEVEL must be one of debug, info, warn, error, not 'verbose'/);
  assert.match(stderr, /NETGRAPH_JWT_ISSUER/);
});

test('netgraph-fcgi --check-config takes NETGRAPH_SCOREBOARD on or off and names anything else', () => {
  for (const value of ['on', 'off']) {
    const { code, stderr } = checkConfig('netgraph-fcgi', stackEnv({ NETGRAPH_SCOREBOARD: value }));
    assert.equal(code, 0, `${value}: ${stderr}`);
  }
  const { code, stderr } = checkConfig('netgraph-fcgi', stackEnv({ NETGRAPH_SCOREBOARD: 'sometimes' }));
  assert.equal(code, EX_CONFIG, stderr);
  assert.match(stderr, /NETGRAPH_SCOREBOARD must be true or false, not 'sometimes'/);
});

test('both daemons\' --check-config name a NETGRAPH_PUBLIC_ORIGIN that is not an origin', () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    for (const bad of ['netgraph.example', 'https://netgraph.example/path', 'https://a b']) {
      const { code, stderr } = checkConfig(binary, stackEnv({ NETGRAPH_PUBLIC_ORIGIN: bad }));
      assert.equal(code, EX_CONFIG, `${binary} ${bad}: ${stderr}`);
      assert.match(stderr, /NETGRAPH_PUBLIC_ORIGIN must be the origin users reach the service at/);
    }
    const copied = checkConfig(binary, stackEnv({ NETGRAPH_PUBLIC_ORIGIN: 'https://Netgraph.Example/' }));
    assert.equal(copied.code, 0, `${binary}: ${copied.stderr}`);
  }
});

test('a key file that does not load is a problem --check-config names', () => {
  const garbage = path.join(scratch, 'garbage.pem');
  writeFileSync(garbage, 'not a key\n');
  const { code, stderr } = checkConfig('netgraph-fcgi', stackEnv({ NETGRAPH_JWT_PUBLIC_KEY_FILE: garbage }));
  assert.equal(code, EX_CONFIG, stderr);
  assert.match(stderr, new RegExp(garbage.replaceAll('.', '\\.')));
});

test('--check-config names JWKS URL problems: not https, not a URL, a CA file that cannot be read', () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const plain = checkConfig(binary, stackEnv({
      NETGRAPH_JWT_PUBLIC_KEY_FILE: '', NETGRAPH_JWT_JWKS_URL: 'http://idp.example/.well-known/jwks.json',
      NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS: '600', NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS: '60',
    }));
    assert.equal(plain.code, EX_CONFIG, plain.stderr);
    assert.match(plain.stderr, /NETGRAPH_JWT_JWKS_URL must be an https:\/\/ URL, not 'http:\/\/idp\.example/);
    assert.match(plain.stderr, /NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS \(600\) is above NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS \(60\)/);

    const malformed = checkConfig(binary, stackEnv({ NETGRAPH_JWT_PUBLIC_KEY_FILE: '', NETGRAPH_JWT_JWKS_URL: 'idp example' }));
    assert.equal(malformed.code, EX_CONFIG, malformed.stderr);
    assert.match(malformed.stderr, /NETGRAPH_JWT_JWKS_URL is not a URL: 'idp example'/);

    const both = checkConfig(binary, stackEnv({ NETGRAPH_JWT_JWKS_URL: 'https://idp.example/jwks.json' }));
    assert.equal(both.code, EX_CONFIG, both.stderr);
    assert.match(both.stderr, /set exactly one of NETGRAPH_JWT_PUBLIC_KEY_FILE, NETGRAPH_JWT_JWKS_FILE and NETGRAPH_JWT_JWKS_URL/);

    const noCa = checkConfig(binary, stackEnv({
      NETGRAPH_JWT_PUBLIC_KEY_FILE: '', NETGRAPH_JWT_JWKS_URL: 'https://127.0.0.1:9/jwks.json',
      NETGRAPH_JWT_JWKS_CA_FILE: path.join(scratch, 'no-such-ca.pem'), NETGRAPH_JWT_JWKS_TIMEOUT_MS: '500',
    }));
    assert.equal(noCa.code, EX_CONFIG, noCa.stderr);
    assert.match(noCa.stderr, /NETGRAPH_JWT_JWKS_CA_FILE .*no-such-ca\.pem: cannot open/);
  }
});

test('a JWKS URL that does not answer is no configuration mistake: --check-config passes and says why tokens will be refused', () => {
  const { code, stdout, stderr } = checkConfig('netgraph-fcgi', stackEnv({
    NETGRAPH_JWT_PUBLIC_KEY_FILE: '', NETGRAPH_JWT_JWKS_URL: 'https://127.0.0.1:9/jwks.json',
    NETGRAPH_JWT_JWKS_TIMEOUT_MS: '500',
  }));
  assert.equal(code, 0, stderr);
  assert.match(stdout, /configuration is valid/);
  assert.match(stderr, /JWKS https:\/\/127\.0\.0\.1:9\/jwks\.json: fetch failed .*no keys yet: every token is refused/);
});

// The stack's settings as a configuration file, with `extra` lines after them; the environment
// then holds only PATH and NETGRAPH_CONFIG_FILE.
function fileConfiguration(name, extra) {
  const file = path.join(scratch, name);
  writeFileSync(file, `${readFileSync(path.join(runDir, 'stack.env'), 'utf8')}\n${extra}\n`);
  return { PATH: process.env.PATH, NETGRAPH_CONFIG_FILE: file };
}

test('the configuration file is read: a good one passes, and its problems are named with the line', () => {
  const good = fileConfiguration('good.env', '# a comment\n\n  NETGRAPH_WORKERS = 3  \nNETGRAPH_LOG_LEVEL="warn"');
  const passed = checkConfig('netgraph-fcgi', good);
  assert.equal(passed.code, 0, passed.stderr);
  assert.equal(passed.stdout, `configuration is valid (configuration file ${good.NETGRAPH_CONFIG_FILE})\n`);

  const bad = fileConfiguration('bad.env', 'NETGRAPH_MAX_DEPTH=abc\nthis is not a setting\nNETGRAPH_LOG_LEVEL=loud');
  const refused = checkConfig('netgraph-fcgi', bad);
  assert.equal(refused.code, EX_CONFIG, refused.stderr);
  const badLine = readFileSync(bad.NETGRAPH_CONFIG_FILE, 'utf8').split('\n').indexOf('this is not a setting') + 1;
  assert.match(refused.stderr, new RegExp(`bad\\.env:${badLine}: not a KEY=value line`));
  assert.match(refused.stderr, /NETGRAPH_MAX_DEPTH must be an integer .* not 'abc'/);
  assert.match(refused.stderr, /NETGRAPH_LOG_LEVEL must be one of .* not 'loud'/);
});

test('a variable in the environment wins over the configuration file', () => {
  const env = fileConfiguration('overridden.env', 'NETGRAPH_LOG_LEVEL=loud');
  const { code, stderr } = checkConfig('netgraph-ws', { ...env, NETGRAPH_LOG_LEVEL: 'info' });
  assert.equal(code, 0, stderr);
});

test('a configuration file that cannot be read is named', () => {
  const missing = path.join(scratch, 'missing.env');
  const { code, stderr } = checkConfig('netgraph-fcgi', stackEnv({ NETGRAPH_CONFIG_FILE: missing }));
  assert.equal(code, EX_CONFIG, stderr);
  assert.match(stderr, new RegExp(`NETGRAPH_CONFIG_FILE: cannot read ${missing.replaceAll('.', '\\.')}`));
});

test('a bad NETGRAPH_LOG_LEVEL stops either daemon at start with exit 78', async () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const result = await runDaemon(binary, { NETGRAPH_LOG_LEVEL: 'chatty' });
    assert.equal(result.code, EX_CONFIG, `${binary} started anyway: ${result.stderr}`);
    assert.match(result.stderr, /NETGRAPH_LOG_LEVEL must be one of debug, info, warn, error, not 'chatty'/);
  }
});
