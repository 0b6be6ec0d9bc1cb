// Personal notification settings, laid out as the public web app's: which messages notify on the
// desktop and with a sound (channels, DMs/mentions/alerts, followed topics, @all mentions), direct
// message content in notifications, the sound, the unread count badge, and a test notification.
// Everything but minimise-to-tray is saved on the server and follows its events; minimise-to-tray
// is this computer's own (kept by main). Channels' own overrides are in each channel's settings.
import { useEffect, useState } from 'react';
import type { UserSettings } from '../../../../shared/api/types';
import type { DesktopShellState } from '../../../../shared/ipc/shell';
import { iconCountChoices } from '../../../../shared/notifications/badge';
import { decideTestNotification } from '../../../../shared/notifications/decide';
import { useChatStore, useChatStoreApi } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../bridge/api';
import { accountLabel, presentNotification } from '../../notifications/notifier';
import { NOTIFICATION_SOUNDS, playNotificationSound } from '../../notifications/sounds';
import { FieldStatus } from '../form/FieldStatus';
import { useUserSettingsForm } from './use-user-settings-form';

type BooleanSetting = keyof UserSettings & string;

/** Rows of the triggers table: [label, desktop setting, audible setting, @all mentions setting]. */
const TRIGGERS: ReadonlyArray<
  readonly [string, BooleanSetting, BooleanSetting, BooleanSetting | null]
> = [
  [
    'Channels',
    'enable_stream_desktop_notifications',
    'enable_stream_audible_notifications',
    'wildcard_mentions_notify',
  ],
  ['DMs, mentions, and alerts', 'enable_desktop_notifications', 'enable_sounds', null],
  [
    'Followed topics',
    'enable_followed_topic_desktop_notifications',
    'enable_followed_topic_audible_notifications',
    'enable_followed_topic_wildcard_mentions_notify',
  ],
];

/** The server's defaults (api-notes §10), for a setting an older server leaves out. */
const DEFAULTS: Record<string, boolean> = {
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
};

function browserPermission(): NotificationPermission | 'unsupported' {
  return typeof window.Notification === 'function' ? window.Notification.permission : 'unsupported';
}

export function Notifications({ accountId }: { accountId: string }) {
  const store = useChatStoreApi();
  const user = useChatStore((s) => selectActiveAccount(s)?.settings.user);
  const featureLevel = useChatStore((s) => selectActiveAccount(s)?.settings.featureLevel ?? 0);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [desktop, setDesktop] = useState<DesktopShellState | null>(null);
  const [runtime, setRuntime] = useState<'electron' | 'browser' | null>(null);
  const [permission, setPermission] = useState(browserPermission);
  const form = useUserSettingsForm(accountId, user ?? {});

  useEffect(() => {
    let live = true;
    void api()
      .getDesktopPreferences({})
      .then((p) => live && setDesktop(p))
      .catch(() => undefined);
    void api()
      .getAppInfo({})
      .then((info) => live && setRuntime(info.runtime))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!user) return null;
  const save = (name: string, value: boolean | number | string) => form.set(name, value);
  const checked = (name: BooleanSetting) =>
    (form.values[name] as boolean | undefined) ?? DEFAULTS[name] ?? true;
  const checkbox = (name: BooleanSetting, label: string) => (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked(name)}
      onChange={(e) => save(name, e.target.checked)}
    />
  );
  const sound = String(form.values.notification_sound ?? 'zulip');
  const sounds = Array.isArray(user.available_notification_sounds)
    ? (user.available_notification_sounds as string[])
    : NOTIFICATION_SOUNDS;
  const soundsOn = checked('enable_sounds') || checked('enable_stream_audible_notifications');

  const sendTest = async () => {
    setNote(null);
    if (runtime === 'browser' && permission !== 'granted') {
      setNote('Allow notifications in this browser first.');
      return;
    }
    const decision = decideTestNotification(user, accountLabel(accountId));
    try {
      await presentNotification(api(), store, accountId, decision);
      setNote('Test notification sent.');
    } catch (e) {
      setError(errorText(e));
    }
  };
  const allow = async () => setPermission(await window.Notification.requestPermission());

  return (
    <section className="settings-section notification-settings" aria-label="Notifications">
      <h2>Notifications</h2>
      <h3>Notification triggers</h3>
      <table className="notification-triggers">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">Desktop</th>
            <th scope="col">Audible</th>
            <th scope="col">@all mentions</th>
          </tr>
        </thead>
        <tbody>
          {TRIGGERS.map(([label, desktopSetting, audible, wildcard]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{checkbox(desktopSetting, `${label}: desktop`)}</td>
              <td>{checkbox(audible, `${label}: audible`)}</td>
              <td>{wildcard ? checkbox(wildcard, `${label}: @all mentions`) : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {TRIGGERS.flatMap((row) => row.slice(1)).map((name) =>
        name ? <FieldStatus key={name} form={form} name={name} /> : null,
      )}
      <p className="settings-hint">
        A channel can override its row in its own settings. Muted channels, topics and users never
        notify, except direct @-mentions and followed topics in muted channels.
      </p>

      <h3>Desktop message notifications</h3>
      <label>
        <input
          type="checkbox"
          checked={checked('pm_content_in_desktop_notifications')}
          onChange={(e) => save('pm_content_in_desktop_notifications', e.target.checked)}
        />
        Include content of direct messages in desktop notifications
      </label>
      <FieldStatus form={form} name="pm_content_in_desktop_notifications" />
      <label>
        Notification sound
        <select
          value={sound}
          disabled={!soundsOn}
          onChange={(e) => {
            save('notification_sound', e.target.value);
            playNotificationSound(e.target.value);
          }}
        >
          <option value="none">None</option>
          {sounds.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={!soundsOn || sound === 'none'}
          onClick={() => playNotificationSound(sound)}
        >
          Play
        </button>
      </label>
      <FieldStatus form={form} name="notification_sound" />
      <label>
        Unread count badge
        <select
          value={Number(form.values.desktop_icon_count_display ?? 1)}
          onChange={(e) => save('desktop_icon_count_display', Number(e.target.value))}
        >
          {iconCountChoices(featureLevel).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <FieldStatus form={form} name="desktop_icon_count_display" />
      <p className="settings-hint">
        The count in the window title, on the dock or taskbar icon, and in the tray, added up over
        every account by each account’s own choice.
      </p>
      {desktop?.supports.tray ? (
        <label>
          <input
            type="checkbox"
            checked={desktop.preferences.minimizeToTray}
            onChange={(e) =>
              void api()
                .setDesktopPreferences({ minimizeToTray: e.target.checked })
                .then(setDesktop)
                .catch((err: unknown) => setError(errorText(err)))
            }
          />
          Minimise to the tray (this computer only)
        </label>
      ) : null}
      {runtime === 'browser' ? (
        <p className="settings-hint" data-testid="notification-permission">
          {permission === 'granted'
            ? 'This browser shows Tributary’s notifications.'
            : permission === 'denied'
              ? 'This browser blocks Tributary’s notifications; allow them in its site settings.'
              : permission === 'unsupported'
                ? 'This browser cannot show notifications.'
                : 'This browser has not been allowed to show notifications yet.'}{' '}
          {permission === 'default' ? (
            <button type="button" onClick={() => void allow()}>
              Allow notifications
            </button>
          ) : null}
        </p>
      ) : null}
      <p>
        <button type="button" onClick={() => void sendTest()}>
          Send a test notification
        </button>
      </p>
      {note ? <p role="status">{note}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
