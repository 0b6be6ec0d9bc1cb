// Wires main's pushes into the two stores: realm snapshots and event batches into the chat store (one
// store update per batch), connection states, uploads, drafts, the outbox and launch requests into
// the UI store. Returns the unsubscribe function; the App calls it once on mount.
import type { ChatStore } from '../store';
import type { ConnectionState as IpcConnection } from '../../shared/ipc/common';
import type { AccountsChanged, SnapshotAnswer } from '../../shared/ipc/accounts';
import type { Api } from '../bridge/api';
import { homeRoute, navigate, replaceRoute, uiStore } from '../store/ui-store';
import type { UserSettings } from '../../shared/api/types';
import { narrowKey, type NarrowTerm } from '../../shared/narrow';
import { forgetUnsent, handOverUnsent } from '../bridge/unsent';
import { openDeepLink } from './deep-links';
import { afterNextPaint, markOnce } from '../lib/paint-marks';
import { hasFirstPage, offerFirstPage, requestFirstPage } from '../features/messages/first-page';
import type { MessagesPage, OutboxEntry as MainOutboxEntry } from '../../shared/ipc/chat';
import { cachedPageIsDecisive } from '../../shared/ipc/cached-page';

function storeStatus(state: IpcConnection) {
  switch (state.status) {
    case 'live':
      return { status: 'connected' as const, queueId: state.queueId, error: undefined };
    case 'backoff':
      return { status: 'reconnecting' as const, error: state.reason };
    case 'signed_out':
      return { status: 'error' as const, error: state.reason };
    case 'stopped':
      return { status: 'offline' as const };
    default:
      return { status: 'connecting' as const };
  }
}

/** Where the page keeps the account that was active when it last listed them. */
const LAST_ACTIVE_KEY = 'tributary:last-active-account';

function rememberedActiveAccount(): string | null {
  try {
    return globalThis.localStorage?.getItem(LAST_ACTIVE_KEY) ?? null;
  } catch {
    return null;
  }
}

function rememberActiveAccount(accountId: string | null): void {
  try {
    if (accountId) globalThis.localStorage?.setItem(LAST_ACTIVE_KEY, accountId);
    else globalThis.localStorage?.removeItem(LAST_ACTIVE_KEY);
  } catch {
    // Storage refused (private mode, quota): the next launch asks after the list, as before.
  }
}

export function connectBridge(api: Api, store: ChatStore): () => void {
  const chat = () => store.getState();
  const loaded = new Set<string>();
  /**
   * The snapshot of the account that was active last time, asked for with the account list rather
   * than after its answer, or the one main sent with the list: one round trip to main fewer before
   * the first messages. Used by loadAccount only if the list names that account.
   */
  const early = new Map<string, Promise<SnapshotAnswer>>();
  /**
   * The shell's first render waits for the active account's snapshot (main answers at once, from
   * its cache or with none yet): rendered before it, the whole shell would render empty and then
   * again with the account, and the first messages would wait for both.
   */
  let firstList = true;
  const showShell = () => {
    if (!uiStore.getState().accountsLoaded) uiStore.setState({ accountsLoaded: true });
  };

  /**
   * Main holds a cached account's first register until the page has painted its snapshot (from
   * getSnapshot, or replayed as a push after the host restarted); otherwise the call does nothing.
   */
  const tellShown = (accountId: string) =>
    afterNextPaint(() => void api.snapshotShown({ accountId }).catch(() => null));

  const setFromCache = (accountId: string, fromCache: boolean | 'seed') => {
    if ((uiStore.getState().fromCache[accountId] ?? false) === fromCache) return;
    uiStore.setState((s) => ({ fromCache: { ...s.fromCache, [accountId]: fromCache } }));
  };

  /**
   * The conversation open when the app last ran, shown at launch instead of all messages: only while
   * the person has not gone anywhere yet.
   */
  let launchRouteDecided = false;
  const openLastNarrow = (accountId: string, narrow: NarrowTerm[] | null | undefined) => {
    if (launchRouteDecided || chat().activeAccountId !== accountId) return;
    launchRouteDecided = true;
    if (narrow && !uiStore.getState().routeChosen) replaceRoute({ kind: 'narrow', narrow });
  };

  const setConnection = (accountId: string, state: IpcConnection) => {
    uiStore.setState((s) => ({ connections: { ...s.connections, [accountId]: state } }));
    chat().setConnectionState(accountId, storeStatus(state));
  };

  /** The local ids main listed in its last outbox push, per account. */
  const listedByMain = new Map<string, Set<string>>();

  /**
   * Main's outbox is the durable copy; the store's local echo shows it in the message list. An entry
   * main listed and no longer lists was either sent or discarded: a failed one can only have been
   * discarded (a retry first turns it back to sending), so its echo goes; a pending one was sent and
   * leaves when its message event arrives (the store matches it), so it is not dropped before that.
   */
  const syncOutbox = (accountId: string, entries: MainOutboxEntry[]) => {
    const account = chat().accounts[accountId];
    if (!account) return;
    const listed = new Set(entries.map((entry) => entry.localId));
    // Written down by main: the page's own copy is no longer needed.
    forgetUnsent(listed);
    for (const localId of listedByMain.get(accountId) ?? []) {
      if (listed.has(localId)) continue;
      if (account.outbox.byLocalId.get(localId)?.status === 'failed')
        chat().removeLocalEcho(accountId, localId);
    }
    listedByMain.set(accountId, listed);
    for (const entry of entries) {
      const echo = account.outbox.byLocalId.get(entry.localId);
      if (!echo) {
        const m = entry.message;
        chat().addLocalEcho(accountId, {
          localId: entry.localId,
          content: m.content,
          createdAt: entry.createdAt,
          destination:
            m.type === 'channel'
              ? {
                  type: 'stream',
                  streamId:
                    typeof m.to === 'number'
                      ? m.to
                      : (account.channels.idByName.get(m.to.toLowerCase()) ?? 0),
                  topic: m.topic,
                }
              : { type: 'private', to: m.to },
        });
      }
      if (entry.state === 'failed' && echo?.status !== 'failed')
        chat().markLocalEchoFailed(accountId, entry.localId, entry.lastError ?? 'Sending failed');
      else if (entry.state !== 'failed' && echo?.status === 'failed')
        chat().markLocalEchoPending(accountId, entry.localId);
    }
  };

  /**
   * The generation the account's state will have once the snapshot in hand replaces it (each
   * replacement counts one up: store/account.ts). Should it differ, the list's first query finds
   * no early page for its generation and asks again: a request too many, nothing worse.
   */
  const nextGeneration = (accountId: string) => (chat().accounts[accountId]?.generation ?? 0) + 1;

  /**
   * The open conversation's first page leaves with the snapshot, not after the first render; unless
   * the page already has it (the last conversation's, from the cache).
   */
  const askOpenConversation = (
    accountId: string,
    generation: number,
    snapshot?: { homeView: UserSettings['web_home_view'] },
  ) => {
    const { route: current, routeChosen } = uiStore.getState();
    // With the snapshot's home view while nothing chose the view yet: the view that will open
    // (useHomeViewAtStart), so an Inbox launch asks for no conversation's page.
    const route = snapshot && !routeChosen ? homeRoute(snapshot.homeView) : current;
    if (chat().activeAccountId !== accountId) return;
    if (route.kind !== 'narrow' || route.anchor !== undefined) return;
    const key = narrowKey(route.narrow);
    if (!hasFirstPage(accountId, key, generation)) requestFirstPage(accountId, key, generation);
  };

  /** A page main sent with the snapshot, put in the store before the first render. */
  const showPage = (accountId: string, narrow: NarrowTerm[], page: MessagesPage) =>
    chat().mergeFetchedMessages(accountId, narrowKey(narrow), page.messages, {
      foundOldest: !!page.found_oldest,
      foundNewest: !!page.found_newest,
      anchor: page.anchor ?? 'first_unread',
    });

  /**
   * The first page of the view the launch URL chose, sent by main with the list (listAccounts'
   * firstPageOf), per account: loadAccount offers it to the list and shows it with the snapshot.
   */
  const givenPages = new Map<string, { narrow: NarrowTerm[]; page: MessagesPage }>();

  /** The conversation main keeps as open per account (narrow key; null: the home view decides). */
  const rememberedByMain = new Map<string, string | null>();

  const loadAccount = async (accountId: string) => {
    if (loaded.has(accountId)) return;
    loaded.add(accountId);
    try {
      const asked = early.get(accountId) ?? api.getSnapshot({ accountId });
      early.delete(accountId);
      // That view's first page, when main sent it with the list (from its cache).
      const given = givenPages.get(accountId);
      givenPages.delete(accountId);
      if (given)
        offerFirstPage(accountId, narrowKey(given.narrow), nextGeneration(accountId), given.page);
      // A view the launch URL chose (#view=all) is known before the snapshot: its first page
      // leaves with the snapshot's request instead of after its answer. Otherwise the snapshot
      // decides (the last conversation, with its page, or the home view).
      if (uiStore.getState().routeChosen) askOpenConversation(accountId, nextGeneration(accountId));
      const { snapshot, events, connection, fromCache, seeded, lastNarrow, lastPage } = await asked;
      // Reopening it is not news to main: no call to write down what it just said (unless the
      // page has told it of another since).
      if (lastNarrow !== undefined && !rememberedByMain.has(accountId))
        rememberedByMain.set(accountId, lastNarrow ? narrowKey(lastNarrow) : null);
      openLastNarrow(accountId, lastNarrow);
      if (snapshot) {
        markOnce('tributary:snapshot-received');
        const generation = nextGeneration(accountId);
        // The last conversation's page from the cache is its list's first page (see
        // offerFirstPage); one the cache could not settle is asked of main as before.
        if (lastNarrow && lastPage && cachedPageIsDecisive(lastPage))
          offerFirstPage(accountId, narrowKey(lastNarrow), generation, lastPage);
        // The conversation the launch opens is known before the snapshot goes into the store: its
        // first page is asked for now, not after the store's work (15-100 ms for a small realm).
        askOpenConversation(accountId, generation);
        chat().replaceSnapshot(accountId, snapshot.register, snapshot.peoplePending);
        chat().applyEventBatch(accountId, events);
        markOnce('tributary:snapshot-applied');
      }
      // The last conversation's cached messages (or the chosen view's) go in with the snapshot:
      // its first render shows them.
      if (snapshot && lastNarrow && lastPage) showPage(accountId, lastNarrow, lastPage);
      if (snapshot && given) showPage(accountId, given.narrow, given.page);
      setFromCache(accountId, fromCache ? (seeded ? 'seed' : true) : false);
      setConnection(accountId, connection);
      // In the same task as the snapshot's store updates: one render shows the shell with them.
      if (chat().activeAccountId === accountId) showShell();
      // A first sign-in's snapshot without the people: main asks for them once it is painted.
      if (fromCache || snapshot?.peoplePending) tellShown(accountId);
      const [outbox, drafts, presence] = await Promise.all([
        api.getOutbox({ accountId }),
        api.listDrafts({ accountId }),
        // Main's reports since the snapshot; null before its first (or while signed out).
        api.getPresence({ accountId }).catch(() => null),
      ]);
      if (presence) chat().applyPresenceUpdate(presence);
      syncOutbox(accountId, outbox);
      uiStore.setState((s) => ({ drafts: { ...s.drafts, [accountId]: drafts } }));
    } catch {
      loaded.delete(accountId);
      showShell();
    }
  };

  const onAccounts = (changed: AccountsChanged) => {
    const known = new Set(changed.accounts.map((a) => a.id));
    for (const id of Object.keys(chat().accounts)) if (!known.has(id)) chat().removeAccount(id);
    // A removed account leaves nothing behind: signed in again, it loads afresh.
    for (const id of [...loaded]) if (!known.has(id)) loaded.delete(id);
    for (const id of listedByMain.keys()) if (!known.has(id)) listedByMain.delete(id);
    for (const id of rememberedByMain.keys()) if (!known.has(id)) rememberedByMain.delete(id);
    const connections: Record<string, IpcConnection> = {};
    for (const a of changed.accounts) connections[a.id] = a.connection;
    chat().setActiveAccount(changed.activeAccountId);
    rememberActiveAccount(changed.activeAccountId);
    // The first list shows the shell with the active account's snapshot (loadAccount), not before.
    const waitForSnapshot =
      firstList && changed.activeAccountId !== null && !loaded.has(changed.activeAccountId);
    firstList = false;
    for (const id of early.keys()) if (!known.has(id)) early.delete(id);
    uiStore.setState((s) => ({
      accounts: changed.accounts,
      accountsLoaded: s.accountsLoaded || !waitForSnapshot,
      connections: { ...s.connections, ...connections },
      // A manifest opened from the command line is shown even before any account exists.
      route:
        changed.accounts.length === 0 && s.route.kind !== 'manifest' ? { kind: 'signin' } : s.route,
    }));
    for (const a of changed.accounts) void loadAccount(a.id);
    void handOverUnsent(api, known);
  };

  const unsubscribers = [
    api.on('accounts', onAccounts),
    api.on('snapshot', (m) => {
      markOnce('tributary:snapshot-received');
      loaded.add(m.accountId);
      // The account's first snapshot came as a push (a first launch, a sign-in: getSnapshot had
      // none yet): its open conversation's first page leaves now, as loadAccount's does, rather
      // than after the render this snapshot causes. Later snapshots (a resync) leave the list to
      // ask where it stands.
      if (!chat().accounts[m.accountId])
        askOpenConversation(m.accountId, nextGeneration(m.accountId), {
          homeView: m.register.user_settings?.web_home_view,
        });
      chat().replaceSnapshot(m.accountId, m.register, m.peoplePending);
      setFromCache(m.accountId, false);
      markOnce('tributary:snapshot-applied');
      tellShown(m.accountId);
    }),
    api.on('people', (m) => chat().applyPeople(m)),
    api.on('events', (batch) => chat().applyEventBatch(batch.accountId, batch.events)),
    api.on('connection', (m) => setConnection(m.accountId, m.state)),
    api.on('uploadProgress', (p) =>
      uiStore.setState((s) => ({ uploads: { ...s.uploads, [p.uploadId]: p } })),
    ),
    api.on('drafts', (m) =>
      uiStore.setState((s) => ({ drafts: { ...s.drafts, [m.accountId]: m.drafts } })),
    ),
    api.on('outbox', (m) => syncOutbox(m.accountId, m.entries)),
    api.on('presence', (update) => chat().applyPresenceUpdate(update)),
    api.on('openManifest', (m) => navigate({ kind: 'manifest', path: m.path })),
    api.on('localRealm', (status) => uiStore.setState({ localRealm: status })),
    api.on('host', ({ status }) => {
      uiStore.setState({ host: status });
      if (status === 'connected') {
        // A new launch may run its local server differently (or not at all).
        void api
          .getLocalRealm({})
          .then((localRealm) => uiStore.setState({ localRealm }))
          .catch(() => undefined);
        void handOverUnsent(api, new Set(uiStore.getState().accounts.map((a) => a.id)));
      }
    }),
    api.on('openLink', (link) => {
      void openDeepLink(api, store, link).catch(() => undefined);
      // Main also queued it for a page that had not loaded: this one has it, so a reload must not
      // open it again (nor a manifest pushed earlier, which this page showed the same way).
      void api.takeLaunchRequests({}).catch(() => undefined);
    }),
    api.on('shellCommand', ({ command }) => {
      if (command === 'showShortcuts') uiStore.setState({ overlay: { kind: 'help' } });
      else navigate({ kind: 'settings', section: 'desktop' });
    }),
  ];

  const lastActive = rememberedActiveAccount();
  // Without a remembered account (a fresh browser profile), main sends the active account's
  // snapshot with the list: one round trip instead of two. A view the launch URL chose opens
  // whatever the snapshot says, so its first page can come with them too.
  const { route, routeChosen } = uiStore.getState();
  const firstPageOf =
    routeChosen && route.kind === 'narrow' && route.anchor === undefined ? route.narrow : undefined;
  void api
    .listAccounts(
      lastActive ? {} : { withActiveSnapshot: true, ...(firstPageOf && { firstPageOf }) },
    )
    .then(
      ({
        snapshot,
        events,
        connection,
        fromCache,
        seeded,
        lastNarrow,
        lastPage,
        firstPage,
        ...list
      }) => {
        const active = list.activeAccountId;
        if (active && connection !== undefined && !early.has(active)) {
          const answer = { snapshot: snapshot ?? null, events: events ?? [], connection };
          early.set(
            active,
            Promise.resolve({ ...answer, fromCache, seeded, lastNarrow, lastPage }),
          );
          if (firstPageOf && firstPage)
            givenPages.set(active, { narrow: firstPageOf, page: firstPage });
        }
        onAccounts(list);
      },
    )
    .catch(() => uiStore.setState({ accountsLoaded: true }));
  if (lastActive) {
    const asked = api.getSnapshot({ accountId: lastActive });
    asked.catch(() => undefined); // an account since removed: loadAccount never asks for it
    early.set(lastActive, asked);
  }
  void api
    .getLocalRealm({})
    .then((localRealm) => uiStore.setState({ localRealm }))
    .catch(() => undefined);
  void api
    .takeLaunchRequests({})
    .then((r) => {
      const first = r.openManifest[0];
      if (first) navigate({ kind: 'manifest', path: first.path });
      // The last link wins: each would replace the view the one before it opened.
      const link = r.openLink.at(-1);
      if (link) void openDeepLink(api, store, link).catch(() => undefined);
    })
    .catch(() => undefined);

  // Main keeps the open conversation per account, for the next launch.
  unsubscribers.push(
    uiStore.subscribe((state, previous) => {
      if (state.route === previous.route) return;
      const { route } = state;
      // A conversation is reopened at the next launch; leaving conversations for the Inbox or
      // Recent conversations means the home view (web_home_view) decides it again. Other screens
      // (settings, drafts) are passing: they change nothing.
      if (route.kind !== 'narrow' && route.kind !== 'inbox' && route.kind !== 'recent') return;
      const accountId = chat().activeAccountId;
      if (!accountId) return;
      const narrow = route.kind === 'narrow' ? route.narrow : null;
      const key = narrow ? narrowKey(narrow) : null;
      if (rememberedByMain.get(accountId) === key) return;
      rememberedByMain.set(accountId, key);
      void api.rememberOpenNarrow({ accountId, narrow }).catch(() => undefined);
    }),
  );

  return () => {
    for (const off of unsubscribers) off();
  };
}
