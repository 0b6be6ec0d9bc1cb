// The channel's privacy as the public web app marks it: # public, a lock private, a globe
// web-public. Drawn as SVG: emoji fonts are not everywhere (headless Chromium on Linux has none).
import type { Channel } from '../../../shared/api/types';

type Privacy = Pick<Channel, 'invite_only' | 'is_web_public'>;

export function privacyLabel(channel: Privacy): string {
  if (channel.invite_only) return 'Private channel';
  if (channel.is_web_public) return 'Web-public channel';
  return 'Public channel';
}

const LOCK = (
  <path d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z" fill="currentColor" />
);
const GLOBE = (
  <g fill="none" stroke="currentColor" strokeWidth="1.4">
    <circle cx="8" cy="8" r="6.3" />
    <path d="M1.7 8h12.6M8 1.7c2 2 2 10.6 0 12.6M8 1.7c-2 2-2 10.6 0 12.6" />
  </g>
);
const HASH = (
  <path
    d="M6 2 5 14M11 2l-1 12M2.5 5.5h12M1.5 10.5h12"
    stroke="currentColor"
    strokeWidth="1.6"
    fill="none"
  />
);

export function PrivacyIcon({ channel }: { channel: Privacy }) {
  const label = privacyLabel(channel);
  const shape = channel.invite_only ? LOCK : channel.is_web_public ? GLOBE : HASH;
  return (
    <svg
      className="privacy-icon"
      role="img"
      aria-label={label}
      viewBox="0 0 16 16"
      width="13"
      height="13"
    >
      <title>{label}</title>
      {shape}
    </svg>
  );
}

/** A person outline, for subscriber counts. */
export function PersonIcon() {
  return (
    <svg className="person-icon" aria-hidden="true" viewBox="0 0 16 16" width="12" height="12">
      <circle cx="8" cy="5" r="3" fill="currentColor" />
      <path d="M2 15c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5z" fill="currentColor" />
    </svg>
  );
}
