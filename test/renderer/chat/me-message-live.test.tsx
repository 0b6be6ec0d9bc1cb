// `/me` messages as the real local realm server marks and renders them (is_me_message, content
// still starting with "/me"), fetched through the real main-process services into the store: the
// row shows the sender's name followed by the action, never the command itself.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
beforeAll(async () => {
  live = await startLiveAccount();
}, 60_000);
afterAll(async () => {
  await live?.close();
});
afterEach(cleanup);

/** Sends as the account, fetches the message back through main, and shows its row. */
async function sendAndShow(content: string) {
  const sent = await live.api.sendMessage({
    accountId: live.accountId,
    message: { type: 'channel', to: live.channelId('general'), topic: 'actions', content },
  });
  const message = await live.storeMessage(sent.messageId!);
  resetUi(live.accountId);
  const { container } = render(
    <Providers store={live.store}>
      <MessageRow accountId={live.accountId} id={message.id} prevId={undefined} selected={false} />
    </Providers>,
  );
  const row = container.querySelector<HTMLElement>('[data-testid=message]')!;
  return { message, row };
}

describe('/me messages', () => {
  it('show the sender name followed by the action, without "/me"', async () => {
    const { message, row } = await sendAndShow('/me waves **hello**');
    // What the server sent: marked, with the command in its HTML.
    expect(message.is_me_message).toBe(true);
    expect(message.content).toMatch(/^<p>\/me waves/);

    const line = row.querySelector('.content-line')!;
    const [name, content] = [...line.children];
    expect(name.tagName).toBe('BUTTON');
    expect(name.textContent).toBe('Olivia Owner');
    expect(content.className).toBe('content');
    expect(content.textContent).toBe('waves hello');
    expect(content.querySelector('strong')?.textContent).toBe('hello');
    expect(row.textContent).not.toContain('/me');
    // Styled as an action (italic through .message.me).
    expect(row.querySelector('.message.me')).not.toBeNull();
  });

  it('leaves a message that only starts with the letters alone', async () => {
    const { message, row } = await sendAndShow('/meeting moved to 3pm');
    expect(message.is_me_message).toBe(false);
    expect(row.querySelector('.content')?.textContent).toBe('/meeting moved to 3pm');
    expect(row.querySelector('.message.me')).toBeNull();
  });
});
