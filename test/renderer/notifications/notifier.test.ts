// The renderer's notifier and badge sync against a recorded stand-in for window.tributary (main is
// not part of these tests; the e2e tests run the real one): event batches through the decision
// table to showNotification, the Electron path (main shows it; its click push opens the
// conversation, switching account) and the browser path (the page shows it once allowed), and the
// title and badge count following desktop_icon_count_display.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerEvent } from '../../../shared/api/events';
import type { MessageFlag } from '../../../shared/api/types';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { startNotifier } from '../../../renderer/features/notifications/notifier';
import { syncUnreadBadge } from '../../../renderer/features/notifications/badge-sync';
import { uiStore } from '../../../renderer/store/ui-store';
import type { Api } from '../../../renderer/bridge/api';
import { resetUi } from '../chat/harness';
import {
  channelMessage,
  directMessage,
  EMMA,
  eventId,
  GENERAL,
  register,
  SELF,
  unreadMsgs,
} from '../store/fixtures';

type Listener = (payload: unknown) => void;

function fakeApi(shownBy: 'main' | 'page') {
  const listeners = new Map<string, Listener[]>();
  const api = {
    on: vi.fn((channel: string, listener: Listener) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return () => undefined;
    }),
    showNotification: vi.fn(async (_note: { tag: string }) => ({ shownBy })),
    setUnreadBadge: vi.fn(async () => null),
    switchAccount: vi.fn(async () => ({ accounts: [], activeAccountId: null })),
  };
  const emit = (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  };
  return { api, emit, asApi: api as unknown as Api };
}

let store: ChatStore;
beforeEach(() => {
  resetUi();
  store = createChatStore();
  store.getState().replaceSnapshot('a', register());
  store.getState().replaceSnapshot('b', register());
  store.getState().setActiveAccount('a');
});
afterEach(() => vi.unstubAllGlobals());

/** What bridge-sync does first (apply to the store), then the notifier's turn. */
function deliver(emit: (c: string, p: unknown) => void, accountId: string, events: ServerEvent[]) {
  store.getState().applyEventBatch(accountId, events);
  emit('events', { accountId, events });
}

const dmEvent = (id: number, flags: MessageFlag[] = []) =>
  ({ id: eventId(), type: 'message', message: directMessage(id, [EMMA]), flags }) as ServerEvent;

describe('notifier', () => {
  it('Electron: main shows it; its click push opens the conversation in the other account', async () => {
    const { api, emit, asApi } = fakeApi('main');
    const page = vi.fn();
    vi.stubGlobal('Notification', page);
    startNotifier(asApi, store);
    deliver(emit, 'a', [dmEvent(9001)]);
    await vi.waitFor(() => expect(api.showNotification).toHaveBeenCalledTimes(1));
    expect(api.showNotification).toHaveBeenCalledWith({
      accountId: 'a',
      title: 'Emma Member (to you)',
      body: 'dm 9001',
      tag: 'message-9001',
      target: { kind: 'dm', userIds: [EMMA], messageId: 9001 },
    });
    expect(page).not.toHaveBeenCalled();

    emit('notificationClicked', {
      accountId: 'b',
      target: { kind: 'topic', streamId: GENERAL, topic: 'lunch', messageId: 77 },
    });
    expect(store.getState().activeAccountId).toBe('b');
    expect(api.switchAccount).toHaveBeenCalledWith({ accountId: 'b' });
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: [
        { operator: 'channel', operand: GENERAL },
        { operator: 'topic', operand: 'lunch' },
      ],
      anchor: 77,
    });
  });

  it('notifies once per message: re-delivered, read and own messages do not', async () => {
    const { api, emit, asApi } = fakeApi('main');
    startNotifier(asApi, store);
    const first = dmEvent(9100);
    deliver(emit, 'a', [first]);
    // The same message again (a re-delivery after a reconnect), one already read, one of mine.
    emit('events', { accountId: 'a', events: [first] });
    deliver(emit, 'a', [
      dmEvent(9101, ['read']),
      {
        id: eventId(),
        type: 'message',
        message: channelMessage(9102, GENERAL, 'mine', { sender: SELF, content: '@**Emma**' }),
        flags: ['read'],
      },
    ]);
    // A later message that notifies: once it is asked for, the ones before were decided.
    deliver(emit, 'a', [dmEvent(9103)]);
    await vi.waitFor(() => expect(api.showNotification).toHaveBeenCalledTimes(2));
    expect(api.showNotification.mock.calls.map(([note]) => note.tag)).toEqual([
      'message-9100',
      'message-9103',
    ]);
  });

  it('browser mode: the page shows it once allowed, and its click opens the conversation', async () => {
    const { emit, asApi } = fakeApi('page');
    const shown: Array<{ title: string; options: unknown; instance: { onclick?: () => void } }> =
      [];
    let permission = 'default';
    class PageNotification {
      static get permission() {
        return permission;
      }
      onclick?: () => void;
      close = vi.fn();
      constructor(title: string, options: unknown) {
        shown.push({ title, options, instance: this });
      }
    }
    vi.stubGlobal('Notification', PageNotification);
    vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    startNotifier(asApi, store);
    deliver(emit, 'a', [dmEvent(9200)]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shown).toEqual([]);

    permission = 'granted';
    deliver(emit, 'a', [dmEvent(9201)]);
    await vi.waitFor(() => expect(shown).toHaveLength(1));
    expect(shown[0]).toMatchObject({
      title: 'Emma Member (to you)',
      options: { body: 'dm 9201', tag: 'a:message-9201' },
    });
    shown[0].instance.onclick?.();
    expect(window.focus).toHaveBeenCalled();
    expect(uiStore.getState().route).toMatchObject({
      kind: 'narrow',
      narrow: [{ operator: 'dm', operand: [EMMA] }],
      anchor: 9201,
    });
  });
});

describe('title and badge', () => {
  it('follow the count across accounts and each account’s desktop_icon_count_display', async () => {
    const s = createChatStore();
    const unread = unreadMsgs({
      pms: [{ other_user_id: EMMA, unread_message_ids: [50, 51] }],
      streams: [{ stream_id: GENERAL, topic: 'lunch', unread_message_ids: [60, 61, 62] }],
      mentions: [62],
    });
    s.getState().replaceSnapshot('a', register({ unread_msgs: unread }));
    const { api, asApi } = fakeApi('main');
    syncUnreadBadge(asApi, s);
    expect(document.title).toBe('(5) Tributary');
    expect(api.setUnreadBadge).toHaveBeenLastCalledWith({ count: 5 });

    s.getState().applyEventBatch('a', [
      {
        id: eventId(),
        type: 'user_settings',
        op: 'update',
        property: 'desktop_icon_count_display',
        value: 3,
      },
    ] as ServerEvent[]);
    expect(document.title).toBe('(3) Tributary');
    s.getState().replaceSnapshot('b', register({ unread_msgs: unread }));
    expect(document.title).toBe('(8) Tributary');
    s.getState().applyEventBatch('a', [
      {
        id: eventId(),
        type: 'user_settings',
        op: 'update',
        property: 'desktop_icon_count_display',
        value: 4,
      },
    ] as ServerEvent[]);
    expect(document.title).toBe('(5) Tributary');
    expect(api.setUnreadBadge).toHaveBeenLastCalledWith({ count: 5 });
  });
});
