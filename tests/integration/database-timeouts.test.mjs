// A database that stops answering without refusing anything (a partition behind a proxy or a
// middlebox: connections stay open, what is sent is acknowledged, nothing comes back) costs a
// request a bounded time, not the worker: the worker drops a connection whose server has not
// answered within statement_timeout plus tcp_user_timeout (core/store/connection.h) and the request
// fails cleanly. TCP keep-alives and tcp_user_timeout cannot see this case: the relay's end of the
// connection acknowledges everything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fastcgiGraphql } from '../support/fastcgi.mjs';
import { databaseRelay } from '../support/database_relay.mjs';
import { startPool } from '../support/pool.mjs';

const query = '{ networkGraph(limit: 1) { nodes { id } } }';

test('a request to a partitioned database fails within the answer deadline instead of hanging', { timeout: 120000 }, async (t) => {
  const relay = await databaseRelay();
  t.after(() => relay.close());
  // Deadline: 1 s of statement_timeout plus 5 s (tcp_user_timeout, at least connect_timeout).
  const { socket } = await startPool(t, 'partition-test', {
    DATABASE_URL: relay.url,
    NETGRAPH_DB_STATEMENT_TIMEOUT_MS: '1000',
    NETGRAPH_DB_TCP_USER_TIMEOUT_MS: '2000',
    // The query must reach PostgreSQL: from the read cache it would be answered without it.
    NETGRAPH_READ_CACHE: 'off',
  }, { workers: 1 });
  const before = await fastcgiGraphql(socket, query);
  assert.equal(before.status, 200);
  assert.equal(before.body.errors, undefined, 'the worker has its connection');

  relay.partition();
  const started = Date.now();
  const hung = new Promise((resolve) => { setTimeout(() => resolve('hung'), 60000).unref(); });
  const answer = await Promise.race([fastcgiGraphql(socket, query), hung]);
  const elapsed = Date.now() - started;
  t.diagnostic(`answered after ${elapsed} ms`);
  assert.notEqual(answer, 'hung', 'the request is answered while the database stays unreachable');
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body.errors.map((e) => e.message), ['Internal server error']);
  // The deadline (6 s), then one fresh connection attempt (connect_timeout, 5 s), with room for a
  // loaded machine; nginx gives up after 30 s.
  assert.ok(elapsed < 25000, `answered within the bound (${elapsed} ms)`);
});
