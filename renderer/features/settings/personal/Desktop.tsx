// Settings > Desktop: this computer's shell preferences, kept by main (not on any server): start at
// login, zoom, the proxy main connects through, and what the desktop app adds (deep links, spell
// check, downloads). In browser mode the page says which of these only the desktop app applies.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { DesktopShellState, ProxyMode, ProxyPreference } from '../../../../shared/ipc/shell';
import { ZOOM_RANGE } from '../../../../shared/ipc/shell';
import { api, errorText } from '../../../bridge/api';
import { registerSettingsForm } from '../form/unsaved';
import './desktop.css';

type Patch = Parameters<ReturnType<typeof api>['setDesktopPreferences']>[0];

const PROXY_CHOICES: Array<[ProxyMode, string]> = [
  ['system', 'Use the system proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)'],
  ['direct', 'No proxy'],
  ['manual', 'Manual proxy'],
];

function DesktopOnly({ shown }: { shown: boolean }) {
  return shown ? <span className="desktop-only">Desktop app only</span> : null;
}

/**
 * Edits a copy of the saved proxy; a new saved value (its key) starts a fresh copy. The one
 * exception to saving at once (docs/settings.md): mode, address and exceptions only work together,
 * and a half-typed proxy would cut every connection, so Save proxy applies them; leaving Settings
 * with an unsaved proxy asks first.
 */
function ProxySettings({
  proxy,
  onSave,
}: {
  proxy: ProxyPreference;
  onSave: (proxy: ProxyPreference) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState(proxy);
  const changed = JSON.stringify(draft) !== JSON.stringify(proxy);
  const unsaved = useRef(false);
  useLayoutEffect(() => {
    unsaved.current = changed;
  });
  useEffect(
    () =>
      registerSettingsForm({
        dirty: () => unsaved.current,
        commit: () => Promise.resolve(!unsaved.current),
        // Nothing is sent on leaving: the proxy waits for its Save button.
        discard: () => undefined,
      }),
    [],
  );
  return (
    <fieldset className="desktop-proxy">
      <legend>Proxy for connections to chat servers</legend>
      {PROXY_CHOICES.map(([mode, label]) => (
        <label key={mode}>
          <input
            type="radio"
            name="proxy-mode"
            checked={draft.mode === mode}
            onChange={() => setDraft({ ...draft, mode })}
          />
          {label}
        </label>
      ))}
      {draft.mode === 'manual' ? (
        <div className="desktop-proxy-manual">
          <label>
            Proxy URL
            <input
              type="url"
              placeholder="http://proxy.example.com:3128"
              value={draft.url}
              onChange={(e) => setDraft({ ...draft, url: e.target.value.trim() })}
            />
          </label>
          <label>
            No proxy for
            <input
              type="text"
              placeholder="localhost, .internal.example.com"
              value={draft.bypass}
              onChange={(e) => setDraft({ ...draft, bypass: e.target.value })}
            />
          </label>
        </div>
      ) : null}
      <button
        type="button"
        disabled={!changed || (draft.mode === 'manual' && !draft.url)}
        onClick={() => void onSave(draft)}
      >
        Save proxy
      </button>
    </fieldset>
  );
}

export function Desktop(_props: { accountId: string }) {
  const [state, setState] = useState<DesktopShellState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api()
      .getDesktopPreferences({})
      .then((s) => live && setState(s))
      .catch((e: unknown) => live && setError(errorText(e)));
    const off = api().on('desktopPreferences', setState);
    return () => {
      live = false;
      off();
    };
  }, []);
  const save = (patch: Patch) =>
    api()
      .setDesktopPreferences(patch)
      .then((next) => {
        setState(next);
        setError(null);
        return true;
      })
      .catch((e: unknown) => {
        setError(errorText(e));
        return false;
      });
  if (!state) return error ? <p role="alert">{error}</p> : null;
  const { preferences, supports } = state;
  const browser = !supports.startAtLogin;
  const zoom = Math.round(preferences.zoomFactor * 100);
  return (
    <section className="settings-section desktop-settings" aria-label="Desktop">
      <h2>Desktop</h2>
      {browser ? (
        <p className="desktop-note">
          Tributary is running in browser mode. Options marked “Desktop app only” are kept and take
          effect in the desktop app; here, zoom with the browser (Ctrl and + or −).
        </p>
      ) : null}
      <label>
        <input
          type="checkbox"
          checked={preferences.startAtLogin}
          disabled={!supports.startAtLogin}
          onChange={(e) => void save({ startAtLogin: e.target.checked })}
        />
        Start Tributary when I log in
        <DesktopOnly shown={browser} />
      </label>
      <div className="desktop-zoom" role="group" aria-label="Zoom">
        <span>Zoom</span>
        <button
          type="button"
          aria-label="Zoom out"
          disabled={!supports.zoom || preferences.zoomFactor <= ZOOM_RANGE.min}
          onClick={() => void save({ zoomFactor: preferences.zoomFactor - ZOOM_RANGE.step })}
        >
          −
        </button>
        <output aria-label="Zoom level">{zoom} %</output>
        <button
          type="button"
          aria-label="Zoom in"
          disabled={!supports.zoom || preferences.zoomFactor >= ZOOM_RANGE.max}
          onClick={() => void save({ zoomFactor: preferences.zoomFactor + ZOOM_RANGE.step })}
        >
          +
        </button>
        <button
          type="button"
          disabled={!supports.zoom || preferences.zoomFactor === 1}
          onClick={() => void save({ zoomFactor: 1 })}
        >
          Reset
        </button>
        <DesktopOnly shown={browser} />
      </div>
      <ProxySettings
        key={JSON.stringify(preferences.proxy)}
        proxy={preferences.proxy}
        onSave={(proxy) => save({ proxy })}
      />
      <h3>In the desktop app</h3>
      <ul className="desktop-features">
        <li>
          Links starting with <code>tributary://</code> or <code>zulip://</code> open the
          conversation they name, in the account on that server.
          {browser ? (
            <>
              {' '}
              In browser mode, start with <code>npm start -- --open tributary://…</code>.
            </>
          ) : null}
        </li>
        <li>
          Right-click a misspelled word for suggestions or to add it to the dictionary.
          <DesktopOnly shown={browser} />
        </li>
        <li>
          Downloads ask where to save the file.
          <DesktopOnly shown={browser} />
        </li>
      </ul>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
