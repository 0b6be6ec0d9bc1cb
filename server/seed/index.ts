// Seeds a fresh data folder once; a folder that already holds a realm is left untouched, except
// that system bots added since it was seeded are created (no migration needed: they are rows),
// and seeded passwords whose hash an earlier process had not stored yet are hashed again.
import type { SeedKind } from '../config';
import type { RealmContext } from '../realm/context';
import { ensureSystemBots } from '../resources/users/system-bots';
import { resumeDeferredPasswordHashes } from '../realm/accounts';
import { realmExists } from './base';
import { readSeededPasswords } from './credentials';
import { seedDemoRealm } from './demo';
import { seedEmptyRealm } from './empty';
import { seedLargeRealm } from './large';
import { logRealmTiming } from '../process/timing';

export async function seedRealm(ctx: RealmContext, kind: SeedKind, largeScale = 1): Promise<void> {
  if (!realmExists(ctx.db)) {
    logRealmTiming('realm-seed-start');
    if (kind === 'demo') await seedDemoRealm(ctx);
    else if (kind === 'large') seedLargeRealm(ctx, largeScale);
    else seedEmptyRealm(ctx);
    logRealmTiming('realm-seed-end');
  } else {
    // In case the process that seeded it stopped before storing every password's hash.
    resumeDeferredPasswordHashes(ctx.db, () => readSeededPasswords(ctx.dataDir));
  }
  ensureSystemBots(ctx.db);
}
