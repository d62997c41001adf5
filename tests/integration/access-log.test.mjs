// The pool's access lines are kept a while and written several in one write
// (NETGRAPH_ACCESS_LOG_FLUSH_MS; core/log.h, KeepLines): an idle worker writes what it keeps when
// the time is up, and a worker that stops or is replaced by a reload writes it before it exits, so
// no line of a request it answered is lost. How lines are grouped into writes: tests/unit/log.
import assert from 'node:assert/strict';
import test from 'node:test';
import { poolPost, startPool } from '../support/pool.mjs';
import { waitFor } from '../support/stack.mjs';

// The operation names of the access lines in `log`.
function loggedOperations(log) {
  return log.split('\n').filter((line) => line.includes(': access {'))
    .map((line) => JSON.parse(line.slice(line.indexOf('{'))).operation_name);
}

async function answer(pool, names) {
  for (const name of names) await poolPost(pool.socket, `query ${name} { __typename }`);
}

test('an idle worker writes the access lines it kept once NETGRAPH_ACCESS_LOG_FLUSH_MS is up', async (t) => {
  const pool = await startPool(t, 'access-kept', { NETGRAPH_ACCESS_LOG_FLUSH_MS: '4000' }, { workers: 1 });
  const names = ['KeptA', 'KeptB', 'KeptC'];
  await answer(pool, names);
  assert.deepEqual(loggedOperations(pool.log()).filter((name) => names.includes(name)), [],
    'answered, and its lines still kept');
  // Nothing else comes to the worker: only its wake-up for the kept lines writes them.
  await waitFor(() => names.every((name) => loggedOperations(pool.log()).includes(name)),
    { timeoutMs: 20000, what: 'the kept access lines' });
  assert.deepEqual(loggedOperations(pool.log()).filter((name) => names.includes(name)), names);
});

test('a reload and a stop write the access lines the old workers kept', async (t) => {
  const pool = await startPool(t, 'access-reload', { NETGRAPH_ACCESS_LOG_FLUSH_MS: '10000' }, { workers: 1 });
  await answer(pool, ['BeforeReload']);
  assert.ok(!loggedOperations(pool.log()).includes('BeforeReload'), 'the line is kept');
  process.kill(pool.pid, 'SIGHUP');
  await waitFor(() => /reload complete/.test(pool.log()), { timeoutMs: 8000, what: 'the reload' });
  await waitFor(() => loggedOperations(pool.log()).includes('BeforeReload'),
    { timeoutMs: 5000, what: "the retired worker's kept line" });

  await answer(pool, ['BeforeStop']);
  assert.ok(!loggedOperations(pool.log()).includes('BeforeStop'), 'the line is kept');
  process.kill(pool.pid, 'SIGTERM');
  await pool.exited;
  assert.ok(loggedOperations(pool.log()).includes('BeforeStop'), "the stopped worker's kept line");
});
