// What a page answered from this computer's cache may lack (MessagesPage.offline_coverage, issue
// #23): a conversation never kept says so instead of looking empty, one kept in part says older
// messages may be missing. Nothing is said for pages from the server or fully synced ones.
import type { MessagesPage } from '../../../shared/ipc/chat';
import './offline.css';

export const NEVER_KEPT =
  'This conversation is not kept on this computer; it will load when the server is back.';
export const PARTLY_KEPT = 'Older messages may be missing offline.';

/** Said in place of the empty list: a conversation the cache knows nothing about. */
export function neverKept(page: MessagesPage | undefined): boolean {
  return !!page?.from_cache && page.offline_coverage === 'never';
}

/** The quiet line above a list the cache holds only part of. */
export function PartialCoverageNote({ page }: { page: MessagesPage | undefined }) {
  if (!page?.from_cache || page.offline_coverage !== 'partial') return null;
  return (
    <p className="offline-note" role="note" data-testid="offline-coverage">
      {PARTLY_KEPT}
    </p>
  );
}
