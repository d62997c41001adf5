// claimVoucher for the Node peer of bench/write-bench.mjs, as netgraph runs it: the caller's user
// found by its DID first (core/domain/user.cc, UserForPrincipal), then the claim as one statement,
// migration 0010's claim_voucher (core/store/vouchers.cc, ClaimVoucherInOneStatement); when that
// answers that the graph must change (a first claim to a wallet), the same statement again in a
// read-committed transaction that writes the graph's change and its outbox message
// (core/domain/voucher.cc, ClaimVoucher; core/store/graph.cc, outbox.cc), each statement prepared
// under netgraph's name with netgraph's text. bench/write-bench.mjs compares, on every run, the
// statements PostgreSQL logs for one claim from each side, so this copy cannot drift from
// netgraph's without the benchmark saying so.
//
// The statements are exported for the benchmark's pgbench script as well.

const voucherColumns =
  'id, code, amount, round_id, voucher_state(status, expires_at), user_id, wallet_address, ' +
  'epoch_us(expires_at), epoch_us(claimed_at), epoch_us(redeemed_at), redemption_id, batch';

const voucherColumnCount = 12;

export const statements = {
  usersFindByDid: {
    name: 'users_find_by_did',
    text: 'SELECT id, idp_did, email, is_admin, public_id FROM users WHERE idp_did = $1',
  },
  usersUpsert: {
    name: 'users_upsert',
    text: 'INSERT INTO users (idp_did, email) VALUES ($1, $2) ' +
      'ON CONFLICT (idp_did) DO UPDATE SET email = COALESCE(EXCLUDED.email, users.email) ' +
      'RETURNING id, idp_did, email, is_admin, public_id',
  },
  claimVoucher: {
    name: 'claim_voucher',
    text: `SELECT c.outcome, ${voucherColumns}, c.round_name, c.round_price, c.round_target, c.decimals, ` +
      'c.wallet_public_id FROM claim_voucher($1, $2, $3, $4, $5, $6, $7) c ' +
      'LEFT JOIN LATERAL (SELECT (c.voucher).*) v ON true',
  },
  graphHolds: {
    name: 'graph_holds',
    text: "SELECT (SELECT count(*) FROM jsonb_array_elements($1::jsonb) AS e(node) " +
      "JOIN graph_nodes n ON n.id = e.node->>'id' AND n.type = e.node->>'type' " +
      "AND to_jsonb(n.labels) = e.node->'labels') = jsonb_array_length($1::jsonb) " +
      'AND (SELECT count(*) FROM jsonb_array_elements($2::jsonb) AS e(link) ' +
      "JOIN graph_links l ON l.source = e.link->>'source' AND l.target = e.link->>'target' " +
      "AND l.type = e.link->>'type') = jsonb_array_length($2::jsonb) AS holds",
  },
  graphWrite: {
    name: 'graph_write',
    text: "WITH nodes_in AS (SELECT DISTINCT ON (e.node->>'id') e.node->>'id' AS id, " +
      "e.node->>'type' AS type, ARRAY(SELECT jsonb_array_elements_text(e.node->'labels')) AS labels " +
      'FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(node, ord) ' +
      "ORDER BY e.node->>'id', e.ord DESC), " +
      "links_in AS (SELECT DISTINCT l->>'source' AS source, l->>'target' AS target, l->>'type' AS type " +
      'FROM jsonb_array_elements($2::jsonb) AS l), ' +
      'changed_nodes AS (UPDATE graph_nodes n SET type = i.type, labels = i.labels, ' +
      'changed_at = now() FROM nodes_in i WHERE n.id = i.id ' +
      'AND (n.type IS DISTINCT FROM i.type OR n.labels IS DISTINCT FROM i.labels) ' +
      'RETURNING n.changed_at), ' +
      'absent AS (SELECT * FROM nodes_in i ' +
      'WHERE NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = i.id)), ' +
      'new_nodes AS (INSERT INTO graph_nodes (id, type, labels) ' +
      'SELECT id, type, labels FROM absent ORDER BY id ON CONFLICT (id) DO NOTHING ' +
      'RETURNING changed_at), ' +
      'new_links AS (INSERT INTO graph_links (source, target, type) ' +
      'SELECT source, target, type FROM links_in ORDER BY source, target, type ' +
      'ON CONFLICT DO NOTHING RETURNING changed_at) ' +
      'SELECT epoch_us(GREATEST((SELECT max(changed_at) FROM changed_nodes), ' +
      '(SELECT max(changed_at) FROM new_nodes), (SELECT max(changed_at) FROM new_links))), ' +
      '(SELECT count(*) FROM absent) - (SELECT count(*) FROM new_nodes)',
  },
  outboxNextId: {
    name: 'outbox_next_id',
    text: 'UPDATE outbox_sequence SET last_id = last_id + 1 ' +
      'RETURNING epoch, last_id, epoch_us(clock_timestamp())',
  },
  outboxAppend: {
    name: 'outbox_append',
    text: 'WITH appended AS (INSERT INTO outbox (id, channel, payload, created_at) ' +
      'VALUES ($1, $2, $3, to_timestamp($4::bigint / 1000000.0)) RETURNING id) ' +
      "SELECT pg_notify('netgraph_outbox', id::text) FROM appended",
  },
};

// The statement netgraph sends as a simple query to begin a transaction (core/store/connection.cc).
const begin = 'BEGIN ISOLATION LEVEL READ COMMITTED';

// As core/domain/voucher.h's ClaimPolicy, from the same settings.
const policy = {
  maxFailures: Number(process.env.NETGRAPH_CLAIM_MAX_FAILURES ?? 10),
  windowSeconds: Number(process.env.NETGRAPH_CLAIM_FAILURE_WINDOW_SECONDS ?? 600),
};

// core/domain/failure.cc's texts for the refusals a claim can give.
const refusals = {
  invalidCode: 'Invalid voucher code',
  notFound: 'Voucher not found',
  alreadyClaimed: 'Voucher already claimed',
  expired: 'Voucher expired',
  revoked: 'Voucher revoked',
  invalidWallet: 'Invalid wallet address',
  walletOfAnother: 'Wallet belongs to another user',
  tooMany: 'Too many attempts',
};

// core/domain/voucher_code.cc: Crockford's base32, separators dropped, O read as 0, I and L as 1.
const codeAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function normalizeVoucherCode(input) {
  if (input.length > 64) return null;
  let code = '';
  for (let c of input) {
    if (c === '-' || c === ' ') continue;
    c = c.toUpperCase();
    if (c === 'O') c = '0';
    if (c === 'I' || c === 'L') c = '1';
    if (!codeAlphabet.includes(c)) return null;
    code += c;
  }
  return code.length === 20 ? code : null;
}

const formatVoucherCode = (code) => code.match(/.{1,4}/g).join('-');

// A Solana address: base58 of exactly 32 bytes (core/crypto/solana_address.h).
const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function isWalletAddress(text) {
  if (text.length < 32 || text.length > 44) return false;
  let value = 0n;
  for (const c of text) {
    const digit = base58Alphabet.indexOf(c);
    if (digit < 0) return false;
    value = value * 58n + BigInt(digit);
  }
  const leadingZeros = text.length - text.replace(/^1+/, '').length;
  const bytes = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2);
  return leadingZeros + bytes === 32;
}

// epoch_us values are microseconds since 1970; DateTime is RFC 3339 in UTC with milliseconds
// (core/domain/date_time.cc).
export const dateTime = (micros) => (micros == null ? null : new Date(Math.floor(Number(micros) / 1000)).toISOString());

const run = (client, statement, values = []) => client.query({ ...statement, values, rowMode: 'array' });

// The voucher as the API shows it (core/api/resolvers.cc VoucherValue), from a row of voucherColumns.
function voucherFromRow(row, decimals) {
  const [id, code, amount, , status, , wallet, expiresAt, claimedAt, redeemedAt] = row;
  return {
    id: String(id),
    code: formatVoucherCode(code),
    amount: Number(amount) / 10 ** decimals,
    status,
    redeemed: status === 'REDEEMED',
    walletAddress: wallet,
    claimedAt: dateTime(claimedAt),
    redeemedAt: dateTime(redeemedAt),
    expiresAt: dateTime(expiresAt),
  };
}

// core/domain/graph_change.cc: nothing when the graph already holds the nodes and links as given;
// otherwise writes them in one statement (core/store/graph.cc, again when a concurrent transaction
// inserted some of the nodes meanwhile) and, when any changed, appends the NetworkUpdate to the
// outbox under the next sequence number.
async function writeGraphChange(client, nodes, links) {
  let changedAt = null;
  const params = [JSON.stringify(nodes), JSON.stringify(links)];
  const { rows: [[holds]] } = await run(client, statements.graphHolds, params);
  if (holds) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    const { rows: [[at, raced]] } = await run(client, statements.graphWrite, params);
    if (at !== null && (changedAt === null || BigInt(at) > changedAt)) changedAt = BigInt(at);
    if (Number(raced) === 0) break;
  }
  if (changedAt === null) return;
  const { rows: [[epoch, id, readUs]] } = await run(client, statements.outboxNextId);
  const payload = JSON.stringify({
    sequence: Number(id),
    epoch,
    appendedAt: Number(readUs),
    nodes,
    links,
    metadata: { nodeCount: nodes.length, linkCount: links.length, lastUpdated: dateTime(changedAt) },
  });
  await run(client, statements.outboxAppend, [id, 'netgraph:graph', payload, readUs]);
}

// Why an existing voucher could not be claimed, as core/domain/voucher.cc tells the caller.
function whyUnclaimable(row, user) {
  const [, , , , status, userId] = row;
  if (userId != null && String(userId) !== user.id) return refusals.notFound;
  if (status === 'EXPIRED') return refusals.expired;
  if (status === 'REVOKED') return refusals.revoked;
  if (userId != null) return refusals.alreadyClaimed;
  return refusals.notFound;
}

// claim_voucher's answers that need no more than the texts (core/domain/voucher.cc, OutcomeOf).
const refusalOf = {
  too_many_attempts: refusals.tooMany,
  invalid_voucher_code: refusals.invalidCode,
  invalid_wallet_address: refusals.invalidWallet,
  wallet_proven_by_another_user: refusals.walletOfAnother,
  wallet_belongs_to_another_user: refusals.walletOfAnother,
};

// One call of claim_voucher: { outcome, row (the voucher's columns, or null), rest }.
async function claimStatement(client, user, code, wallet, graphByCaller) {
  const { rows: [answer] } = await run(client, statements.claimVoucher,
    [user.id, user.publicId, code, wallet, policy.windowSeconds, policy.maxFailures, graphByCaller]);
  const row = answer.slice(1, 1 + voucherColumnCount);
  return { outcome: answer[0], row: row[0] == null ? null : row, rest: answer.slice(1 + voucherColumnCount) };
}

// { voucher } or { refusal } from claim_voucher's answer.
function outcomeOf({ outcome, row, rest }, user) {
  if (refusalOf[outcome]) return { refusal: refusalOf[outcome] };
  if (outcome === 'unclaimable') return { refusal: row ? whyUnclaimable(row, user) : refusals.notFound };
  if (outcome === 'claimed' || outcome === 'claimed_before') return { voucher: voucherFromRow(row, rest[3]) };
  throw new Error(`claim: claim_voucher answered ${outcome}`);
}

// The claim when the graph must change: in a transaction, the graph's change written after it.
async function claimInTransaction(client, user, code, wallet) {
  const answer = await claimStatement(client, user, code, wallet, true);
  if (answer.outcome === 'claimed') {
    const [roundName, , , , walletPublicId] = answer.rest;
    const roundNode = `round-${answer.row[3]}`;
    await writeGraphChange(client, [
      { id: user.publicId, type: 'Investor', labels: ['Investor'] },
      { id: walletPublicId, type: 'Wallet', labels: ['Wallet'] },
      { id: roundNode, type: 'Round', labels: ['Round', roundName] },
    ], [
      { source: user.publicId, target: walletPublicId, type: 'OWNS' },
      { source: walletPublicId, target: roundNode, type: 'INVESTED_IN' },
    ]);
  }
  return outcomeOf(answer, user);
}

// The user of a verified identity, as UserForPrincipal finds or records it.
async function userFor(client, { subject, email }) {
  const usable = typeof email === 'string' && email.length > 0 && email.length <= 320 && email.includes('@') ? email : null;
  const { rows: [known] } = await run(client, statements.usersFindByDid, [subject]);
  const row = known && (!usable || known[2] === usable)
    ? known
    : (await run(client, statements.usersUpsert, [subject, usable])).rows[0];
  return { id: String(row[0]), publicId: row[4] };
}

// Claims `code` to `wallet` for `identity` ({ subject, email }) on a connection of `pool`:
// { voucher } or { refusal }. A lost race (serialization failure, deadlock) runs the transaction
// again, as core/store/connection.cc's InTransaction does, up to five times.
export async function claimVoucher(pool, identity, code, wallet) {
  const client = await pool.connect();
  let broken;
  try {
    const user = await userFor(client, identity);
    const normalized = normalizeVoucherCode(code);
    const valid = isWalletAddress(wallet) ? wallet : null;
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await claimStatement(client, user, normalized, valid, false);
        if (answer.outcome !== 'graph_to_write') return outcomeOf(answer, user);
        break;
      } catch (error) {
        if (attempt === 5 || !['40001', '40P01'].includes(error.code)) throw error;
      }
    }
    for (let attempt = 1; ; attempt++) {
      await client.query(begin);
      try {
        const outcome = await claimInTransaction(client, user, normalized, valid);
        await client.query('COMMIT');
        return outcome;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError) => { broken = rollbackError; });
        if (broken || attempt === 5 || !['40001', '40P01'].includes(error.code)) throw error;
      }
    }
  } catch (error) {
    broken ??= error;
    throw error;
  } finally {
    client.release(broken);
  }
}
