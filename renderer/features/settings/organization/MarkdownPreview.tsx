// A Markdown text as the server renders it (POST /messages/render through main), sanitized and
// decorated as message content is: the organization description's preview.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, errorText } from '../../../bridge/api';
import { messageBodyHtml } from '../../messages/rich-content';
import { handleContentClick } from '../../messages/content-controls';

export function MarkdownPreview({ accountId, source }: { accountId: string; source: string }) {
  const rendered = useQuery({
    queryKey: ['org-markdown-preview', accountId, source],
    queryFn: () => api().renderMessage({ accountId, content: source }),
    enabled: source.trim() !== '',
    retry: false,
    staleTime: Infinity,
  });
  const raw = rendered.data?.rendered;
  const html = useMemo(
    () => (raw === undefined ? '' : messageBodyHtml(raw, accountId)),
    [raw, accountId],
  );
  if (source.trim() === '') return <p className="placeholder">Nothing to preview.</p>;
  if (rendered.isError) {
    return <p role="alert">Could not render the preview: {errorText(rendered.error)}</p>;
  }
  return (
    <div
      className="org-markdown-preview message-content"
      aria-label="Description preview"
      role="region"
      aria-busy={rendered.isPending}
      onClick={handleContentClick}
      // Server HTML, sanitized by messageBodyHtml (DOMPurify) like every message body.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
