// Compose's preview end to end below the browser: the Preview toggle asks the real browser-mode
// bridge (window.tributary over a WebSocket), whose main-process services call POST /messages/render
// on the real local realm server. What comes back is sanitized and decorated as message rows are:
// the mention, the emoji, math and a spoiler look as they will once sent. Typing goes back to
// editing; the server's refusal is shown. The topics offered after `#**general>` are the server's.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { openCompose } from '../support/compose';
import { Compose } from '../../../renderer/features/compose/Compose';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
let general: number;

beforeAll(async () => {
  live = await startLiveAccount();
  general = live.channelId('general');
}, 60_000);

afterAll(async () => {
  await live?.close();
});

afterEach(cleanup);

function renderCompose() {
  resetUi(live.accountId);
  render(
    <Providers store={live.store}>
      <Compose
        accountId={live.accountId}
        defaultDestination={{ type: 'stream', streamId: general, topic: 'preview' }}
      />
    </Providers>,
  );
  openCompose();
  return screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
}

describe('compose preview through main', () => {
  it("shows the server's rendering, sanitized and decorated as message rows are", async () => {
    const box = renderCompose();
    const source =
      '@**Emma Member** :smile: and $$x^2$$\n\n```spoiler Answer\nforty-two\n```\n\n```python\nprint(1)\n```';
    fireEvent.change(box, { target: { value: source, selectionStart: source.length } });
    const toggle = screen.getByRole('button', { name: 'Preview' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const preview = screen.getByRole('region', { name: 'Preview' });
    const content = await waitFor(
      () => {
        const found = preview.querySelector('.content');
        expect(found).not.toBeNull();
        return found!;
      },
      { timeout: 10_000 },
    );
    const mention = content.querySelector('.user-mention')!;
    expect(mention.textContent).toBe('@Emma Member');
    expect(mention.getAttribute('data-user-id')).toBe(String(live.realm.users.emma.user_id));
    expect(content.querySelector('span.emoji')?.textContent).toBe(':smile:');
    expect(content.querySelector('.katex')).not.toBeNull();
    // The app's own decoration, as in a message row: a spoiler toggle and a code block's copy button.
    const spoiler = content.querySelector('.spoiler-header')!;
    expect(spoiler.getAttribute('role')).toBe('button');
    expect(spoiler.getAttribute('aria-expanded')).toBe('false');
    expect(within(content as HTMLElement).getByRole('button', { name: 'Copy code' })).toBeTruthy();
    fireEvent.click(spoiler);
    expect(spoiler.getAttribute('aria-expanded')).toBe('true');

    // Typing goes back to editing.
    fireEvent.change(box, { target: { value: `${source}!`, selectionStart: source.length + 1 } });
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull();
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    // And so does the toggle itself.
    fireEvent.click(toggle);
    expect(screen.getByRole('region', { name: 'Preview' })).toBeTruthy();
    fireEvent.click(toggle);
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull();
  });

  it("shows the server's refusal", async () => {
    const box = renderCompose();
    const long = 'x'.repeat(10_001);
    fireEvent.change(box, { target: { value: long, selectionStart: long.length } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const alert = await screen.findByText(/Could not render the preview/, {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/Message too long/);
  });

  it("offers the channel's topics from the server after #**general>", async () => {
    await live.api.sendMessage({
      accountId: live.accountId,
      message: { type: 'channel', to: general, topic: 'zebra crossings', content: 'hello' },
    });
    const box = renderCompose();
    fireEvent.change(box, { target: { value: 'see #**general>zeb', selectionStart: 18 } });
    const list = await screen.findByRole('listbox', { name: 'Topics' }, { timeout: 10_000 });
    // The topics come from the real server: on a busy machine that takes more than a second.
    await waitFor(
      () => expect(within(list).getByRole('option', { name: /zebra crossings/ })).toBeTruthy(),
      { timeout: 10_000 },
    );
    // Clicked as found at that moment: the list may be drawn again when the topics arrive, which
    // would leave an element found earlier out of the page.
    const picked = 'see #**general>zebra crossings** ';
    await waitFor(() => {
      if (box.value !== picked)
        fireEvent.click(
          within(screen.getByRole('listbox', { name: 'Topics' })).getByRole('option', {
            name: /zebra crossings/,
          }),
        );
      expect(box.value).toBe(picked);
    });
  });
});
