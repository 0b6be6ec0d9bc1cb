// Settings › Offline: what this computer keeps of the account for use without the server (issue
// #23, docs/offline.md). Where background sync stands comes from main (shared/ipc/cache.ts) and
// follows its status push; the three choices are saved as soon as they are made, as every setting
// is (../form/use-settings-form.ts), and kept by main, not by the server.
import { useEffect, useState } from 'react';
import type { OfflineSettings, OfflineStatus } from '../../../../shared/ipc/cache';
import { offlineSettings } from '../../../../shared/ipc/cache';
import { api, errorText } from '../../../bridge/api';
import { ConfirmAlert } from '../../../lib/ui/Dialog';
import { formatDateTime } from '../../../lib/format';
import { lastActiveLabel } from '../../views/recent-model';
import { useOfflineStatus } from '../../offline/use-offline-status';
import { formatFileSize } from '../../compose/uploads';
import { FieldStatus, numberFieldProps, rangeProblem } from '../form/FieldStatus';
import { useSettingsForm } from '../form/use-settings-form';
import '../../offline/offline.css';

const MB = 1024 * 1024;
const DAYS = {
  min: offlineSettings.shape.days.minValue!,
  max: offlineSettings.shape.days.maxValue!,
};
const BUDGET_MB = {
  min: offlineSettings.shape.budgetBytes.minValue! / MB,
  max: offlineSettings.shape.budgetBytes.maxValue! / MB,
};

/** The form's fields: the budget is typed in MB, sent in bytes. */
interface OfflineForm extends Record<string, unknown> {
  days: number;
  budgetMb: number;
  enabled: boolean;
}

function stateText(status: OfflineStatus): string {
  if (!status.settings.enabled && status.state !== 'error' && status.state !== 'disk-full')
    return 'Off: only the conversations you open are kept';
  switch (status.state) {
    case 'idle':
      // Before the first pass (it starts a few seconds after the server answers) nothing is
      // "up to date" yet.
      return status.lastSyncAt === null ? 'Waiting for the first sync' : 'Up to date';
    case 'syncing':
      return 'Syncing…';
    case 'paused':
      return 'Paused while you are busy; syncing goes on when you pause';
    case 'offline':
      return 'Offline: the server cannot be reached';
    case 'disk-full':
      return 'Stopped: the disk is full. Nothing waiting to be sent was lost.';
    case 'error':
      return `Stopped: ${status.error ?? 'an error'}`;
  }
}

/** "5 minutes ago", redrawn each minute; "Not yet" before the first pass. */
function LastSync({ at }: { at: number | null }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  if (at === null) return <>Not yet</>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at / 1000)}>
      {lastActiveLabel(at / 1000, Math.max(now, at), formatDateTime)}
    </time>
  );
}

function OfflineChoices({
  accountId,
  status,
  onStatus,
}: {
  accountId: string;
  status: OfflineStatus;
  onStatus: (status: OfflineStatus) => void;
}) {
  const saved: OfflineForm = {
    days: status.settings.days,
    budgetMb: Math.round(status.settings.budgetBytes / MB),
    enabled: status.settings.enabled,
  };
  const form = useSettingsForm<OfflineForm>(saved, {
    validate: (v) => ({
      days: rangeProblem('Days', v.days, DAYS, 'days'),
      budgetMb: rangeProblem('Disk budget', v.budgetMb, BUDGET_MB, 'MB'),
    }),
    send: async (changes) => {
      const settings: OfflineSettings = {
        ...status.settings,
        ...(changes.days !== undefined ? { days: changes.days } : {}),
        ...(changes.budgetMb !== undefined ? { budgetBytes: changes.budgetMb * MB } : {}),
        ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
      };
      onStatus(await api().setOfflineSettings({ accountId, settings }));
    },
  });
  return (
    <>
      <h3>What to keep</h3>
      <label>
        <input
          type="checkbox"
          checked={form.values.enabled}
          onChange={(e) => form.set('enabled', e.target.checked)}
        />
        Keep conversations on this computer in the background
        <FieldStatus form={form} name="enabled" />
      </label>
      <div className="offline-number">
        <label>
          Keep conversations active in the last{' '}
          <input type="number" min={DAYS.min} max={DAYS.max} {...numberFieldProps(form, 'days')} />{' '}
          days
        </label>
        <FieldStatus form={form} name="days" />
      </div>
      <div className="offline-number">
        <label>
          Disk budget{' '}
          <input
            type="number"
            min={BUDGET_MB.min}
            max={BUDGET_MB.max}
            {...numberFieldProps(form, 'budgetMb')}
          />{' '}
          MB
        </label>
        <FieldStatus form={form} name="budgetMb" />
      </div>
      <p className="settings-hint">
        Over the budget, the oldest history is removed first. Conversations you open are kept even
        when background sync is off.
      </p>
    </>
  );
}

export function Offline({ accountId }: { accountId: string }) {
  const { status, unavailable, setStatus } = useOfflineStatus(accountId);
  const [confirmClear, setConfirmClear] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = (call: Promise<OfflineStatus>) =>
    call
      .then((next) => {
        setStatus(next);
        setProblem(null);
        return true;
      })
      .catch((error: unknown) => {
        setProblem(errorText(error));
        return false;
      });
  return (
    <section className="settings-section offline-settings" aria-label="Offline">
      <h2>Offline</h2>
      <p className="settings-hint">
        Tributary keeps recent conversations on this computer, encrypted, so you can read and search
        them while the server cannot be reached.
      </p>
      {unavailable ? (
        <p className="settings-hint" role="note" data-testid="offline-unavailable">
          Offline use cannot be set up here: {unavailable}.
        </p>
      ) : !status ? (
        <p className="placeholder">Loading…</p>
      ) : (
        <>
          <dl className="offline-status" aria-label="Offline copy">
            <dt>State</dt>
            <dd data-testid="offline-state">{stateText(status)}</dd>
            <dt>Conversations</dt>
            <dd>
              {status.conversationsSynced.toLocaleString()} of{' '}
              {status.conversationsKnown.toLocaleString()} synced
            </dd>
            <dt>Messages</dt>
            <dd>{status.messages.toLocaleString()}</dd>
            <dt>Size on disk</dt>
            <dd>{formatFileSize(status.bytes)}</dd>
            <dt>Last sync</dt>
            <dd>
              <LastSync at={status.lastSyncAt} />
            </dd>
          </dl>
          <div className="offline-actions">
            <button
              type="button"
              disabled={status.state === 'syncing'}
              onClick={() => void run(api().syncOfflineNow({ accountId }))}
            >
              Sync now
            </button>
          </div>
          {problem ? <p role="alert">{problem}</p> : null}
          <OfflineChoices accountId={accountId} status={status} onStatus={setStatus} />
          {/* Apart from "Sync now", as the web app keeps destructive settings apart: one slip of
              the pointer should not delete the offline copy. */}
          <h3>Remove the offline copy</h3>
          <p className="settings-hint">
            Deletes the messages kept on this computer for this account and their search index.
            Messages waiting to be sent and your drafts stay.
          </p>
          <button type="button" className="danger" onClick={() => setConfirmClear(true)}>
            Clear offline data
          </button>
          {confirmClear ? (
            <ConfirmAlert
              label="Clear offline data?"
              confirmLabel="Clear offline data"
              onClose={() => setConfirmClear(false)}
              onConfirm={() =>
                void run(api().clearOfflineData({ accountId })).then(() => setConfirmClear(false))
              }
            >
              <p>
                Every message kept on this computer for this account and its search index are
                deleted. Messages waiting to be sent and your drafts stay. Conversations are kept
                again as you open them{status.settings.enabled ? ' and by the next sync' : ''}.
              </p>
            </ConfirmAlert>
          ) : null}
        </>
      )}
    </section>
  );
}
