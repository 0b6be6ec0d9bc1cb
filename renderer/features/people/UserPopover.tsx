// The small card that opens beside a person's name (a sender, a row of the user list): name, presence,
// role, status and local time, with the full profile as a second step and the everyday actions:
// a direct message, a mention in compose, the messages they sent, mute, copy the email. A popover
// (lib/ui/Popover), non-modal: Esc or a click elsewhere closes it and focus returns to the name it
// was opened from.
import { useMemo, useState, type ReactNode } from 'react';
import { AtSign, Bell, BellOff, Copy, History, MessageSquare, UserRound } from 'lucide-react';
import { useChatStore, useIsUserMuted, useUser, useUserStatus } from '../../store/hooks';
import { localTimeIn } from '../../lib/format';
import { api, errorText } from '../../bridge/api';
import { navigate, requestCompose, uiStore } from '../../store/ui-store';
import { startDirectMessage } from './start-direct-message';
import { PresenceDot } from './PresenceDot';
import { RoleAndStatus } from './UserProfile';
import { Popover } from '../../lib/ui/Popover';
import { ListAvatar } from './UserList';

/** Where the name was on screen (the card's place when the name itself is gone). */
export interface PopoverAnchor {
  top: number;
  bottom: number;
  left: number;
}

/** Opens the card for a user beside the element that was clicked. */
export function openUserPopover(userId: number, target: HTMLElement): void {
  const r = target.getBoundingClientRect();
  uiStore.setState({
    overlay: { kind: 'user', userId, anchor: { top: r.top, bottom: r.bottom, left: r.left } },
  });
  lastOpener = target;
}

/** The element the card was opened from: it stands beside it while that is on the page. */
let lastOpener: HTMLElement | null = null;

const closeCard = () => uiStore.setState({ overlay: null });

export function UserPopover({ userId, anchor }: { userId: number; anchor: PopoverAnchor }) {
  const user = useUser(userId);
  const status = useUserStatus(userId);
  const muted = useIsUserMuted(userId);
  const accountId = useChatStore((s) => s.activeAccountId);
  const selfUserId = useChatStore((s) =>
    s.activeAccountId ? s.accounts[s.activeAccountId]?.selfUserId : undefined,
  );
  const [note, setNote] = useState<string | null>(null);
  // The name while it is on the page (the card follows it as the list scrolls), else where it was.
  const placedBy = useMemo(
    () =>
      lastOpener?.isConnected && lastOpener.getBoundingClientRect().top === anchor.top
        ? lastOpener
        : anchor,
    [anchor],
  );

  if (!user) return null;
  const time = localTimeIn(user.timezone);
  const closeAnd = (action: () => void) => () => {
    closeCard();
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
  // The address the viewer may see: the real one where the realm shows it, else the public one
  // unless it is the realm's stand-in (`user123@…`), which nobody can write to.
  const email = visibleEmail(user.delivery_email, user.email, userId);
  const copyEmail = () => {
    if (!email) return;
    navigator.clipboard.writeText(email).then(
      () => setNote('Email copied'),
      () => setNote('Could not copy the email'),
    );
  };
  const isSelf = userId === selfUserId;
  return (
    <Popover
      label={`User card: ${user.full_name}`}
      className="user-popover"
      open
      onOpenChange={(open) => !open && closeCard()}
      anchor={placedBy}
    >
      <div className="user-popover-head">
        {accountId ? <ListAvatar accountId={accountId} user={user} /> : null}
        <div>
          <strong className="user-popover-name">
            <PresenceDot userId={userId} /> {user.full_name}
          </strong>
          {email ? <p className="user-popover-email">{email}</p> : null}
          <RoleAndStatus user={user} status={status} />
          {time ? <p>Local time {time}</p> : null}
        </div>
      </div>
      {muted ? <p className="muted-note">You have muted this user.</p> : null}
      <div className="actions">
        <CardAction
          icon={<UserRound />}
          onClick={() => uiStore.setState({ overlay: { kind: 'profile', userId } })}
        >
          View profile
        </CardAction>
        <CardAction icon={<MessageSquare />} onClick={closeAnd(() => startDirectMessage(userId))}>
          Send direct message
        </CardAction>
        <CardAction
          icon={<AtSign />}
          onClick={closeAnd(() => requestCompose('reply', `@**${user.full_name}** `))}
        >
          Mention
        </CardAction>
        <CardAction
          icon={<History />}
          onClick={closeAnd(() =>
            navigate({ kind: 'narrow', narrow: [{ operator: 'sender', operand: userId }] }),
          )}
        >
          View messages sent
        </CardAction>
        {email ? (
          <CardAction icon={<Copy />} onClick={copyEmail}>
            Copy email
          </CardAction>
        ) : null}
        {isSelf ? null : (
          <CardAction icon={muted ? <Bell /> : <BellOff />} onClick={toggleMute}>
            {muted ? 'Unmute this user' : 'Mute this user'}
          </CardAction>
        )}
      </div>
      {note ? (
        <p className="user-popover-note" role="status">
          {note}
        </p>
      ) : null}
    </Popover>
  );
}

/** One of the card's actions: a row with its icon, as the public web app's card lists them. */
function CardAction({
  icon,
  onClick,
  children,
}: {
  icon: ReactNode;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="user-popover-action" onClick={onClick}>
      <span className="user-popover-icon" aria-hidden="true">
        {icon}
      </span>
      {children}
    </button>
  );
}

/** The realm's stand-in address for a user whose email it hides (`user123@domain`). */
function visibleEmail(
  deliveryEmail: string | null | undefined,
  email: string,
  userId: number,
): string | null {
  if (deliveryEmail) return deliveryEmail;
  return email.startsWith(`user${userId}@`) ? null : email;
}
