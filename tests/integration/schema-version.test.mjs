// Both daemons refuse, at start, a database whose schema is older than they need (exit 1, saying
// what to run), and run on a newer one: expand-then-contract migrations let release N serve on
// N+1's schema during an upgrade (core/store/migrations.h).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { netgraphctlPath } from '../support/stack.mjs';
import { psql } from '../support/postgres.mjs';
import { runDaemon } from '../support/daemon.mjs';

const database = `netgraph_schema_${process.pid}`;
const url = new URL(process.env.DATABASE_URL);
url.pathname = `/${database}`;
const own = (sql) => psql(sql, { url: url.href });

before(() => psql(`CREATE DATABASE ${database}`));
after(() => psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

test('an empty database: both daemons refuse to start and say to run the migrations', async () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const { code, stderr } = await runDaemon(binary, { DATABASE_URL: url.href });
    assert.equal(code, 1, `${binary}: ${stderr}`);
    assert.match(stderr, /the database schema is at version 0, older than the \d+ this release needs: run the migrations first \(systemctl restart netgraph-migrate/);
  }
  assert.equal(own("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), '0', 'the check created nothing');
});

test('a migrated database, and one migrated further by a later release: both daemons start', async () => {
  execFileSync(netgraphctlPath, ['migrate'], { env: { ...process.env, DATABASE_URL: url.href } });
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const { started, stderr } = await runDaemon(binary, { DATABASE_URL: url.href });
    assert.ok(started, `${binary}: ${stderr}`);
  }
  own("INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_a_later_release.sql')");
  const { started, stderr } = await runDaemon('netgraph-fcgi', { DATABASE_URL: url.href });
  assert.ok(started, stderr);
  assert.match(execFileSync(netgraphctlPath, ['migrate', '--status'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: url.href } }),
    /^schema version 9999 of \d+\n$/);
});
