// Where one account's own files live on this computer: DATA/accounts/<id>/ holds its outbox, its queue
// of actions done offline (actions.json), drafts and local cache (electron/cache). Removing the
// account removes the folder, so nothing it wrote outlives it (the session stops writing its queue
// first: AccountSession.forgetLocalState).
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export function accountFolder(dataDir: string, accountId: string): string {
  return join(dataDir, 'accounts', accountId);
}

export function deleteAccountFolder(dataDir: string, accountId: string): void {
  rmSync(accountFolder(dataDir, accountId), { recursive: true, force: true });
}
