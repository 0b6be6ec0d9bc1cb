// Personal display and behaviour settings (saved on the server; the store follows its events).
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../src/tributary';
import { navigate, uiStore } from '../../../src/ui-store';
import { FONT_SIZE_PX, LINE_HEIGHT_PERCENT } from '../../../lib/theme';
import { NumberSetting } from '../NumberSetting';

export function Preferences({ accountId }: { accountId: string }) {
  const user = useChatStore((s) => selectActiveAccount(s)?.settings.user);
  const [error, setError] = useState<string | null>(null);
  /** Resolves whether the server accepted it; a refusal shows as the screen's alert. */
  const save = (name: string, value: boolean | number | string) =>
    api()
      .updateSettings({ accountId, settings: { [name]: value } })
      .then(() => {
        setError(null);
        return true;
      })
      .catch((e: unknown) => {
        setError(errorText(e));
        return false;
      });
  if (!user) return null;
  return (
    <section className="settings-section" aria-label="Preferences">
      <h2>Preferences</h2>
      <label>
        Theme
        <select
          value={user.color_scheme ?? 1}
          onChange={(e) => void save('color_scheme', Number(e.target.value))}
        >
          <option value={1}>Automatic</option>
          <option value={3}>Light</option>
          <option value={2}>Dark</option>
        </select>
      </label>
      <NumberSetting
        label="Font size"
        unit="px"
        range={FONT_SIZE_PX}
        value={user.web_font_size_px ?? FONT_SIZE_PX.default}
        onSave={(v) => save('web_font_size_px', v)}
      />
      <NumberSetting
        label="Line height"
        unit="%"
        range={LINE_HEIGHT_PERCENT}
        value={user.web_line_height_percent ?? LINE_HEIGHT_PERCENT.default}
        onSave={(v) => save('web_line_height_percent', v)}
      />
      <label>
        <input
          type="checkbox"
          checked={user.enter_sends !== false}
          onChange={(e) => void save('enter_sends', e.target.checked)}
        />
        Enter sends (Shift+Enter for a new line)
      </label>
      <label>
        Mark messages as read on scroll
        <select
          value={user.web_mark_read_on_scroll_policy ?? 1}
          onChange={(e) => void save('web_mark_read_on_scroll_policy', Number(e.target.value))}
        >
          <option value={1}>Always</option>
          <option value={2}>Only in conversation views</option>
          <option value={3}>Never</option>
        </select>
      </label>
      <button type="button" onClick={() => uiStore.setState({ overlay: { kind: 'status' } })}>
        Set status…
      </button>
      <button type="button" onClick={() => navigate({ kind: 'manifest' })}>
        Open meeting manifest…
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
