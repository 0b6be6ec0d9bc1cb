// Accounts for load benches, made through the API by the realm's owner.
import type { ApiClient } from '../../test/support/client';

export interface BenchAccount {
  id: number;
  /** The Authorization header (HTTP Basic with the account's API key). */
  authorization: string;
}

export function check(res: { status: number; text: string }, what: string): void {
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${res.text}`);
}

/** `count` new members, `${prefix}${i}@tributary.local`, with their API keys. */
export async function createAccounts(
  owner: ApiClient,
  count: number,
  prefix: string,
): Promise<BenchAccount[]> {
  const accounts: BenchAccount[] = [];
  // In small parallel batches: account creation hashes passwords (scrypt), which dominates setup.
  for (let first = 0; first < count; first += 10) {
    const batch = Array.from({ length: Math.min(10, count - first) }, async (_, j) => {
      const i = first + j;
      const email = `${prefix}${i}@tributary.local`;
      const password = `${prefix}-password-${i}`;
      const created = await patiently(() =>
        owner.post('/users', { email, password, full_name: `${prefix} ${i}` }),
      );
      check(created, 'POST /users');
      const key = await patiently(() =>
        owner.post('/fetch_api_key', { username: email, password }),
      );
      check(key, 'POST /fetch_api_key');
      const token = Buffer.from(`${email}:${key.body.api_key as string}`).toString('base64');
      return { id: created.body.user_id as number, authorization: `Basic ${token}` };
    });
    accounts.push(...(await Promise.all(batch)));
  }
  return accounts;
}

/**
 * Setup is not what a bench measures: a request the server's time budget refuses (hostile-load runs
 * with it on, and a loaded machine makes each account cost more) is sent again after Retry-After.
 */
export async function patiently<T extends { status: number; body?: Record<string, unknown> }>(
  send: () => Promise<T>,
): Promise<T> {
  for (;;) {
    const res = await send();
    if (res.status !== 429) return res;
    const seconds = Number(res.body?.['retry-after'] ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.min(30, seconds) * 1000));
  }
}
