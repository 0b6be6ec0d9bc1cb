// Handlers of the accounts domain (shared/ipc/accounts.ts): adding an account by password, API key
// or zuliprc text, signing in again, removing and switching, and a session's snapshot. The work is
// done by the services (electron/services.ts); these translate payloads and errors.
import type { accountsMethods } from '../../shared/ipc/accounts';
import type { AccountsChanged, AccountSummary, ServerCheck } from '../../shared/ipc/accounts';
import type { MethodHandlers } from '../../shared/ipc/contract';
import { IpcCodes } from '../../shared/ipc/errors';
import { ApiError } from '../api/errors';
import type { AccountRecord } from './account-store';
import type { AccountSession } from './session';
import { parseZuliprc } from './zuliprc';

export type AccountHandlers = Pick<MethodHandlers, keyof typeof accountsMethods>;

export interface NewAccount {
  site: string;
  email: string;
  password?: string;
  apiKey?: string;
  allowWeakEncryption?: boolean;
}

export interface AccountServices {
  listAccounts(): AccountsChanged;
  checkServer(site: string): Promise<ServerCheck>;
  addAccount(input: NewAccount): Promise<AccountSummary>;
  removeAccount(accountId: string): Promise<AccountsChanged>;
  moveAccount(accountId: string, toIndex: number): AccountsChanged;
  switchAccount(accountId: string): AccountsChanged;
  openDemoRealm(): Promise<AccountsChanged>;
  record(accountId: string): AccountRecord | undefined;
  session(accountId: string): AccountSession;
  /** Every running session (for what concerns them all, such as the first paint at start). */
  allSessions(): Iterable<AccountSession>;
}

type Auth =
  | { kind: 'password'; email: string; password: string }
  | {
      kind: 'apiKey';
      email: string;
      apiKey: string;
    };

const credentials = (auth: Auth) =>
  auth.kind === 'password'
    ? { email: auth.email, password: auth.password }
    : { email: auth.email, apiKey: auth.apiKey };

/** The snapshot may be a RawJson: the transports hand it over as the SnapshotMessage it stands for. */
const snapshotAnswer = (session: AccountSession) =>
  session.snapshotForPage() as ReturnType<AccountSession['getSnapshot']>;

export function accountHandlers(services: AccountServices): AccountHandlers {
  return {
    listAccounts: ({ withActiveSnapshot, firstPageOf }) => {
      const list = services.listAccounts();
      if (!withActiveSnapshot || !list.activeAccountId) return list;
      const session = services.session(list.activeAccountId);
      const answer = { ...list, ...snapshotAnswer(session) };
      return firstPageOf ? { ...answer, firstPage: session.cachedFirstPage(firstPageOf) } : answer;
    },
    checkServer: ({ site }) => services.checkServer(site),
    addAccount: ({ site, auth, allowWeakEncryption }) =>
      services.addAccount({ site, ...credentials(auth), allowWeakEncryption }),
    importZuliprc: ({ text, allowWeakEncryption }) => {
      let parsed;
      try {
        parsed = parseZuliprc(text);
      } catch (error) {
        throw new ApiError('server', 'BAD_REQUEST', (error as Error).message, 400);
      }
      return services.addAccount({ ...parsed, allowWeakEncryption });
    },
    reauthenticate: ({ accountId, auth, allowWeakEncryption }) => {
      const record = services.record(accountId);
      if (!record) throw new ApiError('server', IpcCodes.unknownAccount, 'No such account', 404);
      return services.addAccount({ site: record.site, ...credentials(auth), allowWeakEncryption });
    },
    removeAccount: ({ accountId }) => services.removeAccount(accountId),
    moveAccount: ({ accountId, toIndex }) => services.moveAccount(accountId, toIndex),
    switchAccount: ({ accountId }) => services.switchAccount(accountId),
    openDemoRealm: () => services.openDemoRealm(),
    getSnapshot: ({ accountId }) => snapshotAnswer(services.session(accountId)),
    snapshotShown: ({ accountId }) => {
      services.session(accountId).snapshotShown();
      // Only the active account's snapshot is painted at start: once it is, the other accounts'
      // registers no longer race the first paint, and they wait for nothing else.
      for (const session of services.allSessions()) session.snapshotShown();
      return null;
    },
    resync: ({ accountId }) => {
      services.session(accountId).loop.resync();
      return null;
    },
  };
}
