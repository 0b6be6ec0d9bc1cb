// Seeds a fresh data folder once; a folder that already holds a realm is left untouched.
import type { RealmContext } from '../realm/context';
import { realmExists } from './base';
import { seedDemoRealm } from './demo';
import { seedEmptyRealm } from './empty';

export async function seedRealm(ctx: RealmContext, kind: 'demo' | 'empty'): Promise<void> {
  if (realmExists(ctx.db)) return;
  if (kind === 'demo') await seedDemoRealm(ctx);
  else seedEmptyRealm(ctx);
}
