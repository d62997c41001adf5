// NETGRAPH_REDIS_SENTINELS and NETGRAPH_REDIS_MASTER_NAME (core/store/redis_sentinel.h) through
// --check-config, as an operator of several hosts checks them (docs/operations.md, "Several
// hosts"): both daemons accept a good list and refuse each kind of mistake with exit 78, naming
// the setting and never the password. Following a failover is shown with real servers by
// tests/database/redis_sentinel_test.cc and across hosts by tests/cluster/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { binDir, EX_CONFIG } from '../support/daemon.mjs';

function checkConfig(binary, changes) {
  const run = spawnSync(path.join(binDir, binary), ['--check-config'],
    { encoding: 'utf8', env: { ...process.env, ...changes }, timeout: 30000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('a list of sentinels and a master name pass --check-config on both daemons', () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const { code, stderr } = checkConfig(binary, {
      NETGRAPH_REDIS_SENTINELS: '10.0.0.1:26379, [fd00::2]:26379,redis://:s3cret@sentinel.internal:26380',
      NETGRAPH_REDIS_MASTER_NAME: 'netgraph-cache',
    });
    assert.equal(code, 0, `${binary}: ${stderr}`);
  }
});

test('a malformed sentinel or master name is refused with exit 78, naming the setting and not the password', () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    for (const [changes, named] of [
      [{ NETGRAPH_REDIS_SENTINELS: 'redis://:s3cret@sentinel.internal' }, /NETGRAPH_REDIS_SENTINELS: give each sentinel's port/],
      [{ NETGRAPH_REDIS_SENTINELS: 'sentinel.internal:port' }, /NETGRAPH_REDIS_SENTINELS: bad port 'port'/],
      [{ NETGRAPH_REDIS_SENTINELS: 'http://sentinel.internal:26379' }, /NETGRAPH_REDIS_SENTINELS: each sentinel is host:port/],
      [{ NETGRAPH_REDIS_SENTINELS: 's1:26379', NETGRAPH_REDIS_MASTER_NAME: 'my master' }, /NETGRAPH_REDIS_MASTER_NAME: a master's name is letters/],
    ]) {
      const { code, stderr } = checkConfig(binary, changes);
      assert.equal(code, EX_CONFIG, `${binary} ${JSON.stringify(changes)}: ${stderr}`);
      assert.match(stderr, named, binary);
      assert.doesNotMatch(stderr, /s3cret/, binary);
    }
  }
});
