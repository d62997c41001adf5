// Setting a service up without demo data, with netgraphctl against a database of the test's own
// (migrated from empty): the token, rounds, vouchers in them, users; --help on every command and
// group, and what the bash completion offers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { netgraphctlPath } from '../support/stack.mjs';
import { psql } from '../support/postgres.mjs';

const database = `netgraph_setup_${process.pid}`;
const url = new URL(process.env.DATABASE_URL);
url.pathname = `/${database}`;
const env = { ...process.env, DATABASE_URL: url.href };

const own = (sql) => psql(sql, { url: url.href });

function ctl(...args) {
  const run = spawnSync(netgraphctlPath, args, { encoding: 'utf8', env });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function must(...args) {
  const run = ctl(...args);
  assert.equal(run.code, 0, `netgraphctl ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

before(() => {
  psql(`CREATE DATABASE ${database}`);
  must('migrate');
});

after(() => psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

test('token set names the token; decimals are fixed once a voucher exists', () => {
  assert.equal(must('token', 'set', '--name', 'Acme Network Token', '--symbol', 'ACME', '--decimals', '3'),
    'token: Acme Network Token (ACME), 3 decimals\n');
  const bad = ctl('token', 'set', '--symbol', 'acme');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /the symbol must be 1 to 10 capital letters or digits/);
  assert.equal(ctl('token', 'set').code, 2);

  must('rounds', 'create', '--name', 'Seed', '--price', '0.05', '--target', '500000');
  const [code] = must('vouchers', 'issue', '--amount', '12.345').trim().split('\n');
  assert.match(code, /\S/);
  const refused = ctl('token', 'set', '--decimals', '2');
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /the decimals cannot change once vouchers exist/);
  assert.match(must('token', 'set', '--name', 'Acme Token'), /Acme Token \(ACME\), 3 decimals/);
  // The token's graph node follows.
  assert.equal(own("SELECT labels::text FROM graph_nodes WHERE id = 'token'"), '{Token,"Acme Token",ACME}');
});

test('rounds create, list and close; vouchers go into the current round', () => {
  must('rounds', 'create', '--name', 'Series A', '--price', '0.10', '--target', '2000000.50', '--opens', '2025-01-01T00:00:00Z');
  must('rounds', 'create', '--name', 'Later', '--price', '1', '--target', '1', '--opens', '30d');
  const listed = must('rounds', 'list').trim().split('\n').map((line) => line.split('\t'));
  const byName = Object.fromEntries(listed.map((fields) => [fields[1], fields]));
  assert.deepEqual(Object.keys(byName).sort(), ['Later', 'Seed', 'Series A']);
  assert.equal(byName.Seed[6], 'current', 'the open round that opened last');
  assert.equal(byName['Series A'][2], '0.10000000');
  assert.equal(byName['Series A'][3], '2000000.50');
  assert.equal(byName.Later[5], '-');

  const taken = ctl('rounds', 'create', '--name', 'Seed', '--price', '1', '--target', '1');
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /a round named Seed exists/);
  const badPrice = ctl('rounds', 'create', '--name', 'X', '--price', '1e3', '--target', '1');
  assert.equal(badPrice.code, 2);
  assert.match(badPrice.stderr, /the price must be a number/);
  const notYet = ctl('rounds', 'close', 'Later');
  assert.equal(notYet.code, 1);
  assert.match(notYet.stderr, /not open then/);

  assert.equal(must('rounds', 'close', 'Seed'), 'closed round Seed\n');
  const afterClose = must('rounds', 'list');
  assert.match(afterClose, /\tSeries A\t.*\tcurrent\n/);
  assert.equal(ctl('rounds', 'close', 'Seed').code, 1, 'closed already');
  assert.equal(ctl('rounds', 'close', 'Nothing').code, 1);
  must('rounds', 'close', 'Series A');
  const none = ctl('vouchers', 'issue', '--amount', '1');
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no round is open/);
});

test('users list pages through the users by id', () => {
  must('admin', 'grant', 'did:setup:admin');
  must('admin', 'grant', 'did:setup:second');
  const [first, second] = must('users', 'list').trim().split('\n').map((line) => line.split('\t'));
  assert.equal(first[1], 'did:setup:admin');
  assert.equal(first[3], 'admin');
  assert.equal(second[1], 'did:setup:second');
  assert.equal(must('users', 'list', '--first', '1').trim().split('\n').length, 1);
  assert.match(must('users', 'list', '--after', first[0]), /did:setup:second/);
  assert.equal(ctl('users', 'list', '--first', '0').code, 2);
});

test('--help answers for netgraphctl, every group and every command (exit 0, on stdout)', () => {
  const help = must('--help');
  const commands = [...help.matchAll(/^ {2}netgraphctl (\S+(?: [a-z][a-z-]*)?)/gm)].map((m) => m[1]);
  for (const wanted of ['migrate', 'token set', 'rounds create', 'rounds list', 'rounds close', 'users list', 'vouchers issue']) {
    assert.ok(commands.includes(wanted), `${wanted} in netgraphctl --help`);
  }
  for (const command of commands) {
    const words = command.split(' ');
    const own = must(...words, '--help');
    assert.match(own, new RegExp(`^Usage:\\n {2}netgraphctl ${command}\\b`), command);
    assert.equal(must('help', ...words), own);
    if (words.length === 2) assert.match(must(words[0], '--help'), new RegExp(`netgraphctl ${command}`));
  }
  assert.match(must('rounds', 'create', '--help'), /--opens T\n +when it opens/);
  const unknown = ctl('nothing');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command: nothing/);
});

test('the bash completion\'s source: groups, then commands, then options', () => {
  const words = (...args) => must('complete', ...args).trim().split('\n');
  assert.ok(words().includes('rounds') && words().includes('migrate'));
  assert.deepEqual(words('rounds'), ['close', 'create', 'list']);
  assert.deepEqual(words('rounds', 'create'), ['--closes', '--help', '--name', '--opens', '--price', '--target']);
  assert.deepEqual(words('migrate'), ['--help', '--status', '--wait']);
});
