// Test harness for chat screens: a store filled from the demo register snapshot (the store tests'
// fixtures), a fake window.tributary whose calls are recorded (main is not part of these tests),
// and the providers the screens need.
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ChatStoreProvider } from '../../../renderer/store/hooks';
import type { ChatStore } from '../../../renderer/store';
import { uiStore, ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { methodNames } from '../../../shared/ipc/contract';

export type FakeApi = Record<string, ReturnType<typeof vi.fn>>;

/** Main's answer to getMessages when the server has no (more) history: an empty, complete page. */
export const EMPTY_HISTORY = () => ({ messages: [], found_oldest: true, found_newest: true });

/** Every contract method as a recorded vi.fn; overrides give specific answers. */
export function installFakeApi(
  overrides: Record<string, (input: unknown) => unknown> = {},
): FakeApi {
  const fake: FakeApi = {};
  for (const name of methodNames) {
    fake[name] = vi.fn(async (input: unknown) => (overrides[name] ? overrides[name](input) : null));
  }
  fake.on = vi.fn(() => () => undefined);
  fake.uploadFile = vi.fn(async () => ({ uploadId: 'upload-0001' }));
  (window as unknown as { tributary: unknown }).tributary = fake;
  return fake;
}

/** Main's answers for an account with nothing waiting: no outbox, drafts, launch requests or history. */
export const QUIET_MAIN_ANSWERS: Record<string, (input: unknown) => unknown> = {
  getOutbox: () => [],
  listDrafts: () => [],
  takeLaunchRequests: () => ({ openManifest: [], openLink: [] }),
  getMessages: () => ({
    result: 'success',
    msg: '',
    messages: [],
    found_oldest: true,
    found_newest: true,
  }),
};

/** Account "a" as main lists it (listAccounts, the accounts push): signed in and live. */
export const LIVE_ACCOUNT = {
  id: 'a',
  site: 'http://127.0.0.1:9',
  email: 'owner@example.test',
  userId: 1,
  realmName: 'Demo realm',
  featureLevel: 400,
  secretBackend: 'file-0600',
  connection: { status: 'live', queueId: 'q1' },
};

/**
 * Main's answers for an app signed in as account "a", live, whose snapshot is `register` (the demo
 * register by default): spread into installFakeApi with the answers a test adds.
 */
export function liveAppAnswers(register: () => unknown) {
  return {
    ...QUIET_MAIN_ANSWERS,
    listAccounts: () => ({ accounts: [LIVE_ACCOUNT], activeAccountId: 'a' }),
    getSnapshot: () => ({
      snapshot: { accountId: 'a', queueId: 'q1', register: register() },
      events: [],
      connection: { status: 'live', queueId: 'q1' },
    }),
  };
}

export function resetUi(accountId = 'a'): void {
  uiStore.setState({
    accounts: [],
    accountsLoaded: true,
    connections: {},
    // Each test opens the view it needs; the home view would move it to the Inbox.
    routeChosen: true,
    uploads: {},
    drafts: { [accountId]: [] },
    route: ALL_MESSAGES_ROUTE,
    previous: [],
    selectedMessageId: null,
    composeRequest: null,
    composeHandled: 0,
    overlay: null,
  });
}

export function Providers({ store, children }: { store: ChatStore; children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <ChatStoreProvider store={store}>{children}</ChatStoreProvider>
    </QueryClientProvider>
  );
}

/**
 * jsdom lays nothing out: give elements a size so the virtualizer has a viewport to fill
 * (600 px high) and rows a measured height (60 px).
 */
export function fakeLayout(): () => void {
  const proto = HTMLElement.prototype;
  const saved = {
    rect: proto.getBoundingClientRect,
    offsetHeight: Object.getOwnPropertyDescriptor(proto, 'offsetHeight'),
    clientHeight: Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight'),
  };
  const savedScrollTo = Element.prototype.scrollTo;
  const savedScrollTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
  const scrollTops = new WeakMap<Element, number>();
  Object.defineProperty(Element.prototype, 'scrollTop', {
    configurable: true,
    get() {
      return scrollTops.get(this) ?? 0;
    },
    set(value: number) {
      scrollTops.set(this, Math.max(0, value));
    },
  });
  // jsdom has no scrolling: moving scrollTop and firing the event is what a browser would do.
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    const top = typeof options === 'number' ? options : (options?.top ?? this.scrollTop);
    this.scrollTop = top;
    this.dispatchEvent(new Event('scroll'));
  } as Element['scrollTo'];
  const height = (el: Element) => (el.classList.contains('message-list') ? 600 : 60);
  proto.getBoundingClientRect = function (this: HTMLElement) {
    const h = height(this);
    return {
      x: 0,
      y: 0,
      top: 0,
      left: 0,
      width: 800,
      height: h,
      right: 800,
      bottom: h,
      toJSON() {},
    } as DOMRect;
  };
  Object.defineProperty(proto, 'offsetHeight', {
    configurable: true,
    get() {
      return height(this);
    },
  });
  Object.defineProperty(Element.prototype, 'clientHeight', {
    configurable: true,
    get() {
      return height(this);
    },
  });
  // A scroll container's content height: its children's explicit heights (the virtualizer sets one).
  const savedScrollHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight');
  Object.defineProperty(Element.prototype, 'scrollHeight', {
    configurable: true,
    get(this: Element) {
      let total = 0;
      for (const child of this.children)
        total += parseFloat((child as HTMLElement).style?.height ?? '') || height(child);
      return Math.max(total, height(this));
    },
  });
  return () => {
    if (savedScrollHeight)
      Object.defineProperty(Element.prototype, 'scrollHeight', savedScrollHeight);
    Element.prototype.scrollTo = savedScrollTo;
    if (savedScrollTop) Object.defineProperty(Element.prototype, 'scrollTop', savedScrollTop);
    proto.getBoundingClientRect = saved.rect;
    if (saved.offsetHeight) Object.defineProperty(proto, 'offsetHeight', saved.offsetHeight);
    if (saved.clientHeight)
      Object.defineProperty(Element.prototype, 'clientHeight', saved.clientHeight);
  };
}
