// "Schedule" next to Send: presets (tomorrow and Monday at 9 am) and a date and time of one's own.
// The server sends the message at that time; compose clears as after a send and says when it will
// go out. The list of scheduled messages is the "Scheduled messages" view. The choices are a
// popover (lib/ui/Popover) above the button, kept inside the conversation (off the sidebars).
import { useEffect, useRef, useState } from 'react';
import { Popover } from '../../lib/ui/Popover';
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
  /** The conversation the control is in: the choices stay inside it. */
  const [conversation, setConversation] = useState<Element | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setConversation(button.current?.closest('main') ?? null), []);
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
      <Popover
        label="Schedule message"
        className="schedule-menu"
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setError(null);
        }}
        side="top"
        align="end"
        collisionBoundary={conversation}
        trigger={
          <button type="button" disabled={!message} ref={button}>
            Schedule
          </button>
        }
      >
        <TimeChoices
          busy={busy}
          error={error}
          inputLabel="Send at"
          submitLabel="Schedule at this time"
          onChoose={schedule}
        />
      </Popover>
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
