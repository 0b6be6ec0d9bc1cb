// Says what became of an action done offline that did not go through once the server was back: the
// server refused it (it is undone on screen) or the edited message had changed meanwhile (the edit is
// kept in Drafts). Each notice stays until dismissed; main keeps them for a page that opens later.
import { useEffect, useState } from 'react';
import type { ActionNotice } from '../../../shared/ipc/chat';
import { api } from '../../bridge/api';

export function ActionNotices({ accountId }: { accountId: string }) {
  const [notices, setNotices] = useState<ActionNotice[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const add = (notice: ActionNotice) =>
      setNotices((shown) => (shown.some((n) => n.id === notice.id) ? shown : [...shown, notice]));
    const off = api().on('actionNotice', (notice) => {
      if (notice.accountId === accountId) add(notice);
    });
    void api()
      .getActionNotices({ accountId })
      .then((kept) => kept.forEach(add))
      .catch(() => undefined);
    return off;
  }, [accountId]);
  const open = notices.filter(
    (notice) => notice.accountId === accountId && !dismissed.has(notice.id),
  );
  if (open.length === 0) return null;
  return (
    <div className="banner warning action-notices" role="status" aria-label="Offline actions">
      {open.map((notice) => (
        <p key={notice.id}>
          {notice.text}
          {notice.kind === 'conflict' ? ' Open Drafts to find it.' : ''}{' '}
          <button
            type="button"
            onClick={() => setDismissed((gone) => new Set([...gone, notice.id]))}
          >
            Dismiss
          </button>
        </p>
      ))}
    </div>
  );
}
