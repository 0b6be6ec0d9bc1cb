// Quote and reply end to end below the browser: the message's actions call the real browser-mode
// bridge (window.tributary over a WebSocket), which reaches the real main-process services, which
// fetch the message's Markdown source (GET /messages/{id}) from the real local realm server
// (127.0.0.1, SQLite in a temporary folder). The quote carries that source, not the rendered text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ChatStore } from '../../../renderer/store';
import { MessageActions } from '../../../renderer/features/messages/MessageActions';
import type { TributaryApi } from '../../../shared/ipc/contract';
import type { MessageWithFlags } from '../../../shared/api/types';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import { uiStore } from '../../../renderer/store/ui-store';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount, type LiveRealm } from './live-realm';

let live: LiveAccount;
let realm: LiveRealm;
let api: TributaryApi<Blob>;
let accountId: string;
let store: ChatStore;
let general: number;

beforeAll(async () => {
  live = await startLiveAccount();
  ({ realm, api, accountId, store } = live);
  general = live.channelId('general');
}, 60_000);

afterAll(async () => {
  await live?.close();
});

afterEach(cleanup);

/** Sends a message as the owner and shows its actions, as the message list would. */
async function sentMessage(topic: string, content: string): Promise<MessageWithFlags> {
  const sent = await api.sendMessage({
    accountId,
    message: { type: 'channel', to: general, topic, content },
  });
  const res = await api.getMessages({
    accountId,
    anchor: sent.messageId!,
    numBefore: 0,
    numAfter: 0,
  });
  const message = res.messages[0] as MessageWithFlags;
  store
    .getState()
    .mergeFetchedMessages(accountId, narrowKey(topicNarrow(general, topic)), [message], {
      foundOldest: true,
      foundNewest: true,
    });
  resetUi(accountId);
  uiStore.setState({
    accounts: [{ id: accountId, site: realm.url } as never],
    route: { kind: 'narrow', narrow: topicNarrow(general, topic) },
  });
  render(
    <Providers store={store}>
      <MessageActions accountId={accountId} message={message} />
    </Providers>,
  );
  return message;
}

async function quote(): Promise<string> {
  const before = uiStore.getState().composeRequest;
  fireEvent.click(screen.getByRole('button', { name: 'Message actions' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Quote and reply' }));
  await waitFor(() => expect(uiStore.getState().composeRequest).not.toBe(before), {
    timeout: 5000,
  });
  const request = uiStore.getState().composeRequest!;
  expect(request.kind).toBe('quote');
  return request.text!;
}

describe('quote and reply through main', () => {
  it("quotes the message's Markdown source, with who said it and a link to it", async () => {
    const source = 'Look at **this** and [that](https://example.com/page)\n\n- one\n- two';
    const message = await sentMessage('quotes', source);
    // The rendered HTML has lost the Markdown: quoting it would lose the formatting and the link.
    expect(message.content).toContain('<strong>this</strong>');
    const text = await quote();
    expect(text).toBe(
      `@_**${message.sender_full_name}|${message.sender_id}** ` +
        `[said](${realm.url}/#narrow/channel/${general}-general/topic/quotes/near/${message.id}):\n` +
        '```quote\n' +
        source +
        '\n```\n',
    );
  });

  it('fences the quote longer than a code block inside the message', async () => {
    const source = 'Run this:\n```js\nconsole.log(1)\n```';
    await sentMessage('code quotes', source);
    const text = await quote();
    expect(text).toContain('\n````quote\nRun this:\n```js\nconsole.log(1)\n```\n````\n');
  });

  it("stays in the view shown and addresses the reply to the message's conversation", async () => {
    await sentMessage('elsewhere', 'quoted from all messages');
    uiStore.setState({ route: { kind: 'narrow', narrow: [] } });
    await quote();
    // As in the public web app: quoting from All messages writes the reply there, to the topic.
    expect(uiStore.getState().route).toEqual({ kind: 'narrow', narrow: [] });
    expect(uiStore.getState().composeRequest?.to).toEqual({
      type: 'stream',
      streamId: general,
      topic: 'elsewhere',
    });
  });
});
