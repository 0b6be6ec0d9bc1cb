// "Schedule" next to Send: presets (tomorrow and Monday at 9 am) and a date and time of one's own.
// The server sends the message at that time; compose clears as after a send and says when it will
// go out. The list of scheduled messages is the "Scheduled messages" view.
import { useState } from 'react';
import type { OutgoingMessage } from '../../../shared/ipc/chat';
import { api, errorText } from '../../bridge/api';
import { navigate } from '../../store/ui-store';
import { formatDateTime } from '../../lib/format';
import { useTwentyFourHour } from '../../store/hooks';
import { TimeChoices } from './TimeChoices';
import type { Destination } from './drafts';

/** What scheduling would send: compose's text to its destination, or null when Send is off too. */
export function scheduledMessageFor(
  text: string,
  destination: Destination | null,
  tooLong: boolean,
): OutgoingMessage | null {
  const content = text.trim();
  if (!content || !destination || tooLong) return null;
  return destination.type === 'stream'
    ? { type: 'channel', to: destination.streamId, topic: destination.topic, content }
    : { type: 'direct', to: destination.to, content };
}

export function ScheduleControl({
  accountId,
  message,
  onScheduled,
}: {
  accountId: string;
  /** What Send would send now; null while there is nothing to send. */
  message: OutgoingMessage | null;
  onScheduled: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [scheduledAt, setScheduledAt] = useState<number | null>(null);
  const twentyFourHour = useTwentyFourHour();

  const schedule = (deliverAt: number | null) => {
    if (!message) return;
    if (deliverAt === null) {
      setError('Choose a date and time.');
      return;
    }
    setBusy(true);
    setError(null);
    api()
      .scheduleMessage({ accountId, message, deliverAt })
      .then(() => {
        setOpen(false);
        setScheduledAt(deliverAt);
        onScheduled();
      })
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };

  return (
    <div className="schedule-control">
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={!message}
        onClick={() => {
          setOpen(!open);
          setError(null);
        }}
      >
        Schedule
      </button>
      {open ? (
        <div className="menu schedule-menu" role="dialog" aria-label="Schedule message">
          <TimeChoices
            busy={busy}
            error={error}
            inputLabel="Send at"
            submitLabel="Schedule at this time"
            onChoose={schedule}
          />
        </div>
      ) : null}
      {scheduledAt !== null && !open ? (
        <p role="status" className="schedule-notice">
          Your message has been scheduled for {formatDateTime(scheduledAt, twentyFourHour)}.{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              setScheduledAt(null);
              navigate({ kind: 'scheduled' });
            }}
          >
            View scheduled messages
          </button>
          <button
            type="button"
            className="link"
            aria-label="Dismiss"
            onClick={() => setScheduledAt(null)}
          >
            ×
          </button>
        </p>
      ) : null}
    </div>
  );
}
