// A first launch's demo account starts from the seed the build kept beside the demo realm's
// template (shared/demo-seed.ts; docs/first-screen.md): its cache is filled with the owner's register
// and first page, sealed with the new account's own key like anything the cache keeps, so the
// session starts as a returning launch from the cache does and registers once the page has painted.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEMO_SEED_NOTE_FILE,
  sameStamp,
  seedAtSite,
  shiftAccountSeed,
  type AccountSeed,
  type DemoSeedNote,
} from '../../shared/demo-seed';
import type { AccountCache } from './account-cache';

/**
 * The seed for the demo owner's first sign-in to a realm copied from the build's template, its
 * dates moved as the copy's were; null for anything else (a realm seeded in place, a seed made with
 * another template, another person). The realm's note is read once: a later sign-in (the demo
 * account removed and opened again, its realm used since) takes the normal path.
 */
export function takeDemoSeed(
  realmDir: string,
  site: string,
  owner: { email: string; user_id?: number },
): AccountSeed | null {
  const notePath = join(realmDir, DEMO_SEED_NOTE_FILE);
  let note: DemoSeedNote;
  try {
    note = JSON.parse(readFileSync(notePath, 'utf8')) as DemoSeedNote;
  } catch {
    return null;
  }
  rmSync(notePath, { force: true });
  try {
    const seed = JSON.parse(readFileSync(note.seedFile, 'utf8')) as AccountSeed;
    // A template made again since the copy (a new build) has a seed of another realm.
    if (!sameStamp(seed.stamp, note.stamp)) return null;
    if (seed.email !== owner.email) return null;
    if (owner.user_id !== undefined && seed.userId !== owner.user_id) return null;
    if (typeof note.shiftSeconds !== 'number') return null;
    return seedAtSite(shiftAccountSeed(seed, note.shiftSeconds), site);
  } catch {
    return null; // gone or unreadable: the account registers as before
  }
}

/** Fills a new account's empty cache with the seed; whether it did (a cache with a snapshot is kept). */
export function fillCacheFromSeed(
  cache: AccountCache,
  accountId: string,
  seed: AccountSeed,
): boolean {
  if (cache.hasSnapshot()) return false;
  // No queue: the session registers for one once the page has painted (session.ts, start).
  cache.saveSnapshot({ accountId, queueId: '', register: seed.register });
  for (const { narrow, request, page } of seed.pages)
    cache.recordPage(narrow, request, page, { selfUserId: seed.userId });
  return true;
}
