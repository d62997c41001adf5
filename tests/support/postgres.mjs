// PostgreSQL from the Node tests: the one helper they reach it with. psql one-liners (the stack's
// database, DATABASE_URL, unless `url` names another), and a session of the test's own that holds
// locks (to make the service's statements, or the relay, wait on it).
import { execFileSync, spawn } from 'node:child_process';

// The text psql prints for `sql` (unaligned, tuples only, trimmed).
export function psql(sql, { url = process.env.DATABASE_URL } = {}) {
  return execFileSync('psql', [url, '-tAc', sql], { encoding: 'utf8' }).trim();
}

// `sql` returns one JSON value (json_agg, json_build_object...): that value.
export function psqlJson(sql, options) {
  return JSON.parse(psql(sql, options));
}

// `sql`'s rows, each an array of its fields' text.
export function psqlRows(sql, { url = process.env.DATABASE_URL } = {}) {
  const out = execFileSync('psql', [url, '-tAF', '\t', '-c', sql], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((line) => line.split('\t'));
}

// A psql session of its own that runs `lockingSelect` (a SELECT ... FOR UPDATE, or one taking an
// advisory lock) inside a transaction and holds the locks until release() ends the session.
export async function holdLock(lockingSelect, { url = process.env.DATABASE_URL } = {}) {
  const holder = spawn('psql', [url, '-qtA', '-v', 'ON_ERROR_STOP=1'],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => holder.on('exit', resolve));
  const locked = new Promise((resolve) => holder.stdout.once('data', resolve));
  holder.stdin.write(`BEGIN; ${lockingSelect};\n`);
  await locked;
  return {
    async release() {
      if (holder.exitCode === null) holder.stdin.end('ROLLBACK;\n\\q\n');
      await exited;
    },
  };
}

// Locks `user`'s row until release().
export function lockUserRow(user) {
  return holdLock(`SELECT id FROM users WHERE idp_did = '${user.did}' FOR UPDATE`);
}
