// Accounts: adding (password, API key or zuliprc), listing, switching, removing, and the per-account
// realm state (snapshot) with its connection state. API keys never appear in any payload here.
import * as z from 'zod';
import type { RegisterResponse } from '../api/types';
import type { ServerEvent } from '../api/events';
import type { NarrowTerm } from '../narrow';
import { narrowTerm, type MessagesPage } from './chat';
import { accountId, forAccount, payload, type ConnectionState } from './common';
import { method, push } from './define';

export type SecretBackend = 'safe-storage' | 'safe-storage-basic-text' | 'file-0600';

export interface AccountSummary {
  id: string;
  site: string;
  email: string;
  userId: number | null;
  realmName: string;
  featureLevel: number;
  secretBackend: SecretBackend;
  connection: ConnectionState;
}

export interface ServerCheck {
  site: string;
  realmName: string;
  featureLevel: number;
  version: string;
  realmIcon: string | null;
  emailAuthEnabled: boolean;
}

export interface AccountsChanged {
  accounts: AccountSummary[];
  activeAccountId: string | null;
}

/** The realm state after a (re-)registration. Replaces whatever the renderer held for the account. */
export interface SnapshotMessage {
  accountId: string;
  queueId: string;
  register: RegisterResponse;
  /**
   * The register left the people out (a first sign-in, electron/accounts/session.ts): they come
   * with a `people` push; until then the page shows them as loading.
   */
  peoplePending?: boolean;
}

/** The people a first sign-in's register left out (SnapshotMessage.peoplePending), and what changed them since. */
export interface PeopleMessage {
  accountId: string;
  queueId: string;
  people: Pick<RegisterResponse, 'realm_users' | 'realm_non_active_users' | 'cross_realm_bots'>;
  /** The queue's `realm_user` events held until now, in order, applied over the people. */
  events: ServerEvent[];
}

/** Events from one poll response, in order, heartbeats left out. */
export interface EventBatch {
  accountId: string;
  queueId: string;
  events: ServerEvent[];
}

/** What getSnapshot answers: an account's latest snapshot, every event since, and how it connects. */
export interface SnapshotAnswer {
  snapshot: SnapshotMessage | null;
  events: ServerEvent[];
  connection: ConnectionState;
  /** The snapshot is the local cache's, from before this launch (the server has not answered). */
  fromCache?: boolean;
  /** With fromCache: it is the seed the app was built with (a first launch), not saved by a run. */
  seeded?: boolean;
  /** The conversation open when the app last ran (local cache). */
  lastNarrow?: NarrowTerm[] | null;
  /** With fromCache: that conversation's first page from the cache, so it shows without a call. */
  lastPage?: MessagesPage | null;
}

export interface ConnectionMessage {
  accountId: string;
  state: ConnectionState;
}

const site = z.string().trim().min(1).max(2048);
const email = z.string().trim().min(1).max(320);

export const addAccountAuth = z.discriminatedUnion('kind', [
  payload({ kind: z.literal('password'), email, password: z.string().min(1).max(1024) }),
  payload({ kind: z.literal('apiKey'), email, apiKey: z.string().min(1).max(256) }),
]);

export const accountsMethods = {
  /**
   * The accounts; `withActiveSnapshot` adds getSnapshot's answer for the active one (its fields
   * beside the list, none without an active account): a page's first call, one round trip to main
   * instead of two before it can show anything. `firstPageOf`, the conversation the page opens
   * whatever the snapshot says (a view its URL chose), adds that conversation's first page as
   * getMessages would answer it now, when main's cache settles it without the server (`firstPage`;
   * null: ask getMessages).
   */
  listAccounts: method<
    AccountsChanged & Partial<SnapshotAnswer> & { firstPage?: MessagesPage | null }
  >()(
    payload({
      withActiveSnapshot: z.boolean().optional(),
      firstPageOf: z.array(narrowTerm).max(20).optional(),
    }),
  ),
  checkServer: method<ServerCheck>()(payload({ site })),
  addAccount: method<AccountSummary>()(
    payload({
      site,
      auth: addAccountAuth,
      /** The user agreed to store the key with Linux's weak basic_text backend. */
      allowWeakEncryption: z.boolean().optional(),
    }),
  ),
  /** Imports a zuliprc-style file's text ([api] email, key, site). */
  importZuliprc: method<AccountSummary>()(
    payload({
      text: z
        .string()
        .min(1)
        .max(64 * 1024),
      allowWeakEncryption: z.boolean().optional(),
    }),
  ),
  /** Signs a signed-out account in again (new key for the same site and email). */
  reauthenticate: method<AccountSummary>()(
    forAccount({ auth: addAccountAuth, allowWeakEncryption: z.boolean().optional() }),
  ),
  /** Removes the account from this computer: its key, cache, outbox, drafts and entry. */
  removeAccount: method<AccountsChanged>()(forAccount({})),
  /** Puts the account at `toIndex` in the list (clamped): the account rail's order. */
  moveAccount: method<AccountsChanged>()(forAccount({ toIndex: z.number().int().min(0).max(999) })),
  switchAccount: method<AccountsChanged>()(forAccount({})),
  /**
   * Signs in to the demo organization this computer runs (the local realm server), or finds that
   * account, and makes it the active one. Offered on the sign-in screen after it was removed.
   */
  openDemoRealm: method<AccountsChanged>()(payload({})),
  /** The latest snapshot plus every event delivered since it, for a renderer that (re)starts. */
  getSnapshot: method<SnapshotAnswer>()(forAccount({})),
  /**
   * The page has painted the snapshot getSnapshot gave it. An account started from the local cache
   * registers with its server only then (or a few seconds after start without it): the fresh
   * snapshot would otherwise compete with the page's first paint for the CPU.
   */
  snapshotShown: method<null>()(forAccount({})),
  /** Drops the queue and registers again (the renderer receives a fresh snapshot). */
  resync: method<null>()(forAccount({})),
} as const;

export const accountsPushes = {
  accounts: push<AccountsChanged>(),
  snapshot: push<SnapshotMessage>(),
  people: push<PeopleMessage>(),
  events: push<EventBatch>(),
  connection: push<ConnectionMessage>(),
} as const;

export { accountId };
