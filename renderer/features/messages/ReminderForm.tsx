// "Remind me about this" of the message menu: the server's Notification Bot sends you a direct
// message quoting this one at the chosen time (POST /reminders). Offered as the web app offers it:
// in an hour, tomorrow or Monday at 9 am, or a time of your own.
import { useState } from 'react';
import { MenuDialog } from './MenuDialog';
import { api, errorText } from '../../bridge/api';
import { clockNow, formatDateTime } from '../../lib/format';
import { useTwentyFourHour } from '../../store/hooks';
import { TimeChoices } from '../compose/TimeChoices';

export function ReminderForm({
  accountId,
  messageId,
  onClose,
}: {
  accountId: string;
  messageId: number;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [setFor, setSetFor] = useState<number | null>(null);
  const twentyFourHour = useTwentyFourHour();
  const inAnHour = { label: 'In 1 hour', at: Math.floor(clockNow() / 1000) + 3600 };

  const remind = (deliverAt: number | null) => {
    if (deliverAt === null) {
      setError('Choose a date and time.');
      return;
    }
    setBusy(true);
    setError(null);
    api()
      .createReminder({ accountId, messageId, deliverAt })
      .then(() => setSetFor(deliverAt))
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };

  return (
    <MenuDialog label="Remind me about this" className="reminder-form" onClose={onClose}>
      {setFor === null ? (
        <TimeChoices
          busy={busy}
          error={error}
          inputLabel="Remind at"
          submitLabel="Set reminder"
          leadingPresets={[inAnHour]}
          onChoose={remind}
        />
      ) : (
        <p role="status">
          You will be reminded about this message on {formatDateTime(setFor, twentyFourHour)}.
        </p>
      )}
      <button type="button" onClick={onClose} autoFocus={setFor !== null}>
        {setFor === null ? 'Cancel' : 'Close'}
      </button>
    </MenuDialog>
  );
}
