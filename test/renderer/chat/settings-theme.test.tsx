// Display settings: the settings screen saves number fields when the user is done and only within
// the server's ranges (PATCH /settings refuses the rest), and applyDisplaySettings turns
// color_scheme, web_font_size_px and web_line_height_percent into the page's theme.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Preferences as Settings } from '../../../renderer/features/settings/personal/Preferences';
import { applyDisplaySettings } from '../../../renderer/lib/theme';
import type { UserSettings } from '../../../shared/api/types';
import { register, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
});
afterEach(cleanup);

function renderSettings(user: UserSettings = register().user_settings) {
  const ctx = setupStore({ user_settings: user });
  render(
    <Providers store={ctx.store}>
      <Settings accountId="a" />
    </Providers>,
  );
  return {
    fontSize: screen.getByRole('spinbutton', { name: 'Font size (px)' }) as HTMLInputElement,
    lineHeight: screen.getByRole('spinbutton', { name: 'Line height (%)' }) as HTMLInputElement,
  };
}

const saved = () => api.updateSettings.mock.calls.map(([input]) => input.settings);

describe('settings screen', () => {
  it('saves a typed font size once, when the field is left, not per keystroke', async () => {
    const { fontSize } = renderSettings();
    fireEvent.change(fontSize, { target: { value: '1' } });
    fireEvent.change(fontSize, { target: { value: '18' } });
    expect(api.updateSettings).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.blur(fontSize);
    await waitFor(() => expect(saved()).toEqual([{ web_font_size_px: 18 }]));
    // Until the settings event arrives, the field keeps what was saved, not the old value.
    expect(fontSize.value).toBe('18');
  });

  it("keeps the person's value and shows why when the server refuses; Esc goes back", async () => {
    api.updateSettings.mockRejectedValue(new Error('Invalid web_font_size_px'));
    const { fontSize } = renderSettings();
    fireEvent.change(fontSize, { target: { value: '20' } });
    fireEvent.keyDown(fontSize, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toMatch(/Invalid web_font_size_px/);
    expect(fontSize.value).toBe('20');
    fireEvent.keyDown(fontSize, { key: 'Escape' });
    expect(fontSize.value).toBe('16');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("refuses values outside the server's range before sending, and saves with Enter", async () => {
    const { lineHeight } = renderSettings();
    fireEvent.change(lineHeight, { target: { value: '120' } });
    fireEvent.keyDown(lineHeight, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe(
      'Line height must be a whole number from 122 to 158 %.',
    );
    expect(lineHeight.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(lineHeight, { target: { value: '150' } });
    fireEvent.keyDown(lineHeight, { key: 'Enter' });
    await waitFor(() => expect(saved()).toEqual([{ web_line_height_percent: 150 }]));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(lineHeight.min).toBe('122');
    expect(lineHeight.max).toBe('158');
  });

  it('shows the documented defaults (16 px, 140 %) when the server sends none', () => {
    const user = { ...register().user_settings };
    delete user.web_font_size_px;
    delete user.web_line_height_percent;
    const { fontSize, lineHeight } = renderSettings(user);
    expect(fontSize.value).toBe('16');
    expect(lineHeight.value).toBe('140');
    fireEvent.blur(fontSize);
    expect(api.updateSettings).not.toHaveBeenCalled();
  });

  it('saves the theme choice', async () => {
    renderSettings();
    fireEvent.change(screen.getByRole('combobox', { name: 'Theme' }), { target: { value: '2' } });
    await waitFor(() => expect(saved()).toEqual([{ color_scheme: 2 }]));
  });
});

describe('applyDisplaySettings', () => {
  const root = () => document.createElement('html');

  it('follows color_scheme: dark, light, or the system when automatic', () => {
    const el = root();
    applyDisplaySettings(el, { color_scheme: 2 }, false);
    expect([el.dataset.theme, el.dataset.colorScheme]).toEqual(['dark', 'dark']);
    applyDisplaySettings(el, { color_scheme: 3 }, true);
    expect([el.dataset.theme, el.dataset.colorScheme]).toEqual(['light', 'light']);
    applyDisplaySettings(el, { color_scheme: 1 }, true);
    expect([el.dataset.theme, el.dataset.colorScheme]).toEqual(['dark', 'automatic']);
    applyDisplaySettings(el, { color_scheme: 1 }, false);
    expect([el.dataset.theme, el.dataset.colorScheme]).toEqual(['light', 'automatic']);
  });

  it('sets the font size and line height, with the documented defaults', () => {
    const el = root();
    applyDisplaySettings(el, { web_font_size_px: 20, web_line_height_percent: 150 }, false);
    expect(el.style.getPropertyValue('--font-size')).toBe('20px');
    expect(el.style.getPropertyValue('--line-height')).toBe('1.5');
    applyDisplaySettings(el, {}, false);
    expect(el.style.getPropertyValue('--font-size')).toBe('16px');
    expect(el.style.getPropertyValue('--line-height')).toBe('1.4');
    expect(el.dataset.colorScheme).toBe('automatic');
  });
});
