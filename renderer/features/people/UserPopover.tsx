// The small card that opens beside a sender's name: name, role, status and local time, with the
// full profile as a second step and a direct message one click away. Non-modal: Escape or a click
// elsewhere closes it and focus returns to the name it was opened from.
import { useEffect, useRef } from 'react';
import { useUser, useUserStatus } from '../../store/hooks';
import { dmNarrow } from '../../../shared/narrow';
import { localTimeIn } from '../../lib/format';
import { navigate, uiStore } from '../../src/ui-store';
import { RoleAndStatus } from './UserProfile';

export interface PopoverAnchor {
  top: number;
  bottom: number;
  left: number;
}

const CARD_WIDTH = 280;
const CARD_HEIGHT_GUESS = 180;

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
  return (
    <div
      ref={ref}
      className="user-popover"
      role="dialog"
      aria-label={`User card: ${user.full_name}`}
      style={style}
    >
      <strong>{user.full_name}</strong>
      <RoleAndStatus user={user} status={status} />
      {time ? <p>Local time {time}</p> : null}
      <div className="actions">
        <button
          type="button"
          onClick={() => uiStore.setState({ overlay: { kind: 'profile', userId } })}
        >
          View profile
        </button>
        <button
          type="button"
          onClick={() => {
            uiStore.setState({ overlay: null });
            navigate({ kind: 'narrow', narrow: dmNarrow([userId]) });
          }}
        >
          Send direct message
        </button>
      </div>
    </div>
  );
}
