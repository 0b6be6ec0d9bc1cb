// A first launch's demo account starts from the seed the build kept beside the demo realm's
// template (shared/demo-seed.ts; docs/first-screen.md): its cache is filled with the owner's register
// and first page, sealed with the new account's own key like anything the cache keeps, so the
// session starts as a returning launch from the cache does and registers once the page has painted.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  ACCOUNT_SEED_FILE,
  DEMO_FIRST_SCREENS_FILE,
  DEMO_SEED_NOTE_FILE,
  sameStamp,
  seedAtSite,
  shiftAccountSeed,
  type AccountSeed,
  type DemoFirstScreens,
  type DemoSeedNote,
} from '../../shared/demo-seed';
import type { AccountCache } from './account-cache';
import {
  madeByItsBundle,
  readTemplateStamp,
  type DemoTemplateLocation,
} from '../../server/seed/template-stamp';

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
    return withFirstScreens(
      seedAtSite(shiftAccountSeed(seed, note.shiftSeconds), site),
      dirname(note.seedFile),
      note.shiftSeconds,
    );
  } catch {
    return null; // gone or unreadable: the account registers as before
  }
}

/**
 * The seed for the demo owner of a first realm the launcher planned (fork-realm.mjs): read from
 * the build's template itself, since the realm's copy (and its note) may not exist yet, and moved
 * by the shift that copy will apply (the planned time less the template's). Null when the template
 * would not be copied (made by another bundle) or has no seed of its own: main then signs in as
 * without a plan, once the realm listens.
 */
export function demoSeedForPlan(
  template: DemoTemplateLocation,
  plan: { copyAt: number },
  site: string,
): AccountSeed | null {
  const stamp = readTemplateStamp(template.dir);
  if (!stamp || !madeByItsBundle(template)) return null;
  try {
    const seed = JSON.parse(
      readFileSync(join(template.dir, ACCOUNT_SEED_FILE), 'utf8'),
    ) as AccountSeed;
    if (!sameStamp(seed.stamp, stamp)) return null;
    const shift = plan.copyAt - stamp.seededAt;
    return withFirstScreens(seedAtSite(shiftAccountSeed(seed, shift), site), template.dir, shift);
  } catch {
    return null;
  }
}

/**
 * The seed with the first screens the build made of the demo (scripts/demo-first-screens.ts) and
 * the copy's shift their times move by, when they were made of this very template by the page this build
 * serves (dist/renderer, two folders above the template's: server/process/fork-realm.mjs,
 * DEMO_TEMPLATE_DIR); else the seed as it is, and the first launch shows no first screen.
 */
function withFirstScreens(seed: AccountSeed, templateDir: string, shift: number): AccountSeed {
  try {
    const made = JSON.parse(
      readFileSync(join(templateDir, DEMO_FIRST_SCREENS_FILE), 'utf8'),
    ) as DemoFirstScreens;
    const page = statSync(join(templateDir, '..', '..', 'renderer', 'index.html'));
    if (!sameStamp(made.stamp, seed.stamp)) return seed;
    if (made.renderer?.size !== page.size || made.renderer.mtimeMs !== page.mtimeMs) return seed;
    return made.screens.length
      ? { ...seed, firstScreens: { screens: made.screens, shiftSeconds: shift } }
      : seed;
  } catch {
    return seed; // none made (no Chromium at build) or unreadable: the seed alone
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
