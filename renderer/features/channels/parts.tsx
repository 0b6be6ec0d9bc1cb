// Small pieces the channel screens share: the sanitized description, a row of tabs, an error line.
import { useMemo } from 'react';
import { sanitizeMessageHtml } from '../../lib/sanitize';

export function ChannelDescription({ html, accountId }: { html: string; accountId: string }) {
  const clean = useMemo(() => sanitizeMessageHtml(html, accountId), [html, accountId]);
  return (
    <div
      className="channel-description rendered-markdown"
      // Sanitized above: the server's rendering of the description is untrusted HTML.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
}: {
  label: string;
  tabs: ReadonlyArray<readonly [T, string]>;
  value: T;
  onChange: (tab: T) => void;
}) {
  return (
    <div className="segmented tabs" role="tablist" aria-label={label}>
      {tabs.map(([id, text]) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={value === id}
          onClick={() => onChange(id)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}
