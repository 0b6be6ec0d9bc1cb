// Removing an account from this computer (main's removeAccount deletes its key, cache, outbox,
// drafts and entry) and what it would take with it: messages not yet sent, and drafts that exist
// only here. Drafts synced to the server (enable_drafts_synchronization) come back at the next
// sign-in, so only the others count as lost.
import type { OutboxEntry } from '../../../shared/ipc/chat';
import type { LocalDraft } from '../../../shared/ipc/drafts';
import type { AccountState, ChatStore } from '../../store';
import { api } from '../../bridge/api';
import { listUnsent } from '../../bridge/unsent';
import { uiStore } from '../../store/ui-store';
import { forgetAccountView, showAccount } from './switch-account';

export interface UnsentItem {
  id: string;
  /** "#general > lunch", "Farid Member", or "No recipient". */
  to: string;
  content: string;
  /** Main is still trying (pending or sending), as against given up (failed). */
  sending: boolean;
}

export interface AtRisk {
  unsent: UnsentItem[];
  /** Drafts only on this computer. */
  localDrafts: UnsentItem[];
  /** Drafts the server keeps too. */
  syncedDrafts: number;
}

function channelName(account: AccountState | undefined, to: number | string): string {
  if (typeof to === 'string') return to;
  return account?.channels.channels.get(to)?.name ?? `channel ${to}`;
}

function peopleNames(account: AccountState | undefined, ids: number[]): string {
  const names = ids
    .filter((id) => id !== account?.selfUserId || ids.length === 1)
    .map((id) => account?.users.users.get(id)?.full_name ?? `user ${id}`);
  return names.join(', ');
}

function outboxItem(account: AccountState | undefined, entry: OutboxEntry): UnsentItem {
  const m = entry.message;
  return {
    id: entry.localId,
    to:
      m.type === 'channel'
        ? `#${channelName(account, m.to)} > ${m.topic}`
        : peopleNames(account, m.to),
    content: m.content,
    sending: entry.state !== 'failed',
  };
}

function draftItem(account: AccountState | undefined, draft: LocalDraft): UnsentItem {
  const d = draft.draft;
  return {
    id: draft.key,
    to:
      d.type === 'stream' && d.to[0] !== undefined
        ? `#${channelName(account, d.to[0])} > ${d.topic}`
        : d.type === 'private' && d.to.length > 0
          ? peopleNames(account, d.to)
          : 'No recipient',
    content: d.content,
    sending: false,
  };
}

/** Asks main for the account's outbox and drafts (with what the page still holds for it). */
export async function atRisk(
  account: AccountState | undefined,
  accountId: string,
): Promise<AtRisk> {
  const [outbox, drafts] = await Promise.all([
    api().getOutbox({ accountId }),
    api().listDrafts({ accountId }),
  ]);
  const listed = new Set(outbox.map((entry) => entry.localId));
  // Taken by the page but not yet by main (see bridge/unsent.ts): as good as sending.
  const handing = listUnsent()
    .filter((u) => u.accountId === accountId && !listed.has(u.localId))
    .map((u) => ({ ...u, state: 'pending' as const, attempts: 0, lastError: null }));
  return {
    unsent: [...outbox, ...handing].map((entry) => outboxItem(account, entry)),
    localDrafts: drafts
      .filter((d) => !d.synced && d.draft.content.trim())
      .map((d) => draftItem(account, d)),
    syncedDrafts: drafts.filter((d) => d.synced).length,
  };
}

/** Plain text of messages and drafts, for the clipboard: each with where it was going. */
export function asText(items: UnsentItem[]): string {
  return items.map((item) => `To ${item.to}:\n${item.content}`).join('\n\n');
}

/**
 * Removes the account. When it was the one on screen, the next account main chose is shown where it
 * was left, or on its home view (switch-account.ts); with none left, the
 * accounts push takes the window to sign-in (shell/bridge-sync.ts).
 */
export async function removeAccount(store: ChatStore, accountId: string): Promise<void> {
  const wasActive = store.getState().activeAccountId === accountId;
  const changed = await api().removeAccount({ accountId });
  uiStore.setState((s) => {
    const { [accountId]: _gone, ...drafts } = s.drafts;
    return { drafts };
  });
  if (wasActive && changed.activeAccountId) showAccount(store, changed.activeAccountId);
  forgetAccountView(accountId);
}
