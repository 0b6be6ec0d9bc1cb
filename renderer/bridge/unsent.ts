// Messages the page has taken from the person but main has not yet acknowledged holding durably.
// They live in the page's own storage (localStorage, kept across reloads of this origin) from the
// moment Send is pressed until main lists them in its outbox or answers the send: a host that died
// in between (or was never reachable) loses nothing. When a host is reachable again, the same
// launch or the next one (electron/host/launch-record.ts), the page hands them over with their
// localIds, which main's outbox takes once however often they come (electron/outbox/outbox.ts).
// Browser mode also mirrors the list where a launch on another port finds it, and asks before the
// window closes while it is not empty (renderer/bridge/unsent-handover.ts).
import type { OutgoingMessage } from '../../shared/ipc/chat';
import type { Api } from './api';

export interface UnsentMessage {
  accountId: string;
  localId: string;
  message: OutgoingMessage;
  createdAt: number;
}

const KEY = 'tributary.unsent.v1';

function read(): UnsentMessage[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as UnsentMessage[]) : [];
  } catch {
    return [];
  }
}

const mirrors = new Set<(list: UnsentMessage[]) => void>();

function write(list: UnsentMessage[]): void {
  if (list.length === 0) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify(list));
  for (const mirror of mirrors) mirror(list);
}

/**
 * Told every change of the list, and the list now: browser mode keeps a copy where the next launch
 * finds it even on another port (renderer/bridge/unsent-handover.ts). Returns the unsubscribe.
 */
export function mirrorUnsent(mirror: (list: UnsentMessage[]) => void): () => void {
  mirrors.add(mirror);
  mirror(read());
  return () => mirrors.delete(mirror);
}

export function listUnsent(): UnsentMessage[] {
  return read();
}

/** Before the send leaves the page (stamped now unless it says when it was typed). */
export function keepUnsent(
  unsent: Omit<UnsentMessage, 'createdAt'> & { createdAt?: number },
): void {
  const kept: UnsentMessage = { ...unsent, createdAt: unsent.createdAt ?? Date.now() };
  write([...read().filter((u) => u.localId !== unsent.localId), kept]);
}

/** Main holds it now (listed in its outbox, sent, or refused and kept there as failed). */
export function forgetUnsent(localIds: Iterable<string>): void {
  const gone = new Set(localIds);
  const list = read();
  const kept = list.filter((u) => !gone.has(u.localId));
  if (kept.length !== list.length) write(kept);
}

/** Whether an error means the page could not reach main (so main may not have the message). */
export function isHostUnreachable(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'BRIDGE_CLOSED';
}

let handingOver: Promise<void> | null = null;

/**
 * Hands every kept message to main, oldest first, stopping at the first that cannot reach it (the
 * next connection tries again). Main answers each only once it has written it down.
 */
export function handOverUnsent(api: Api, knownAccounts: ReadonlySet<string>): Promise<void> {
  handingOver ??= (async () => {
    for (const unsent of read().sort((a, b) => a.createdAt - b.createdAt)) {
      // An account removed since: its messages go with it, as its outbox did.
      if (!knownAccounts.has(unsent.accountId)) {
        forgetUnsent([unsent.localId]);
        continue;
      }
      try {
        await api.sendMessage({
          accountId: unsent.accountId,
          message: unsent.message,
          localId: unsent.localId,
        });
      } catch (error) {
        if (isHostUnreachable(error)) return;
      }
      forgetUnsent([unsent.localId]);
    }
  })().finally(() => {
    handingOver = null;
  });
  return handingOver;
}
