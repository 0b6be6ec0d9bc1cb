// What a first launch's account cache starts from (docs/first-screen.md, "A first launch from the
// build's seed"): the demo owner's register and first page, asked once by the build of the demo
// realm's template (server/seed/template.ts) and kept beside it. A first launch copies that template
// and moves every date by the time since it was seeded (DEMO_TIME_COLUMNS); main moves the seed's
// dates by the same shift (shiftAccountSeed) before it fills the new account's cache with it, so the
// screen shown from the seed is the one the live realm then answers. Pure data: no key is in it
// (the bots' keys are taken out at build, and the owner's is the copy's own, never the template's).
import type { GetMessagesResponse } from './api/endpoints';
import type { Message, RegisterResponse } from './api/types';
import type { FirstScreen } from './ipc/first-screen';
import type { FirstScreenLaunchKey } from './ipc/first-screen-view';
import type { NarrowTerm } from './narrow';

/** The seed's file, in the template's folder. */
export const ACCOUNT_SEED_FILE = 'account-seed.json';
/**
 * What a realm copied from the template leaves for main beside its credentials (demo-seed.json):
 * where the seed is, the template's stamp, and the shift it moved the dates by. Main reads it once.
 */
export const DEMO_SEED_NOTE_FILE = 'demo-seed.json';

/**
 * The first screens the build made of the demo (scripts/demo-first-screens.ts): the real app, run
 * against a copy of the template, captured by its own capture path, one a view a first launch
 * opens. Kept beside the template; main gives them to a first launch's demo account with its seed.
 */
export const DEMO_FIRST_SCREENS_FILE = 'first-screens.json';

export interface DemoFirstScreens {
  /** The template they were made of: used only with a realm copied from that one. */
  stamp: SeedStamp;
  /** The build's page (dist/renderer/index.html) they were made with, by size and time. */
  renderer: { size: number; mtimeMs: number };
  /** Each for the launches its keys name; empty when none could be made (said why). */
  screens: Array<{ keys: FirstScreenLaunchKey[]; screen: FirstScreen }>;
  /** Why there are none (no Chromium, …). */
  skipped?: string;
}

/** A page as the renderer first asks it (renderer/features/messages/first-page.ts). */
export interface SeedPageRequest {
  anchor: 'first_unread' | 'newest';
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

/** The views whose first page a first launch asks: All messages (the Inbox is the snapshot's). */
export const SEEDED_PAGES: ReadonlyArray<{ narrow: NarrowTerm[]; request: SeedPageRequest }> = [
  {
    narrow: [],
    request: { anchor: 'first_unread', numBefore: 50, numAfter: 50, includeAnchor: true },
  },
];

/** The template's stamp as its template.json holds it (server/seed/template-stamp.ts). */
export interface SeedStamp {
  schemaVersion: number;
  seededAt: number;
  bundle: { size: number; mtimeMs: number };
}

export interface AccountSeed {
  /** The template it was asked of: used only with a realm copied from that one. */
  stamp: SeedStamp;
  /** The demo owner, whose account it is. */
  userId: number;
  email: string;
  register: RegisterResponse;
  pages: Array<{ narrow: NarrowTerm[]; request: SeedPageRequest; page: GetMessagesResponse }>;
  /**
   * The build's first screens of the demo and the shift their times move by, as the seed's did
   * (main adds them when it reads the seed: electron/cache/account-seed.ts, and moves them as it
   * keeps them); none in the file the build keeps.
   */
  firstScreens?: { screens: DemoFirstScreens['screens']; shiftSeconds: number };
}

export interface DemoSeedNote {
  seedFile: string;
  stamp: SeedStamp;
  shiftSeconds: number;
}

/** The person a first launch of the demo signs in as: its owner, a human (the first user if none). */
export function demoOwner<User extends { role: number; is_bot: boolean }>(
  users: readonly User[],
): User | undefined {
  return users.find((user) => user.role === 100 && !user.is_bot) ?? users[0];
}

/** Whether two stamps name the same template (same schema, same seeding, same bundle). */
export function sameStamp(a: SeedStamp, b: SeedStamp): boolean {
  return (
    a.schemaVersion === b.schemaVersion &&
    a.seededAt === b.seededAt &&
    a.bundle?.size === b.bundle?.size &&
    a.bundle?.mtimeMs === b.bundle?.mtimeMs
  );
}

/**
 * The seed as the realm at `site` answers it: the template's server ran at another address, which
 * its register says as the realm's URL. Left as it was, links made from it would go to a server
 * that is gone.
 */
export function seedAtSite(seed: AccountSeed, site: string): AccountSeed {
  if (seed.register.realm_url === site) return seed;
  return {
    ...seed,
    register: { ...seed.register, realm_url: site, realm_uri: site } as RegisterResponse,
  };
}

/**
 * The seed as of a realm copied `shiftSeconds` after the template was seeded: every time the copy
 * moved (server/seed/template.ts, DEMO_TIME_COLUMNS) moved alike, nothing else. The seed is new
 * objects; the one given is left as it was.
 */
export function shiftAccountSeed(seed: AccountSeed, shiftSeconds: number): AccountSeed {
  const copy = JSON.parse(JSON.stringify(seed)) as AccountSeed;
  const move = <T extends object>(item: T | null | undefined, ...fields: Array<keyof T>) => {
    if (!item) return;
    for (const field of fields) {
      const value = item[field];
      if (typeof value === 'number') (item[field] as number) = value + shiftSeconds;
    }
  };
  const register = copy.register;
  move(register, 'realm_date_created');
  for (const list of [register.subscriptions, register.unsubscribed, register.never_subscribed])
    for (const channel of list ?? []) move(channel, 'date_created');
  for (const group of register.realm_user_groups ?? []) move(group, 'date_created');
  for (const topic of register.user_topics ?? []) move(topic, 'last_updated');
  for (const presence of Object.values(register.presences ?? {}))
    move(presence, 'active_timestamp', 'idle_timestamp');
  for (const { page } of copy.pages) for (const message of page.messages) moveMessage(message);
  return copy;

  function moveMessage(message: Message) {
    move(message, 'timestamp', 'last_edit_timestamp', 'last_moved_timestamp');
    for (const entry of message.edit_history ?? []) move(entry, 'timestamp');
  }
}
