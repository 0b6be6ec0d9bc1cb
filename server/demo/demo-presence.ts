// Presence of the demo realm's people, so every client (the public terminal client too) lists them
// as active, idle or offline. Nothing here is forever-active: each time the server starts, a few
// people come online for a while, as if they had the app open, and report through the same path
// as real clients (one report a minute, stored and announced as the public server does); when
// their session ends they stop reporting and age to offline exactly as a person who closed the app.
// Others were last seen hours ago. The owner and dev, whom people sign in as, get nothing made up.
import type { Db } from '../db';
import type { RealmContext } from '../realm/context';
import { PRESENCE } from '../config';
import { reportPresence } from '../resources/users/presence';
import { recordSighting } from '../resources/users/presence-store';

const MINUTE = 60;

/** One demo person's presence after a start; times in minutes. */
export interface DemoPresencePlan {
  /** The email's local part (`admin` is admin@tributary.local). */
  key: string;
  /** Minutes of active use from the start. */
  activeFor?: number;
  /** Then minutes connected but idle (the app left open). */
  idleFor?: number;
  /** For someone connected but idle from the start: last active this long before it. */
  lastActiveAgo?: number;
  /** For someone offline: last seen (active and connected) this long before the start. */
  lastSeenAgo?: number;
}

export const DEMO_PRESENCE: readonly DemoPresencePlan[] = [
  { key: 'admin', activeFor: 40 },
  { key: 'emma', activeFor: 15, idleFor: 20 },
  { key: 'moderator', idleFor: 30, lastActiveAgo: 25 },
  { key: 'farid', lastSeenAgo: 3 * 60 },
  { key: 'guest', lastSeenAgo: 26 * 60 },
];

const DEMO_DOMAIN = 'tributary.local';

/** What each person in a session reports at `now` (seconds): active, idle, or nothing. */
export function demoReports(
  plan: readonly DemoPresencePlan[],
  startedAt: number,
  now: number,
): Array<{ key: string; active: boolean }> {
  const minutes = (now - startedAt) / MINUTE;
  const reports: Array<{ key: string; active: boolean }> = [];
  for (const person of plan) {
    const activeFor = person.activeFor ?? 0;
    const idleFor = person.idleFor ?? 0;
    if (minutes < activeFor) reports.push({ key: person.key, active: true });
    else if (minutes < activeFor + idleFor) reports.push({ key: person.key, active: false });
  }
  return reports;
}

/** Active human demo users by key; realms without them (empty, large) get an empty map. */
function demoPeople(db: Db, plan: readonly DemoPresencePlan[]): Map<string, number> {
  const find = db.prepare<[string], { id: number }>(
    'SELECT id FROM users WHERE email = ? AND is_active = 1 AND is_bot = 0',
  );
  const people = new Map<string, number>();
  for (const { key } of plan) {
    const row = find.get(`${key}@${DEMO_DOMAIN}`);
    if (row) people.set(key, row.id);
  }
  return people;
}

/**
 * Writes the start's sightings and runs the sessions; returns the stop function. A realm without
 * the demo people does nothing.
 */
export function startDemoPresence(
  ctx: RealmContext,
  plan: readonly DemoPresencePlan[] = DEMO_PRESENCE,
): () => void {
  const people = demoPeople(ctx.db, plan);
  if (people.size === 0) return () => {};
  const startedAt = ctx.nowSeconds();
  for (const person of plan) {
    const id = people.get(person.key);
    if (id === undefined) continue;
    if (person.lastSeenAgo !== undefined) {
      const seen = startedAt - person.lastSeenAgo * MINUTE;
      recordSighting(ctx.db, id, seen, seen);
    } else if (person.lastActiveAgo !== undefined) {
      recordSighting(ctx.db, id, startedAt - person.lastActiveAgo * MINUTE, startedAt);
    }
  }
  const tick = () => {
    const reports = demoReports(plan, startedAt, ctx.nowSeconds());
    for (const { key, active } of reports) {
      const id = people.get(key);
      if (id !== undefined) reportPresence(ctx, id, active);
    }
    if (reports.length === 0) clearInterval(timer);
  };
  const timer = setInterval(tick, PRESENCE.pingIntervalSeconds * 1000);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
