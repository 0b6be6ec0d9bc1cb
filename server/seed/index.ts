// Seeds a fresh data folder once; a folder that already holds a realm is left untouched, except
// that system bots added since it was seeded are created (no migration needed: they are rows).
import type { SeedKind } from '../config';
import type { RealmContext } from '../realm/context';
import { ensureSystemBots } from '../resources/users/system-bots';
import { realmExists } from './base';
import { seedDemoRealm } from './demo';
import { seedEmptyRealm } from './empty';
import { seedLargeRealm } from './large';

export async function seedRealm(ctx: RealmContext, kind: SeedKind, largeScale = 1): Promise<void> {
  if (!realmExists(ctx.db)) {
    if (kind === 'demo') await seedDemoRealm(ctx);
    else if (kind === 'large') seedLargeRealm(ctx, largeScale);
    else seedEmptyRealm(ctx);
  }
  ensureSystemBots(ctx.db);
}
