// Compose's preview: the message as the server renders it (POST /messages/render through main),
// sanitized and decorated exactly as message rows are, so math, spoilers, code, mentions and emoji
// look as they will once sent.
import { useMemo, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useChatStore } from '../../store/hooks';
import { api, errorText } from '../../bridge/api';
import { messageBodyHtml } from '../messages/rich-content';
import { handleContentClick, handleContentKeyDown } from '../messages/content-controls';

export function Preview({
  accountId,
  content,
  onType,
}: {
  accountId: string;
  content: string;
  /** A character typed while the preview has the focus: back to editing, where it lands. */
  onType: () => void;
}) {
  const twentyFourHour = useChatStore(
    (s) => !!s.accounts[accountId]?.settings.user.twenty_four_hour_time,
  );
  const textEmoji = useChatStore((s) => s.accounts[accountId]?.settings.user.emojiset === 'text');
  const rendered = useQuery({
    queryKey: ['compose-preview', accountId, content],
    queryFn: () => api().renderMessage({ accountId, content }),
    enabled: content.trim() !== '',
    retry: false,
    staleTime: Infinity,
  });
  const raw = rendered.data?.rendered;
  const html = useMemo(() => {
    if (raw === undefined) return '';
    return messageBodyHtml(raw, accountId, { textEmoji, twentyFourHour });
  }, [raw, accountId, textEmoji, twentyFourHour]);

  const region = {
    className: 'compose-preview',
    role: 'region',
    'aria-label': 'Preview',
    tabIndex: -1,
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      if (e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey) return;
      // Not a global shortcut: the key is text for the message.
      e.stopPropagation();
      onType();
    },
  };
  if (!content.trim())
    return (
      <div {...region}>
        <p className="placeholder">Nothing to preview.</p>
      </div>
    );
  return (
    <div {...region} aria-busy={rendered.isPending}>
      {rendered.isError ? (
        <p role="alert" className="error">
          Could not render the preview: {errorText(rendered.error)}
        </p>
      ) : rendered.isPending ? (
        <p className="placeholder">Rendering…</p>
      ) : (
        <div
          className="content"
          data-account-id={accountId}
          onClick={handleContentClick}
          onKeyDown={handleContentKeyDown}
          // Sanitized above by DOMPurify (lib/sanitize.ts), as message rows are.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      )}
    </div>
  );
}
