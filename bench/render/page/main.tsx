// The render benchmark's page: the real MessageList on a store holding one narrow of 10,000
// messages (channel messages over 500 topics from 50 senders, some with reactions and code), no
// network. It exposes window.bench for run.ts: first paint, node counts, and a bottom-to-top
// scroll that records frame times.
import { createRoot } from 'react-dom/client';
import { useLayoutEffect } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createChatStore } from '../../../renderer/store';
import { ChatStoreProvider } from '../../../renderer/store/hooks';
import { MessageList } from '../../../renderer/features/messages/MessageList';
import { channelNarrow, narrowKey } from '../../../shared/narrow';
import type {
  MessageWithFlags,
  RegisterResponse,
  User,
  Subscription,
} from '../../../shared/api/types';
import '../../../renderer/styles/app.css';

// 10,000 by default; run.ts also loads ?messages=50000 for the renderer-heap bar.
const MESSAGES = Number(new URLSearchParams(location.search).get('messages') ?? 10_000);
const CHANNEL = 1;

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
  subscriptions: [subscription],
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

function message(id: number): MessageWithFlags {
  const sender = 2 + ((id * 7) % 49);
  const body =
    id % 17 === 0
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
    display_recipient: 'general',
    recipient_id: 10,
    stream_id: CHANNEL,
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
(window as unknown as { tributary: unknown }).tributary = {
  on: () => () => undefined,
  updateFlags: async () => null,
};

let resolvePaint: (ms: number) => void;
const painted = new Promise<number>((resolve) => (resolvePaint = resolve));
let renderStart = 0;

function Measure() {
  useLayoutEffect(() => {
    (window as unknown as { benchCommitMs: number }).benchCommitMs =
      performance.now() - renderStart;
    // The next frame's callback runs after the committed DOM has been painted.
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark('bench:painted');
        resolvePaint(performance.now() - renderStart);
      }, 0),
    );
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
renderStart = performance.now();
performance.mark('bench:render');
createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={client}>
    <ChatStoreProvider store={store}>
      <MessageList accountId="bench" narrowKey={key} offline />
      <Measure />
    </ChatStoreProvider>
  </QueryClientProvider>,
);

(window as unknown as { bench: unknown }).bench = {
  firstPaint: () => painted,
  commitMs: () => (window as unknown as { benchCommitMs: number }).benchCommitMs,
  messageNodes: () => document.querySelectorAll('[data-testid=message]').length,
  domNodes: () => document.getElementsByTagName('*').length,
  scrollHeight: () => (document.querySelector('.message-list') as HTMLElement).scrollHeight,
  scrollToTop,
  maxNodes: () => (window as unknown as { benchMaxNodes: number }).benchMaxNodes,
};
