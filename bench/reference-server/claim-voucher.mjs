// claimVoucher for the Node peer of bench/write-bench.mjs, as netgraph runs it: the caller's user
// found by its DID first (core/domain/user.cc, UserForPrincipal), then one read-committed
// transaction with the statements of core/domain/voucher.cc's ClaimVoucher in the same order,
// prepared under the same names with the same text (core/store/users.cc, token.cc, wallets.cc,
// vouchers.cc, graph.cc, outbox.cc), the attempt inside a savepoint that a refusal rolls back.
// bench/write-bench.mjs compares, on every run, the statements PostgreSQL logs for one claim from
// each side, so this copy cannot drift from netgraph's without the benchmark saying so.
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
  claimantLock: { name: 'claimant_lock', text: 'SELECT lock_claimant($1, $2)' },
  claimFailuresPrune: {
    name: 'claim_failures_prune',
    text: 'DELETE FROM claim_failures ' +
      'WHERE user_id = $1 AND failed_at <= now() - make_interval(secs => $2::bigint)',
  },
  claimFailuresRecord: { name: 'claim_failures_record', text: 'INSERT INTO claim_failures (user_id) VALUES ($1)' },
  tokenRead: { name: 'token_read', text: 'SELECT name, symbol, decimals FROM token' },
  walletsInsert: {
    name: 'wallets_insert',
    text: 'INSERT INTO wallets (address, user_id) VALUES ($1, $2) ON CONFLICT (address) DO NOTHING',
  },
  walletsFindForKeyShare: {
    name: 'wallets_find_for_key_share',
    text: 'SELECT address, user_id, public_id, proven_at IS NOT NULL FROM wallets WHERE address = $1 FOR KEY SHARE',
  },
  vouchersClaim: {
    name: 'vouchers_claim',
    text: "WITH claimed AS (UPDATE vouchers SET status = 'CLAIMED', user_id = $2, wallet_address = $3, " +
      "claimed_at = now() WHERE code = $1 AND status = 'AVAILABLE' AND (expires_at IS NULL OR expires_at > now()) " +
      `RETURNING ${voucherColumns}) ` +
      'SELECT c.*, r.id, r.name, r.price::float8, r.target::float8, t.decimals ' +
      'FROM claimed c LEFT JOIN rounds r ON r.id = c.round_id LEFT JOIN token t ON true',
  },
  vouchersFindByCode: {
    name: 'vouchers_find_by_code',
    text: `SELECT ${voucherColumns} FROM vouchers WHERE code = $1`,
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

// The statements netgraph sends as simple queries (core/store/connection.cc).
export const begin = 'BEGIN ISOLATION LEVEL READ COMMITTED';
export const savepoint = 'SAVEPOINT netgraph_savepoint';
export const rollBackToSavepoint = 'ROLLBACK TO SAVEPOINT netgraph_savepoint';
export const releaseSavepoint = 'RELEASE SAVEPOINT netgraph_savepoint';

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

// The attempt, inside the savepoint: { voucher } or { refusal }.
async function attemptClaim(client, user, codeText, wallet) {
  const code = normalizeVoucherCode(codeText);
  if (!code) return { refusal: refusals.invalidCode };
  if (!isWalletAddress(wallet)) return { refusal: refusals.invalidWallet };
  await run(client, statements.walletsInsert, [wallet, user.id]);
  const { rows: [[, walletUserId, walletPublicId]] } = await run(client, statements.walletsFindForKeyShare, [wallet]);
  if (String(walletUserId) !== user.id) return { refusal: refusals.walletOfAnother };

  const { rows: [claimed] } = await run(client, statements.vouchersClaim, [code, user.id, wallet]);
  if (!claimed) {
    const { rows: [found] } = await run(client, statements.vouchersFindByCode, [code]);
    if (!found) return { refusal: refusals.notFound };
    const [, , , , status, userId, foundWallet] = found;
    const sameClaim = String(userId) === user.id && foundWallet === wallet &&
      (status === 'CLAIMED' || status === 'REDEEMED');
    if (!sameClaim) return { refusal: whyUnclaimable(found, user) };
    const { rows: [[, , decimals]] } = await run(client, statements.tokenRead);
    return { voucher: voucherFromRow(found, decimals) };
  }
  const [roundId, roundName, , , decimals] = claimed.slice(voucherColumnCount);
  if (roundId == null || decimals == null) throw new Error("claim: the voucher's round or the token row is missing");
  const roundNode = `round-${roundId}`;
  await writeGraphChange(client, [
    { id: user.publicId, type: 'Investor', labels: ['Investor'] },
    { id: walletPublicId, type: 'Wallet', labels: ['Wallet'] },
    { id: roundNode, type: 'Round', labels: ['Round', roundName] },
  ], [
    { source: user.publicId, target: walletPublicId, type: 'OWNS' },
    { source: walletPublicId, target: roundNode, type: 'INVESTED_IN' },
  ]);
  return { voucher: voucherFromRow(claimed, decimals) };
}

async function claimInTransaction(client, user, code, wallet) {
  const { rows: [[failures]] } = await run(client, statements.claimantLock, [user.id, policy.windowSeconds]);
  if (Number(failures) >= policy.maxFailures) return { refusal: refusals.tooMany };
  await client.query(savepoint);
  const outcome = await attemptClaim(client, user, code, wallet);
  if (outcome.refusal) await client.query(rollBackToSavepoint);
  await client.query(releaseSavepoint);
  if (outcome.refusal) {
    await run(client, statements.claimFailuresPrune, [user.id, policy.windowSeconds]);
    await run(client, statements.claimFailuresRecord, [user.id]);
  }
  return outcome;
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
    for (let attempt = 1; ; attempt++) {
      await client.query(begin);
      try {
        const outcome = await claimInTransaction(client, user, code, wallet);
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
