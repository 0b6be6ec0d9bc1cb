// A person's presence dot, as the public web app draws it: green when active, orange half-filled when
// idle, a hollow circle when offline. It selects one user's status, so it re-renders only when
// that person's status changes.
import { usePresenceStatus } from '../../store/hooks';
import type { PresenceStatus } from '../../store';

const LABELS: Record<PresenceStatus, string> = {
  active: 'Active',
  idle: 'Idle',
  offline: 'Offline',
};

export function PresenceDot({ userId }: { userId: number }) {
  const status = usePresenceStatus(userId);
  return <StatusDot status={status} />;
}

export function StatusDot({ status }: { status: PresenceStatus }) {
  return (
    // Hidden from screen readers: it sits inside names' buttons, whose names stay the person's name
    // (the user list's group headings say the same in words).
    <span
      className={`presence-dot presence-${status}`}
      aria-hidden="true"
      title={LABELS[status]}
      data-presence={status}
    />
  );
}
