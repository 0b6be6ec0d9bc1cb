// The small card that opens beside a person's name (a sender, a row of the user list): name, presence,
// role, status and local time, with the full profile as a second step and the everyday actions:
// a direct message, a mention in compose, the messages they sent, mute, copy the email. Non-modal:
// Escape or a click elsewhere closes it and focus returns to the name it was opened from.
import { useEffect, useRef, useState } from 'react';
import { useChatStore, useIsUserMuted, useUser, useUserStatus } from '../../store/hooks';
import { dmNarrow } from '../../../shared/narrow';
import { localTimeIn } from '../../lib/format';
import { api, errorText } from '../../bridge/api';
import { navigate, requestCompose, uiStore } from '../../store/ui-store';
import { PresenceDot } from './PresenceDot';
import { RoleAndStatus } from './UserProfile';

export interface PopoverAnchor {
  top: number;
  bottom: number;
  left: number;
}

const CARD_WIDTH = 280;
const CARD_HEIGHT_GUESS = 300;

/** Opens the card for a user beside the element that was clicked. */
export function openUserPopover(userId: number, target: HTMLElement): void {
  const r = target.getBoundingClientRect();
  uiStore.setState({
    overlay: { kind: 'user', userId, anchor: { top: r.top, bottom: r.bottom, left: r.left } },
  });
  lastOpener = target;
}

/** The element the card was opened from, focused again when it closes. */
let lastOpener: HTMLElement | null = null;

export function UserPopover({ userId, anchor }: { userId: number; anchor: PopoverAnchor }) {
  const user = useUser(userId);
  const status = useUserStatus(userId);
  const muted = useIsUserMuted(userId);
  const accountId = useChatStore((s) => s.activeAccountId);
  const selfUserId = useChatStore((s) =>
    s.activeAccountId ? s.accounts[s.activeAccountId]?.selfUserId : undefined,
  );
  const [note, setNote] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const close = () => {
      uiStore.setState({ overlay: null });
      lastOpener?.focus();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
      }
    };
    const onPointer = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);

  if (!user) return null;
  // Below the name, or above it when the window has no room below.
  const below = anchor.bottom + CARD_HEIGHT_GUESS < window.innerHeight;
  const style = {
    left: Math.max(8, Math.min(anchor.left, window.innerWidth - CARD_WIDTH - 8)),
    ...(below ? { top: anchor.bottom + 4 } : { bottom: window.innerHeight - anchor.top + 4 }),
  };
  const time = localTimeIn(user.timezone);
  const closeAnd = (action: () => void) => () => {
    uiStore.setState({ overlay: null });
    action();
  };
  const toggleMute = () => {
    if (!accountId) return;
    const call = muted ? api().unmuteUser : api().muteUser;
    call({ accountId, userId }).then(
      () => setNote(muted ? 'Unmuted' : 'Muted'),
      (error: unknown) => setNote(errorText(error)),
    );
  };
  const copyEmail = () => {
    const email = user.delivery_email ?? user.email;
    navigator.clipboard.writeText(email).then(
      () => setNote('Email copied'),
      () => setNote('Could not copy the email'),
    );
  };
  const isSelf = userId === selfUserId;
  return (
    <div
      ref={ref}
      className="user-popover"
      role="dialog"
      aria-label={`User card: ${user.full_name}`}
      style={style}
    >
      <strong className="user-popover-name">
        <PresenceDot userId={userId} /> {user.full_name}
      </strong>
      <RoleAndStatus user={user} status={status} />
      {time ? <p>Local time {time}</p> : null}
      {muted ? <p className="muted-note">You have muted this user.</p> : null}
      <div className="actions">
        <button
          type="button"
          onClick={() => uiStore.setState({ overlay: { kind: 'profile', userId } })}
        >
          View profile
        </button>
        <button
          type="button"
          onClick={closeAnd(() => navigate({ kind: 'narrow', narrow: dmNarrow([userId]) }))}
        >
          Send direct message
        </button>
        <button
          type="button"
          onClick={closeAnd(() => requestCompose('reply', `@**${user.full_name}** `))}
        >
          Mention
        </button>
        <button
          type="button"
          onClick={closeAnd(() =>
            navigate({ kind: 'narrow', narrow: [{ operator: 'sender', operand: userId }] }),
          )}
        >
          View messages sent
        </button>
        <button type="button" onClick={copyEmail}>
          Copy email
        </button>
        {isSelf ? null : (
          <button type="button" onClick={toggleMute}>
            {muted ? 'Unmute this user' : 'Mute this user'}
          </button>
        )}
      </div>
      {note ? (
        <p className="user-popover-note" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
