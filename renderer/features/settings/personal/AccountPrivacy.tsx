// Account & privacy: your email and role, your API key (shown once after you type your password
// again; main asks the server for it and nothing keeps it: it lives in this screen's state until you
// hide it or leave), and the privacy settings the public web app lists here.
import { Fragment, useState } from 'react';
import { useChatStore, useUser } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../bridge/api';
import { ChoiceSetting } from './ChoiceSetting';
import { useUserSettingsForm } from './use-user-settings-form';
import { FieldStatus } from '../form/FieldStatus';
import type { Choice } from './preference-options';

const ROLE_NAMES: Record<number, string> = {
  100: 'Owner',
  200: 'Administrator',
  300: 'Moderator',
  400: 'Member',
  600: 'Guest',
};

const EMAIL_VISIBILITY: Choice<number>[] = [
  { value: 1, label: 'Admins, moderators, members and guests' },
  { value: 2, label: 'Admins, moderators and members' },
  { value: 5, label: 'Admins and moderators' },
  { value: 3, label: 'Admins only' },
  { value: 4, label: 'Nobody' },
];

const PRIVACY_TOGGLES: Array<[string, string]> = [
  ['send_private_typing_notifications', 'Let recipients see when I’m typing direct messages'],
  ['send_stream_typing_notifications', 'Let recipients see when I’m typing messages in channels'],
  ['send_read_receipts', 'Let others see when I’ve read messages'],
  ['presence_enabled', 'Display my availability to other users'],
];

export function AccountPrivacy({ accountId }: { accountId: string }) {
  const selfId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? -1);
  const me = useUser(selfId);
  const user = useChatStore((s) => selectActiveAccount(s)?.settings.user);
  const form = useUserSettingsForm(accountId, user ?? {});
  if (!me || !user) return null;
  return (
    <section className="settings-section" aria-label="Account & privacy">
      <h2>Account &amp; privacy</h2>
      <h3>Account</h3>
      <dl className="account-facts">
        <dt>Email</dt>
        <dd>{me.delivery_email ?? me.email}</dd>
        <dt>Role</dt>
        <dd>{ROLE_NAMES[me.role] ?? 'Member'}</dd>
      </dl>
      <ApiKey accountId={accountId} />

      <h3>Privacy</h3>
      {PRIVACY_TOGGLES.map(([name, label]) => (
        <Fragment key={name}>
          <label className="check-setting">
            <input
              type="checkbox"
              checked={form.values[name] !== false}
              onChange={(e) => form.set(name, e.target.checked)}
            />
            {label}
          </label>
          <FieldStatus form={form} name={name} />
        </Fragment>
      ))}
      <ChoiceSetting
        label="Who can access your email address"
        choices={EMAIL_VISIBILITY}
        form={form}
        name="email_address_visibility"
        fallback={1}
      />
    </section>
  );
}

function ApiKey({ accountId }: { accountId: string }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setOpen(false);
    setKey(null);
    setPassword('');
    setError(null);
  };
  if (!open) {
    return (
      <div className="api-key">
        <span className="setting-label">API key</span>
        <button type="button" onClick={() => setOpen(true)}>
          Manage your API key
        </button>
      </div>
    );
  }
  if (key) {
    return (
      <div className="api-key" role="group" aria-label="Your API key">
        <p className="setting-hint">
          Anyone with this key can act as you. Tributary does not keep it: it disappears when you
          hide it or leave this screen.
        </p>
        <input
          type="text"
          className="api-key-value"
          readOnly
          value={key}
          aria-label="API key"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void navigator.clipboard?.writeText(key)}>
          Copy
        </button>
        <button type="button" onClick={close}>
          Hide
        </button>
      </div>
    );
  }
  return (
    <form
      className="api-key"
      aria-label="Show your API key"
      onSubmit={(e) => {
        e.preventDefault();
        if (password === '') return setError('Type your password.');
        setBusy(true);
        api()
          .revealApiKey({ accountId, password })
          .then((answer) => {
            setKey(answer.apiKey);
            setPassword('');
            setError(null);
          })
          .catch((err: unknown) => setError(errorText(err)))
          .finally(() => setBusy(false));
      }}
    >
      <label>
        <span className="setting-label">Your password</span>
        <input
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Get API key
      </button>
      <button type="button" className="link" onClick={close}>
        Cancel
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </form>
  );
}
