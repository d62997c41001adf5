// The Node peer of bench/http-bench.mjs and bench/write-bench.mjs: what a good Node team would
// deploy for netgraph. fastify + mercurius with graphql-jit compilation, node-postgres, one process
// per core (node:cluster), serving netgraph's own schema (core/api/schema.graphql) on the same
// database. Its public reads run the SQL statements netgraph ran before issue 11
// (core/store/graph.cc, core/store/token.cc at the time: the links among the recent nodes left to
// the planner, the investment aggregate over every voucher), the baseline the targets are
// set against. Its claimVoucher runs netgraph's own claim transaction (claim-voucher.mjs) for the
// bearer token's user (bearer-token.mjs).
//
//   node server.mjs --port P [--processes N]      (DATABASE_URL names the database)
// Prints "listening on P" once every process accepts connections.
import cluster from 'node:cluster';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import path from 'node:path';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string' },
    processes: { type: 'string', default: String(os.availableParallelism()) },
  },
});
const port = Number(options.port);
const processes = Number(options.processes);
if (!Number.isInteger(port) || port <= 0 || !Number.isInteger(processes) || processes <= 0) {
  console.error('usage: node server.mjs --port P [--processes N]');
  process.exit(64);
}

if (cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('listening', () => {
      if (++listening === processes) console.log(`listening on ${port}`);
    });
  }
  cluster.on('exit', (worker, code, signal) => {
    if (!worker.exitedAfterDisconnect) {
      console.error(`reference server: a process exited (${signal ?? code})`);
      process.exit(1);
    }
  });
  const stop = () => {
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const { default: Fastify } = await import('fastify');
  const { default: mercurius } = await import('mercurius');
  const { default: pg } = await import('pg');
  const { claimVoucher, dateTime } = await import('./claim-voucher.mjs');
  const { bearerVerifier } = await import('./bearer-token.mjs');

  const repo = path.resolve(import.meta.dirname, '../..');
  const schema = readFileSync(path.join(repo, 'core/api/schema.graphql'), 'utf8');
  // Connections stay open, as netgraph's workers keep theirs.
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4, idleTimeoutMillis: 0 });

  // netgraph's statements before issue 11, prepared by name as netgraph's are.
  const recentNodes = {
    name: 'graph_recent_nodes',
    text: 'SELECT id, type, to_json(labels)::text AS labels, epoch_us(changed_at) AS changed FROM graph_nodes ' +
      'ORDER BY changed_at DESC, id LIMIT $1',
  };
  const linksAmongRecent = {
    name: 'graph_links_among_recent',
    text: 'WITH recent AS (SELECT id FROM graph_nodes ORDER BY changed_at DESC, id LIMIT $1) ' +
      'SELECT l.source, l.target, l.type, epoch_us(l.changed_at) AS changed FROM graph_links l ' +
      'WHERE l.source IN (SELECT id FROM recent) AND l.target IN (SELECT id FROM recent) ' +
      'ORDER BY l.changed_at DESC, l.source, l.target, l.type',
  };
  const lastChange = {
    name: 'graph_last_change',
    text: 'SELECT epoch_us(GREATEST((SELECT max(changed_at) FROM graph_nodes), ' +
      '(SELECT max(changed_at) FROM graph_links))) AS last',
  };
  const investmentFigures = {
    name: 'investment_figures',
    text: 'WITH t AS (SELECT name, symbol, decimals, 10::numeric ^ decimals AS unit FROM token), ' +
      'current_round AS (SELECT id, name, price, target FROM rounds ' +
      '  WHERE opens_at <= now() AND (closes_at IS NULL OR closes_at > now()) ' +
      '  ORDER BY opens_at DESC, id DESC LIMIT 1), ' +
      'last_round AS (SELECT price FROM rounds WHERE opens_at <= now() ' +
      '  ORDER BY opens_at DESC, id DESC LIMIT 1), ' +
      'invested AS (SELECT round_id, user_id, amount, status FROM vouchers ' +
      "  WHERE voucher_state(status, expires_at) IN ('CLAIMED', 'REDEEMED')) " +
      'SELECT t.name, t.symbol, c.name AS round, ' +
      '  (COALESCE((SELECT sum(amount) FROM invested WHERE round_id = c.id), 0) ' +
      '     * COALESCE(c.price, 0) / t.unit)::float8 AS raised, ' +
      '  COALESCE(c.target, 0)::float8 AS target, ' +
      '  (SELECT count(DISTINCT user_id) FROM invested) AS investors, ' +
      '  COALESCE(c.price, l.price, 0)::float8 AS price, ' +
      '  (COALESCE(c.price, l.price, 0) ' +
      "     * COALESCE((SELECT sum(amount) FROM vouchers WHERE status = 'REDEEMED'), 0) " +
      '     / t.unit)::float8 AS cap ' +
      'FROM t LEFT JOIN current_round c ON true LEFT JOIN last_round l ON true',
  };

  const resolvers = {
    Query: {
      async networkGraph(_, { limit }) {
        if (!(limit >= 1 && limit <= 1000)) throw new Error(`limit must be between 1 and 1000, not ${limit}`);
        const [nodes, links, last] = await Promise.all([
          pool.query({ ...recentNodes, values: [limit] }),
          pool.query({ ...linksAmongRecent, values: [limit] }),
          pool.query(lastChange),
        ]);
        return {
          nodes: nodes.rows.map((n) => ({ id: n.id, type: n.type, labels: JSON.parse(n.labels) })),
          links: links.rows.map((l) => ({ source: l.source, target: l.target, type: l.type })),
          metadata: {
            nodeCount: nodes.rows.length,
            linkCount: links.rows.length,
            lastUpdated: dateTime(last.rows[0].last),
          },
        };
      },
      async investmentData() {
        const { rows: [f] } = await pool.query(investmentFigures);
        return {
          tokenName: f.name,
          tokenSymbol: f.symbol,
          currentRound: f.round,
          roundRaised: f.raised,
          roundTarget: f.target,
          investorCount: Number(f.investors),
          currentPrice: f.price,
          marketCap: f.cap,
        };
      },
    },
    Mutation: {
      async claimVoucher(_, { voucherCode, walletAddress }, { identity }) {
        const outcome = identity
          ? await claimVoucher(pool, identity, voucherCode, walletAddress)
          : { refusal: 'Authentication required' };
        if (outcome.refusal) return { success: false, error: outcome.refusal, message: outcome.refusal, voucher: null };
        return {
          success: true,
          error: null,
          message: `Voucher claimed to wallet ${outcome.voucher.walletAddress}.`,
          voucher: outcome.voucher,
        };
      },
    },
  };

  const app = Fastify({ logger: false });
  const identityOf = bearerVerifier(process.env);
  // jit: 1 compiles a document with graphql-jit from its first execution on; mercurius keeps
  // parsed and validated documents in its own cache.
  app.register(mercurius, {
    schema, resolvers, jit: 1, path: '/graphql',
    context: (request) => ({ identity: identityOf(request.headers.authorization) }),
  });
  await app.listen({ host: '127.0.0.1', port });
}
