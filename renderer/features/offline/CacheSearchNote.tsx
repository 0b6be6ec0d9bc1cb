// Search results that main found in this computer's cache because the server could not be asked:
// they come from what is kept here, so some matches may be missing (issue #23).
import type { MessagesPage } from '../../../shared/ipc/chat';
import './offline.css';
import { narrowFromKey } from '../../../shared/narrow';

export const FROM_CACHE_SEARCH = 'From this computer; may be incomplete.';

/** A narrow with keywords: what the search box makes of words typed into it. */
export function isKeywordSearch(narrowKey: string): boolean {
  return narrowFromKey(narrowKey).some((term) => term.operator === 'search');
}

export function CacheSearchNote({
  narrowKey,
  page,
}: {
  narrowKey: string;
  page: MessagesPage | undefined;
}) {
  if (!page?.from_cache || !isKeywordSearch(narrowKey)) return null;
  return (
    <p className="offline-note" role="note" data-testid="offline-search-note">
      {FROM_CACHE_SEARCH}
    </p>
  );
}
