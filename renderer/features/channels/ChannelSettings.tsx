// One channel's page in the browser: its header (privacy, name, description, subscribe button) and,
// for a subscribed channel, the personal settings (colour, pin, mute, notification overrides) and
// the subscribers tab with "Add subscribers". Each change is one POST
// /users/me/subscriptions/properties; what shows comes back from the subscription update event.
// Its sections are styled as settings' (the channel browser opens it outside Settings).
import '../../styles/settings.css';
import { useEffect, useRef, useState } from 'react';
import type { Subscription, UserSettings } from '../../../shared/api/types';
import { channelNarrow } from '../../../shared/narrow';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../bridge/api';
import { navigate } from '../../store/ui-store';
import { canAddSubscribers, canRemoveSubscribers } from './channel-permissions';
import { ChannelGeneral } from './ChannelGeneral';
import { PrivacyIcon } from './PrivacyIcon';
import { PeoplePicker } from './PeoplePicker';
import { ChannelDescription, ErrorLine, Tabs } from './parts';

/** The public web app's channel colour palette (the colours it assigns to new subscriptions). */
export const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55',
  '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5',
  '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d',
  '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
] as const; // prettier-ignore

type NotificationProperty =
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';

const NOTIFICATIONS: Array<[NotificationProperty, string, keyof UserSettings]> = [
  ['desktop_notifications', 'Visual desktop notifications', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'Audible desktop notifications', 'enable_stream_audible_notifications'],
  ['push_notifications', 'Mobile notifications', 'enable_stream_push_notifications'],
  ['email_notifications', 'Email notifications', 'enable_stream_email_notifications'],
  // Desktop notifications decide @all-style mentions by this override too (shared/notifications).
  ['wildcard_mentions_notify', 'Notify for @all mentions', 'wildcard_mentions_notify'],
];

type Tab = 'general' | 'personal' | 'subscribers';
const SECTIONS = [
  ['general', 'General'],
  ['personal', 'Personal'],
  ['subscribers', 'Subscribers'],
] as const;

export function ChannelSettings({ accountId, streamId }: { accountId: string; streamId: number }) {
  const channel = useChatStore((s) => selectActiveAccount(s)?.channels.channels.get(streamId));
  const sub = useChatStore((s) => selectActiveAccount(s)?.channels.subscriptions.get(streamId));
  const mayAdd = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account && channel ? canAddSubscribers(account, channel) : false;
  });
  const mayRemove = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account && channel ? canRemoveSubscribers(account, channel) : false;
  });
  const [tab, setTab] = useState<Tab>('personal');
  const [error, setError] = useState<string | null>(null);
  if (!channel) return <p className="placeholder">This channel is not available.</p>;

  const run = (request: Promise<unknown>) => {
    setError(null);
    request.catch((e: unknown) => setError(errorText(e)));
  };
  const toggleSubscription = () =>
    run(
      sub
        ? api().unsubscribe({ accountId, subscriptions: [channel.name] })
        : api().subscribe({ accountId, subscriptions: [{ name: channel.name }] }),
    );

  return (
    <article className="channel-settings" aria-label={`Settings for #${channel.name}`}>
      <header className="channel-settings-header">
        <h2>
          <PrivacyIcon channel={channel} />
          <button
            type="button"
            className="link"
            onClick={() => navigate({ kind: 'narrow', narrow: channelNarrow(streamId) })}
          >
            {channel.name}
          </button>
        </h2>
        {channel.is_archived ? null : (
          <button
            type="button"
            className={sub ? 'subscribed' : 'primary'}
            onClick={toggleSubscription}
          >
            {sub ? 'Unsubscribe' : 'Subscribe'}
          </button>
        )}
      </header>
      <ChannelDescription html={channel.rendered_description} accountId={accountId} />
      <ErrorLine error={error} />
      <Tabs label="Channel settings sections" tabs={SECTIONS} value={tab} onChange={setTab} />
      {tab === 'general' ? (
        <ChannelGeneral accountId={accountId} channel={channel} />
      ) : tab === 'personal' ? (
        sub ? (
          <PersonalSettings accountId={accountId} sub={sub} run={run} />
        ) : (
          <p className="placeholder">Subscribe to this channel to change your settings for it.</p>
        )
      ) : (
        <Subscribers
          accountId={accountId}
          channelName={channel.name}
          subscribers={channel.subscribers ?? sub?.subscribers ?? []}
          mayAdd={mayAdd}
          mayRemove={mayRemove}
        />
      )}
    </article>
  );
}

function PersonalSettings({
  accountId,
  sub,
  run,
}: {
  accountId: string;
  sub: Subscription;
  run: (request: Promise<unknown>) => void;
}) {
  const defaults = useChatStore((s) => selectActiveAccount(s)?.settings.user);
  const set = (property: Parameters<typeof setProperty>[2], value: boolean | string) =>
    run(setProperty(accountId, sub.stream_id, property, value));
  return (
    <div className="personal-settings">
      <fieldset className="color-setting">
        <legend className="settings-section">Channel color</legend>
        <div className="palette" role="radiogroup" aria-label="Channel color">
          {CHANNEL_COLORS.map((color) => (
            <button
              key={color}
              type="button"
              role="radio"
              aria-checked={sub.color.toLowerCase() === color}
              aria-label={`Color ${color}`}
              className="palette-color"
              style={{ background: color }}
              onClick={() => set('color', color)}
            />
          ))}
        </div>
        <label className="custom-color">
          <CustomColor color={sub.color} onPick={(color) => set('color', color)} />
          Custom color
        </label>
      </fieldset>
      <h3 className="settings-section">Display</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={sub.pin_to_top}
          onChange={(e) => set('pin_to_top', e.target.checked)}
        />
        Pin channel to top of left sidebar
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={sub.is_muted}
          onChange={(e) => set('is_muted', e.target.checked)}
        />
        Mute channel
      </label>
      <fieldset className="notification-settings">
        <legend className="settings-section">Notification settings</legend>
        {NOTIFICATIONS.map(([property, label, defaultKey]) => {
          const value = sub[property];
          const fallback = defaults?.[defaultKey] === true;
          return (
            <label key={property} className="select-row">
              <span>{label}</span>
              <select
                aria-label={label}
                value={value === null ? 'default' : value ? 'on' : 'off'}
                onChange={(e) =>
                  // The API takes a boolean only; "default" stores the account's default value.
                  set(property, e.target.value === 'default' ? fallback : e.target.value === 'on')
                }
              >
                <option value="default">Default ({fallback ? 'on' : 'off'})</option>
                <option value="on">On</option>
                <option value="off">Off</option>
              </select>
            </label>
          );
        })}
      </fieldset>
    </div>
  );
}

/**
 * The colour input sends once the picker closes (its native change event): React's onChange
 * follows every move of the picker, which would be one request per step.
 */
function CustomColor({ color, onPick }: { color: string; onPick: (color: string) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);
  useEffect(() => {
    const input = ref.current;
    if (input) input.value = color;
  }, [color]);
  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    const onChange = () => pick.current(input.value);
    input.addEventListener('change', onChange);
    return () => input.removeEventListener('change', onChange);
  }, []);
  return <input ref={ref} type="color" aria-label="Custom channel color" defaultValue={color} />;
}

function setProperty(
  accountId: string,
  streamId: number,
  property: 'color' | 'pin_to_top' | 'is_muted' | NotificationProperty,
  value: boolean | string,
) {
  return api().updateSubscriptionProperties({
    accountId,
    changes: [{ streamId, property, value }],
  });
}

function Subscribers({
  accountId,
  channelName,
  subscribers,
  mayAdd,
  mayRemove,
}: {
  accountId: string;
  channelName: string;
  subscribers: readonly number[];
  mayAdd: boolean;
  /** May unsubscribe others (administrators, can_remove_subscribers_group). */
  mayRemove: boolean;
}) {
  const users = useChatStore((s) => selectActiveAccount(s)?.users.users);
  const [chosen, setChosen] = useState<number[]>([]);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    setStatus(null);
    try {
      await api().addSubscribers({ accountId, channelName, principals: chosen });
      setStatus({
        ok: true,
        text: `Added ${chosen.length === 1 ? '1 person' : `${chosen.length} people`}.`,
      });
      setChosen([]);
    } catch (e) {
      setStatus({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (userId: number, name: string) => {
    setStatus(null);
    try {
      await api().unsubscribe({ accountId, subscriptions: [channelName], principals: [userId] });
      setStatus({ ok: true, text: `Unsubscribed ${name}.` });
    } catch (e) {
      setStatus({ ok: false, text: errorText(e) });
    }
  };
  const names = subscribers
    .map((id) => users?.get(id))
    .filter((u) => u !== undefined)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div className="subscribers">
      {mayAdd ? (
        <div className="add-subscribers">
          <PeoplePicker
            label="Add subscribers"
            chosen={chosen}
            onChange={setChosen}
            exclude={subscribers}
          />
          <button
            type="button"
            className="primary"
            disabled={busy || chosen.length === 0}
            onClick={() => void add()}
          >
            Add
          </button>
        </div>
      ) : (
        <p className="placeholder">
          You do not have permission to add other users to this channel.
        </p>
      )}
      {status ? (
        <p role={status.ok ? 'status' : 'alert'} className={status.ok ? 'success' : 'error'}>
          {status.text}
        </p>
      ) : null}
      <h3>
        {subscribers.length} {subscribers.length === 1 ? 'subscriber' : 'subscribers'}
      </h3>
      <ul className="subscriber-list" aria-label="Subscribers">
        {names.map((u) => (
          <li key={u.user_id}>
            {u.full_name} <span className="muted">{u.email}</span>
            {mayRemove ? (
              <button
                type="button"
                className="small"
                aria-label={`Unsubscribe ${u.full_name}`}
                onClick={() => void remove(u.user_id, u.full_name)}
              >
                Unsubscribe
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
