// The render benchmark's page: the real MessageList on a store holding one narrow of 10,000
// messages (channel messages over 500 topics from 50 senders, some with reactions and code), no
// network. It exposes window.bench for run.ts: open() mounts the list and resolves at its first
// paint; then node counts, and a bottom-to-top scroll that records frame times.
//
// Three situations (?mode=), from the least to the most warmed up:
// - cold: nothing rendered or painted before and no warm-up: open() is the page's first React
//   render and its first text layout (the figure earlier versions of this bench reported).
// - app (default): the app's shell (the real Sidebar and a top bar) has rendered and painted, and
//   the sanitizer was warmed at idle as the app's entry does (renderer/shell/main.tsx), but no message
//   list has run yet. open() mounts the MessageList in the main area.
// - switch: as app, and another channel's list (200 messages) is on screen, as in the app, which
//   opens on All messages: open() replaces it with the 10,000-message one (a new MessageList, as
//   NarrowView keys it by narrow), the usual way a user opens a narrow.
// In app and switch the sidebar is not re-rendered by open() (the app also re-renders it for the
// new route; that is the sidebar's cost, not the list's).
import { createRoot } from 'react-dom/client';
import { useLayoutEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createChatStore } from '../../../renderer/store';
import { ChatStoreProvider } from '../../../renderer/store/hooks';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { Sidebar } from '../../../renderer/features/sidebar/Sidebar';
import { uiStore } from '../../../renderer/store/ui-store';
import { warmSanitizerWhenIdle } from '../../../renderer/lib/sanitize';
import {
  warmMessageBodiesWhenIdle,
  warmMessageListWhenIdle,
} from '../../../renderer/features/messages/warm-up';
import { channelNarrow, narrowKey } from '../../../shared/narrow';
import type {
  MessageWithFlags,
  RegisterResponse,
  User,
  Subscription,
} from '../../../shared/api/types';
import '../../../renderer/shell/styles';
import { loadEmojiSheet } from '../../../renderer/lib/emoji-sheet';

// 10,000 by default; run.ts also loads ?messages=50000 for the renderer-heap bar.
const params = new URLSearchParams(location.search);
const MESSAGES = Number(params.get('messages') ?? 10_000);
const MODE = (['cold', 'switch'] as const).find((m) => m === params.get('mode')) ?? 'app';
// The app loads the emoji positions after its first render; the bench's pages open later still.
void loadEmojiSheet();
/** ?content=rich: every message body is one of the server-rendered rich bodies (emoji, math,
 * highlighted code, spoilers, quotes, times, mentions, images) that run.ts renders with the real
 * local server (rich-content.ts) and hands to the page before it loads. */
const RICH_BODIES =
  params.get('content') === 'rich'
    ? (window as unknown as { benchRichBodies?: string[] }).benchRichBodies
    : undefined;
if (params.get('content') === 'rich' && !RICH_BODIES?.length)
  throw new Error('content=rich needs window.benchRichBodies');
const CHANNEL = 1;
/** The channel on screen before open() in switch mode, and its message count. */
const PREVIOUS_CHANNEL = 2;
const PREVIOUS_MESSAGES = 200;

function user(id: number): User {
  return {
    user_id: id,
    delivery_email: null,
    email: `user${id}@example.test`,
    full_name: `User ${id}`,
    date_joined: '2024-01-01T00:00:00Z',
    is_active: true,
    is_owner: id === 1,
    is_admin: id === 1,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    role: 400,
    timezone: 'UTC',
    avatar_url: null,
    avatar_version: 1,
  };
}

const subscription = {
  stream_id: CHANNEL,
  name: 'general',
  description: '',
  rendered_description: '',
  color: '#76ce90',
  is_muted: false,
  pin_to_top: false,
} as unknown as Subscription;

const register = {
  result: 'success',
  msg: '',
  queue_id: 'bench',
  last_event_id: -1,
  user_id: 1,
  realm_users: Array.from({ length: 50 }, (_, i) => user(i + 1)),
  subscriptions: [
    subscription,
    { ...subscription, stream_id: PREVIOUS_CHANNEL, name: 'random', color: '#c2726a' },
  ],
  unread_msgs: {
    count: 0,
    pms: [],
    streams: [],
    huddles: [],
    mentions: [],
    old_unreads_missing: false,
  },
  drafts: [],
  user_settings: { web_mark_read_on_scroll_policy: 3 },
  realm_user_groups: [],
  user_topics: [],
  user_status: {},
  recent_private_conversations: [],
  starred_messages: [],
} as unknown as RegisterResponse;

function message(id: number, channel = CHANNEL): MessageWithFlags {
  const sender = 2 + ((id * 7) % 49);
  const body = RICH_BODIES
    ? RICH_BODIES[id % RICH_BODIES.length]
    : id % 17 === 0
      ? '<p>Here is the snippet:</p><div class="codehilite"><pre><span></span><code>const x = 1;\nconsole.log(x);\n</code></pre></div>'
      : id % 5 === 0
        ? `<p>A longer message number ${id}, which wraps over more than one line on a normal window so that rows have different heights, with a <a href="https://example.com/${id}">link</a> and <strong>emphasis</strong>.</p>`
        : `<p>Message ${id}</p>`;
  return {
    id,
    type: 'stream',
    sender_id: sender,
    sender_email: `user${sender}@example.test`,
    sender_full_name: `User ${sender}`,
    sender_realm_str: 'bench',
    avatar_url: null,
    client: 'bench',
    content: body,
    content_type: 'text/html',
    display_recipient: channel === CHANNEL ? 'general' : 'random',
    recipient_id: 10,
    stream_id: channel,
    subject: `topic ${Math.floor(id / 20)}`,
    topic_links: [],
    timestamp: 1_790_000_000 + id * 60,
    is_me_message: false,
    reactions:
      id % 11 === 0
        ? [
            {
              emoji_name: 'thumbs_up',
              emoji_code: '1f44d',
              reaction_type: 'unicode_emoji',
              user_id: 3,
            },
            { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: 4 },
          ]
        : [],
    submessages: [],
    flags: ['read'],
  };
}

const store = createChatStore();
store.getState().replaceSnapshot('bench', register);
const key = narrowKey(channelNarrow(CHANNEL));
store.getState().mergeFetchedMessages(
  'bench',
  key,
  Array.from({ length: MESSAGES }, (_, i) => message(i + 1)),
  { foundOldest: true, foundNewest: true },
);
const previousKey = narrowKey(channelNarrow(PREVIOUS_CHANNEL));
if (MODE === 'switch')
  store.getState().mergeFetchedMessages(
    'bench',
    previousKey,
    Array.from({ length: PREVIOUS_MESSAGES }, (_, i) =>
      message(MESSAGES + 1 + i, PREVIOUS_CHANNEL),
    ),
    { foundOldest: true, foundNewest: true },
  );
(window as unknown as { tributary: unknown }).tributary = {
  on: () => () => undefined,
  updateFlags: async () => null,
  getStreamTopics: async () => ({ result: 'success', msg: '', topics: [] }),
};
uiStore.setState({
  accountsLoaded: true,
  route: { kind: 'inbox' },
  drafts: { bench: [] },
});

let resolvePaint: (ms: number) => void;
const painted = new Promise<number>((resolve) => (resolvePaint = resolve));
let renderStart = 0;

function Measure() {
  useLayoutEffect(() => {
    (window as unknown as { benchCommitMs: number }).benchCommitMs =
      performance.now() - renderStart;
    // The next frame's callback runs after the committed DOM has been painted.
    requestAnimationFrame(() => {
      // What that frame shows, read in its animation frame callback (the app's own callbacks for
      // the frame ran before this one; the layout read here is the one the frame needs anyway):
      // the list's last message at the bottom of its viewport, where the list opens without
      // unreads, and rows from the viewport's top down (no gap above the first row).
      const list = document.querySelector('.message-list')!.getBoundingClientRect();
      const last = document.querySelector(`[data-message-id="${MESSAGES}"]`);
      const bottom = last?.getBoundingClientRect().bottom;
      const firstTop = document.querySelector('[data-testid=message]')?.getBoundingClientRect().top;
      const shown = window as unknown as {
        benchEndInView: boolean;
        benchFilled: boolean;
        benchFirstFrameNodes: number;
      };
      shown.benchEndInView =
        bottom !== undefined && bottom > list.top && Math.abs(bottom - list.bottom) <= 1;
      shown.benchFilled = firstTop !== undefined && firstTop <= list.top;
      shown.benchFirstFrameNodes = document.querySelectorAll('[data-testid=message]').length;
      // The frame is painted when the task running this callback ends. A user-blocking task
      // posted now runs right after it; a timer would also wait for the tasks the app queued
      // before it (React's passive effects), which come after the paint.
      const painted = () => {
        performance.mark('bench:painted');
        resolvePaint(performance.now() - renderStart);
      };
      const scheduler = (
        globalThis as {
          scheduler?: { postTask(cb: () => void, o: { priority: string }): Promise<void> };
        }
      ).scheduler;
      if (scheduler) void scheduler.postTask(painted, { priority: 'user-blocking' });
      else setTimeout(painted, 0);
    });
  }, []);
  return null;
}

async function scrollToTop(pxPerFrame: number): Promise<number[]> {
  const list = document.querySelector('.message-list') as HTMLElement;
  list.dispatchEvent(new WheelEvent('wheel')); // the user takes over from the initial positioning
  const frames: number[] = [];
  let last = performance.now();
  let maxNodes = 0;
  await new Promise<void>((resolve) => {
    const step = (now: number) => {
      frames.push(now - last);
      last = now;
      maxNodes = Math.max(maxNodes, document.querySelectorAll('[data-testid=message]').length);
      if (list.scrollTop <= 0) return resolve();
      list.scrollTop = Math.max(0, list.scrollTop - pxPerFrame);
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  (window as unknown as { benchMaxNodes: number }).benchMaxNodes = maxNodes;
  return frames.slice(1);
}

const client = new QueryClient();

let showList: (narrowKey: string) => void = () => undefined;

/** The app's frame around the main area, showing one narrow's list as NarrowView does. */
function Shell({ initial }: { initial: string | null }) {
  const [shown, setShown] = useState(initial);
  showList = setShown;
  return (
    <div className="app">
      <div className="column">
        <header className="topbar">
          <input type="search" placeholder="Search" aria-label="Search" />
          <button type="button">Settings</button>
        </header>
        <div className="workspace">
          <Sidebar accountId="bench" />
          <main className="main">
            {shown ? (
              <section className="narrow-view" aria-label="Channel">
                <header className="narrow-header">
                  <h1>{shown === key ? '#general' : '#random'}</h1>
                </header>
                <MessageList key={shown} accountId="bench" narrowKey={shown} offline />
                {shown === key ? <Measure /> : null}
              </section>
            ) : (
              <p className="placeholder">Pick a conversation.</p>
            )}
          </main>
        </div>
      </div>
    </div>
  );
}

function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

const rootElement = document.getElementById('root')!;
let ready: Promise<void>;
if (MODE === 'cold') {
  ready = Promise.resolve();
} else {
  rootElement.removeAttribute('style');
  createRoot(rootElement).render(
    <QueryClientProvider client={client}>
      <ChatStoreProvider store={store}>
        <Shell initial={MODE === 'switch' ? previousKey : null} />
      </ChatStoreProvider>
    </QueryClientProvider>,
  );
  // Settled: painted, the sanitizer, the list and the lists' newest rows' HTML warmed at idle as
  // the app's entry does, the previous list's follow-up frames done.
  const bodies = warmMessageBodiesWhenIdle(store);
  ready = nextPaint()
    .then(() => Promise.all([warmSanitizerWhenIdle(), warmMessageListWhenIdle(), bodies.drained()]))
    .then(nextPaint)
    .then(nextPaint);
}

/** Mounts the list (performance mark bench:render) and resolves with ms to its first paint. */
function open(): Promise<number> {
  renderStart = performance.now();
  performance.mark('bench:render');
  if (MODE !== 'cold') showList(key);
  else
    createRoot(rootElement).render(
      <QueryClientProvider client={client}>
        <ChatStoreProvider store={store}>
          <MessageList accountId="bench" narrowKey={key} offline />
          <Measure />
        </ChatStoreProvider>
      </QueryClientProvider>,
    );
  return painted;
}

void ready.then(() => {
  (window as unknown as { bench: unknown }).bench = {
    open,
    commitMs: () => (window as unknown as { benchCommitMs: number }).benchCommitMs,
    messageNodes: () => document.querySelectorAll('[data-testid=message]').length,
    endInView: () => (window as unknown as { benchEndInView: boolean }).benchEndInView,
    filled: () => (window as unknown as { benchFilled: boolean }).benchFilled,
    firstFrameNodes: () =>
      (window as unknown as { benchFirstFrameNodes: number }).benchFirstFrameNodes,
    domNodes: () => document.getElementsByTagName('*').length,
    scrollHeight: () => (document.querySelector('.message-list') as HTMLElement).scrollHeight,
    scrollToTop,
    maxNodes: () => (window as unknown as { benchMaxNodes: number }).benchMaxNodes,
  };
});
