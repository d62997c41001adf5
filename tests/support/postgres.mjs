// The stack's PostgreSQL from tests: psql one-liners, and a session of the test's own that holds a
// row lock (to make the service's statements wait on it).
import { execFileSync, spawn } from 'node:child_process';

export function psql(sql) {
  return execFileSync('psql', [process.env.DATABASE_URL, '-tAc', sql], { encoding: 'utf8' }).trim();
}

// A psql session of its own that locks `user`'s row until release().
export async function lockUserRow(user) {
  const holder = spawn('psql', [process.env.DATABASE_URL, '-qtA', '-v', 'ON_ERROR_STOP=1'],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => holder.on('exit', resolve));
  const locked = new Promise((resolve) => holder.stdout.once('data', resolve));
  holder.stdin.write(`BEGIN; SELECT id FROM users WHERE idp_did = '${user.did}' FOR UPDATE;\n`);
  await locked;
  return {
    async release() {
      if (holder.exitCode === null) holder.stdin.end('ROLLBACK;\n\\q\n');
      await exited;
    },
  };
}
