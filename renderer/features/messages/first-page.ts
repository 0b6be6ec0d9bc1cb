// The open conversation's first page, asked of main as soon as the account's snapshot is in
// (renderer/shell/bridge-sync.ts) rather than after the shell's first full render: at start the
// request then overlaps that render, and the message list's first query takes its answer instead
// of asking again (useMessagePages). The last conversation's page that came with a cached snapshot
// is offered the same way, and then nothing is asked.
import type { MessagesPage } from '../../../shared/ipc/chat';
import { narrowFromKey } from '../../../shared/narrow';
import { api } from '../../bridge/api';

/** Messages per page the list asks for (the first page: half before its anchor, half after). */
export const PAGE_SIZE = 100;

/** Pages asked early, by account and narrow key, with the snapshot generation they were asked in. */
const early = new Map<string, { generation: number; page: Promise<MessagesPage> }>();

const slot = (accountId: string, key: string) => `${accountId}\n${key}`;

/** Asks main now for the list's first page of `key` (around the first unread), for takeFirstPage. */
export function requestFirstPage(accountId: string, key: string, generation: number): void {
  const page = api().getMessages({
    accountId,
    anchor: 'first_unread',
    numBefore: PAGE_SIZE / 2,
    numAfter: PAGE_SIZE / 2,
    narrow: narrowFromKey(key),
    includeAnchor: true,
  });
  // A failure is the taker's to handle (the query retries); nobody may be waiting yet.
  page.catch(() => undefined);
  early.set(slot(accountId, key), { generation, page });
}

/**
 * A first page the page already holds (the last conversation's, which came from main's cache with
 * the snapshot): the list's first query takes it as requestFirstPage's answer. Main would answer
 * that request from the same cache again, since a session started from the cache asks its server
 * nothing before the first paint, and it would do so on the cores the first render needs.
 */
export function offerFirstPage(
  accountId: string,
  key: string,
  generation: number,
  page: MessagesPage,
): void {
  early.set(slot(accountId, key), { generation, page: Promise.resolve(page) });
}

/** Whether a first page of `key` is waiting for the list's first query (asked or offered). */
export function hasFirstPage(accountId: string, key: string, generation: number): boolean {
  return early.get(slot(accountId, key))?.generation === generation;
}

/**
 * The page requestFirstPage asked for (or offerFirstPage offered), once: only for the same snapshot generation (a newer
 * snapshot asks again, as the list does after a resync).
 */
export function takeFirstPage(
  accountId: string,
  key: string,
  generation: number,
): Promise<MessagesPage> | undefined {
  const asked = early.get(slot(accountId, key));
  early.delete(slot(accountId, key));
  return asked?.generation === generation ? asked.page : undefined;
}
