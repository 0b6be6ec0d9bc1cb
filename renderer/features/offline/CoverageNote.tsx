// What a page answered from this computer's cache may lack (MessagesPage.offline_coverage, issue
// #23): a conversation never kept says so instead of looking empty, one kept in part says older
// messages may be missing. Nothing is said for pages from the server or fully synced ones.
import type { MessagesPage } from '../../../shared/ipc/chat';
import './offline.css';
import { CacheSearchNote, isKeywordSearch } from './CacheSearchNote';

export const NEVER_KEPT =
  'This conversation is not kept on this computer; it will load when the server is back.';
export const PARTLY_KEPT = 'Older messages may be missing offline.';

/** Said in place of the empty list: a conversation the cache knows nothing about. */
export function neverKept(page: MessagesPage | undefined): boolean {
  return !!page?.from_cache && page.offline_coverage === 'never';
}

/**
 * The quiet line above a list answered from the cache: a keyword search's own note (it covers what
 * a partial copy lacks), else "older messages may be missing" when the cache holds only part.
 */
export function OfflineListNote({
  narrowKey,
  page,
}: {
  narrowKey: string;
  page: MessagesPage | undefined;
}) {
  if (isKeywordSearch(narrowKey)) return <CacheSearchNote narrowKey={narrowKey} page={page} />;
  if (!page?.from_cache || page.offline_coverage !== 'partial') return null;
  return (
    <p className="offline-note" role="note" data-testid="offline-coverage">
      {PARTLY_KEPT}
    </p>
  );
}
