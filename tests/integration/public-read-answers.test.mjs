// networkGraph and investmentData read few rows (issue 11: O(limit) statements, figures maintained
// by triggers, migration 0003) but must answer exactly what the straightforward aggregates over
// every row answer: those aggregates are spelled out here, as they were before, and compared with
// the answers of a pool with its read cache off, on a graph and vouchers in many states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { netgraphctl, runDir } from '../support/stack.mjs';
import { fastcgiGraphql } from '../support/fastcgi.mjs';
import { startPool } from '../support/pool.mjs';
import { psqlJson } from '../support/postgres.mjs';
import {
  claim, confidentialKeypair, issueVouchers, newUser, randomWallet, redeem,
} from '../support/api.mjs';

function expectedGraph(limit) {
  const nodes = psqlJson(`SELECT COALESCE(json_agg(json_build_object('id', id, 'type', type, 'labels', labels)
      ORDER BY changed_at DESC, id), '[]') FROM (SELECT * FROM graph_nodes ORDER BY changed_at DESC, id LIMIT ${limit}) n`);
  const links = psqlJson(`WITH recent AS (SELECT id FROM graph_nodes ORDER BY changed_at DESC, id LIMIT ${limit})
    SELECT COALESCE(json_agg(json_build_object('source', source, 'target', target, 'type', type)
      ORDER BY changed_at DESC, source, target, type), '[]') FROM graph_links l
    WHERE l.source IN (SELECT id FROM recent) AND l.target IN (SELECT id FROM recent)`);
  return { nodes, links };
}

// The aggregate investmentData ran before migration 0003, over every voucher.
const EXPECTED_INVESTMENT = `
  WITH t AS (SELECT name, symbol, decimals, 10::numeric ^ decimals AS unit FROM token),
  current_round AS (SELECT id, name, price, target FROM rounds
    WHERE opens_at <= now() AND (closes_at IS NULL OR closes_at > now())
    ORDER BY opens_at DESC, id DESC LIMIT 1),
  last_round AS (SELECT price FROM rounds WHERE opens_at <= now() ORDER BY opens_at DESC, id DESC LIMIT 1),
  invested AS (SELECT round_id, user_id, amount, status FROM vouchers
    WHERE voucher_state(status, expires_at) IN ('CLAIMED', 'REDEEMED'))
  SELECT json_build_object('tokenName', t.name, 'tokenSymbol', t.symbol, 'currentRound', c.name,
    'roundRaised', (COALESCE((SELECT sum(amount) FROM invested WHERE round_id = c.id), 0)
       * COALESCE(c.price, 0) / t.unit)::float8,
    'roundTarget', COALESCE(c.target, 0)::float8,
    'investorCount', (SELECT count(DISTINCT user_id) FROM invested),
    'currentPrice', COALESCE(c.price, l.price, 0)::float8,
    'marketCap', (COALESCE(c.price, l.price, 0)
       * COALESCE((SELECT sum(amount) FROM vouchers WHERE status = 'REDEEMED'), 0) / t.unit)::float8)
  FROM t LEFT JOIN current_round c ON true LEFT JOIN last_round l ON true`;

const GRAPH = (limit) => `{ networkGraph(limit: ${limit}) { nodes { id type labels } links { source target type } } }`;
const INVESTMENT = `{ investmentData { tokenName tokenSymbol currentRound roundRaised roundTarget
  investorCount currentPrice marketCap } }`;

// A deterministic pseudo-random sequence, so a failure can be reproduced.
function generator(seed) {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

test('networkGraph and investmentData answer what the aggregates over every row answer', async (t) => {
  const { socket } = await startPool(t, 'answers-uncached', { NETGRAPH_READ_CACHE: 'off' });
  const read = async (query) => {
    const { status, body } = await fastcgiGraphql(socket, query);
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };
  const compare = async (stage) => {
    for (const limit of [1, 2, 37, 100, 1000]) {
      assert.deepEqual((await read(GRAPH(limit))).networkGraph, expectedGraph(limit), `${stage}: limit ${limit}`);
    }
    assert.deepEqual((await read(INVESTMENT)).investmentData, psqlJson(EXPECTED_INVESTMENT), stage);
  };

  // 150 nodes of three types with 450 links among them (many to ten hubs), imported in two steps
  // so their change times differ, then 40 of them changed again (the newest). Kept small: the
  // stack's graph is shared with the other tests.
  const random = generator(process.pid);
  const tag = `answers-${process.pid}-${Date.now()}`;
  const ids = Array.from({ length: 150 }, (_, i) => `${tag}-${i}`);
  const node = (id, i, labels) => ({ id, type: ['Alpha', 'Beta', 'Gamma'][i % 3], labels });
  const links = Array.from({ length: 450 }, (_, i) => ({
    source: ids[random(150)], target: ids[i % 3 === 0 ? random(10) : random(150)], type: ['A', 'B'][random(2)],
  }));
  const importFile = (name, graph) => {
    const file = path.join(runDir, `${tag}-${name}.json`);
    writeFileSync(file, JSON.stringify(graph));
    netgraphctl('graph', 'import', file);
  };
  importFile('first', { nodes: ids.slice(0, 75).map((id, i) => node(id, i, [])), links: [] });
  importFile('second', { nodes: ids.slice(75).map((id, i) => node(id, i, [`l${i % 5}`])), links });
  importFile('again', { nodes: ids.slice(50, 90).map((id, i) => node(id, i + 1, ['changed', `x${i}`])) });
  await compare('graph imported');

  // Vouchers claimed by three investors, one of them redeemed, one claim past its expiry.
  const investors = [newUser('answers-a'), newUser('answers-b'), newUser('answers-c')];
  const wallets = investors.map(() => randomWallet());
  for (const [i, amount] of [[0, 40], [0, 7], [1, 123], [2, 5]]) {
    const [code] = issueVouchers(amount);
    assert.equal((await claim(investors[i].token, code, wallets[i])).success, true);
  }
  await compare('claimed');
  const key = confidentialKeypair();
  assert.equal((await redeem(investors[1].token, wallets[1], key.publicKey)).success, true);
  await compare('redeemed');
  const [expiring] = issueVouchers(11, { expires: new Date(Date.now() + 1500).toISOString() });
  const late = newUser('answers-late');
  assert.equal((await claim(late.token, expiring, randomWallet())).success, true);
  await compare('claim before its expiry');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await compare('claim past its expiry, not yet swept');
});
