// First run with no account: sign in to the local realm server as the demo owner, so the app opens on
// a working realm. The realm's credentials file (DIR/local-realm/demo-credentials.json) is written by
// the server's seed; scripts/start.ts starts that server and passes its URL and file here.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { demoOwner } from '../shared/demo-seed';
import { takeDemoSeed } from './cache/account-seed';
import type { MainServices } from './services';

interface DemoCredentials {
  users: Array<{
    user_id?: number;
    email: string;
    api_key: string;
    role: number;
    is_bot: boolean;
  }>;
}

export async function signInToLocalRealm(
  services: MainServices,
  realmUrl: string,
  credentialsFile: string,
  /** besideOthers: asked for from the sign-in screen, so other accounts do not prevent it. */
  options: { besideOthers?: boolean } = {},
): Promise<string | null> {
  if (!options.besideOthers && services.accounts.list().length > 0) return null;
  const file = JSON.parse(readFileSync(credentialsFile, 'utf8')) as DemoCredentials;
  const owner = demoOwner(file.users);
  if (!owner) throw new Error(`${credentialsFile} lists no users`);
  // A first launch's realm copied from the build's template: the account's cache starts from the
  // seed the build kept beside it (electron/cache/account-seed.ts). Not beside other accounts: that
  // realm may have been used since its first sign-in.
  const seed = options.besideOthers
    ? null
    : takeDemoSeed(dirname(credentialsFile), realmUrl, {
        email: owner.email,
        user_id: owner.user_id,
      });
  // This app's own server, with the key its seed wrote: not checked first (addLocalRealmOwner).
  const account = await services.addLocalRealmOwner({
    site: realmUrl,
    email: owner.email,
    apiKey: owner.api_key,
    userId: owner.user_id ?? null,
    seed,
  });
  return account.id;
}
