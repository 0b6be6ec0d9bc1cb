// Sign-in for a new account: the server URL first (checked with the server), then email and
// password or an API key.
import { useLayoutEffect, useState } from 'react';
import type { ServerCheck } from '../../../shared/ipc/accounts';
import { api, errorText } from '../../bridge/api';
import {
  ALL_MESSAGES_ROUTE,
  leaveScreen,
  replaceRoute,
  restoreStartRoute,
  useUi,
} from '../../store/ui-store';
import { useChatStoreApi } from '../../store/hooks';
import { ConfirmAlert } from '../../lib/ui/Dialog';

export function SignIn() {
  const store = useChatStoreApi();
  const linkedSite = useUi((s) => (s.route.kind === 'signin' ? s.route.site : undefined));
  const [site, setSite] = useState(linkedSite ?? '');
  const [server, setServer] = useState<ServerCheck | null>(null);
  const [method, setMethod] = useState<'password' | 'apiKey'>('password');
  const [email, setEmail] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [weakPrompt, setWeakPrompt] = useState(false);
  // Cancel leads back to where the person came from, or to the chat of an existing account; with
  // neither there is nowhere to go.
  const hasAccount = useUi((s) => s.accounts.length > 0);
  const canCancel = useUi((s) => hasAccount || s.previous.some((r) => r.kind !== 'signin'));
  const cancel = canCancel ? (
    <button type="button" onClick={() => leaveScreen(hasAccount)}>
      Cancel
    </button>
  ) : null;

  // The demo organization this computer runs, offered once its account was removed (a person who
  // removed it can try it again without knowing its address or credentials).
  const demoRunning = useUi((s) => s.localRealm?.state === 'running');
  const demoListed = useUi((s) =>
    s.accounts.some((a) => s.localRealm?.state === 'running' && a.site === s.localRealm.url),
  );
  // A first launch opens its window while the launcher still creates the demo organization and
  // signs in to it: a form asking for a server would be the wrong thing to show for that second.
  const preparingDemo = useUi(
    (s) => s.accounts.length === 0 && s.localRealm?.preparingDemo === true,
  );
  // The route went to sign-in (no account when the page opened): once the launcher's account
  // arrives, the page's start route comes back before this screen is painted, so the home view
  // (web_home_view) or the launch URL's view opens as on any other start.
  const [waitedForDemo, setWaitedForDemo] = useState(false);
  if (preparingDemo && !waitedForDemo) setWaitedForDemo(true);
  useLayoutEffect(() => {
    if (waitedForDemo && hasAccount) restoreStartRoute();
  }, [waitedForDemo, hasAccount]);
  const openDemo = async () => {
    setBusy(true);
    setError(null);
    try {
      const { activeAccountId } = await api().openDemoRealm({});
      if (activeAccountId) store.getState().setActiveAccount(activeAccountId);
      replaceRoute(ALL_MESSAGES_ROUTE);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const checkServer = async () => {
    setBusy(true);
    setError(null);
    try {
      const checked = await api().checkServer({ site });
      setServer(checked);
      if (!checked.emailAuthEnabled) setMethod('apiKey');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const signIn = async (allowWeakEncryption = false) => {
    if (!server) return;
    setBusy(true);
    setError(null);
    try {
      const account = await api().addAccount({
        site: server.site,
        auth:
          method === 'password'
            ? { kind: 'password', email, password: secret }
            : { kind: 'apiKey', email, apiKey: secret },
        allowWeakEncryption,
      });
      await api().switchAccount({ accountId: account.id });
      store.getState().setActiveAccount(account.id);
      // In place of the form, so Esc (back) in the chat does not reopen it.
      replaceRoute(ALL_MESSAGES_ROUTE);
    } catch (e) {
      if ((e as { code?: string }).code === 'WEAK_ENCRYPTION_REFUSED') setWeakPrompt(true);
      else setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  if (preparingDemo)
    return (
      <main className="signin" aria-busy="true">
        <h1>Preparing your demo organization…</h1>
        <p role="status">
          Tributary is creating a chat organization on this computer to try it with. It opens here
          in a moment.
        </p>
      </main>
    );

  return (
    <main className="signin">
      <h1>Sign in to a chat server</h1>
      {!server ? (
        <form
          aria-label="Server"
          onSubmit={(e) => {
            e.preventDefault();
            void checkServer();
          }}
        >
          <label>
            Server URL
            <input
              type="url"
              required
              placeholder="https://chat.example.com"
              value={site}
              onChange={(e) => setSite(e.target.value)}
            />
          </label>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy}>
              Continue
            </button>
            {cancel}
          </div>
          {demoRunning && !demoListed ? (
            <p className="signin-demo">
              Just looking?{' '}
              <button
                type="button"
                className="link"
                disabled={busy}
                onClick={() => void openDemo()}
              >
                Open the demo organization on this computer
              </button>
            </p>
          ) : null}
        </form>
      ) : (
        <form
          aria-label="Credentials"
          onSubmit={(e) => {
            e.preventDefault();
            void signIn();
          }}
        >
          <p>
            {server.realmName} <small>({server.site})</small>{' '}
            <button type="button" className="link" onClick={() => setServer(null)}>
              Change server
            </button>
          </p>
          <div role="radiogroup" aria-label="Sign-in method" className="segmented">
            <button
              type="button"
              role="radio"
              aria-checked={method === 'password'}
              disabled={!server.emailAuthEnabled}
              onClick={() => setMethod('password')}
            >
              Password
            </button>
            <button
              type="button"
              role="radio"
              aria-checked={method === 'apiKey'}
              onClick={() => setMethod('apiKey')}
            >
              API key
            </button>
          </div>
          <label>
            Email
            <input
              type="email"
              required
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label>
            {method === 'password' ? 'Password' : 'API key'}
            <input
              type="password"
              required
              autoComplete={method === 'password' ? 'current-password' : 'off'}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          </label>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy}>
              Sign in
            </button>
            {cancel}
          </div>
        </form>
      )}
      {weakPrompt ? (
        <ConfirmAlert
          label="Weak key storage"
          confirmLabel="Store anyway"
          confirmDisabled={busy}
          onClose={() => setWeakPrompt(false)}
          onConfirm={() => {
            setWeakPrompt(false);
            void signIn(true);
          }}
        >
          <p>
            This system has no secure key store: the API key would be stored with weak encryption.
            Store it anyway?
          </p>
        </ConfirmAlert>
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </main>
  );
}
