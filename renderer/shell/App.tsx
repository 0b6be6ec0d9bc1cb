// The app shell: react-query and the chat store, the bridge subscription, the account switcher and
// sidebar, and the routes (narrows, inbox, recent, drafts, settings, sign-in, the manifest viewer).
// The window's layout (which side panels are inline or overlays) is layout.ts; settings and the
// channel browser open as full-window screens over it.
import { Suspense, useEffect, useRef, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { appStore, ChatStoreProvider, useChatStore } from '../store/hooks';
import { selectActiveAccount, type ChatStore } from '../store';
import { connectBridge } from './bridge-sync';
import { api } from '../bridge/api';
import { leaveScreen, toggleUserList, useUi } from '../store/ui-store';
import { useLayout } from './layout';
import { Drawer } from './Drawer';
import { TopBar } from './TopBar';
import { ScreenOverlay } from './ScreenOverlay';
import { Welcome } from '../features/help/Welcome';
import { followTopicMoves } from './topic-moves';
import { reportPageActivity } from './activity-report';
import { startNotifier } from '../features/notifications/notifier';
import { syncUnreadBadge } from '../features/notifications/badge-sync';
import { GLOBAL_SHORTCUTS, useShortcuts } from './shortcuts';
import { FeedbackToast } from '../lib/ui/feedback';
import { useHomeViewAtStart } from './home-view';
import { ManifestRoute } from './ManifestRoute';
import {
  ChannelBrowser,
  ConversationSwitcher,
  Drafts,
  ScheduledMessages,
  SettingsView,
  ShortcutHelp,
  StatusEditor,
} from './lazy-views';
import { useDisplaySettings } from '../lib/theme';
import { useIdleAfter } from '../lib/when-idle';
import { useFirstScreenHandoff } from '../lib/first-screen-handoff';
import { startFirstScreenCapture } from '../features/first-screen/capture';
import { AccountSwitcher } from '../features/accounts/AccountSwitcher';
import { SignIn } from '../features/accounts/SignIn';
import { Sidebar } from '../features/sidebar/Sidebar';
import { NarrowView } from '../features/messages/NarrowView';
import { MentionStyles } from '../features/messages/MentionStyles';
import { Inbox } from '../features/views/Inbox';
import { Recent } from '../features/views/Recent';
import { ConnectionBanner } from '../features/connection/ConnectionBanner';
import { LocalRealmBanner } from '../features/connection/LocalRealmBanner';
import { ActionNotices } from '../features/offline-actions/ActionNotices';
import { UserProfile } from '../features/people/UserProfile';
import { UserPopover } from '../features/people/UserPopover';
import { UserList } from '../features/people/UserList';

function Shell({ store }: { store: ChatStore }) {
  const route = useUi((s) => s.route);
  const overlay = useUi((s) => s.overlay);
  const accountsLoaded = useUi((s) => s.accountsLoaded);
  const hasAccount = useUi((s) => s.accounts.length > 0);
  const userListOpen = useUi((s) => s.userListOpen);
  const activeAccountId = useChatStore((s) => s.activeAccountId);
  // Whether the account's state is loaded, and its display settings: not the whole account, whose
  // every event batch would otherwise re-render the shell and every screen under it.
  const loaded = useChatStore((s) => selectActiveAccount(s) !== undefined);
  const userSettings = useChatStore((s) => selectActiveAccount(s)?.settings.user);
  const searchRef = useRef<HTMLInputElement>(null);
  const layout = useLayout();
  useShortcuts(store, searchRef);
  useDisplaySettings(userSettings ?? {});
  useHomeViewAtStart(loaded, userSettings?.web_home_view);
  // After the home view's effect: the first screen goes once this shell shows something else.
  useFirstScreenHandoff({
    accountsLoaded,
    hasActiveAccount: activeAccountId !== null,
    accountLoaded: loaded,
  });
  // The people list (every user sorted and grouped, a row each) renders once the page is idle
  // after the account loads: its empty frame holds its place until then, so the launch's first
  // render, and the first messages, do not wait for it.
  const peopleListReady = useIdleAfter(loaded);

  if (route.kind === 'signin')
    return (
      <>
        <LocalRealmBanner />
        <SignIn />
      </>
    );
  if (route.kind === 'manifest')
    return (
      <div className="manifest-route">
        <div className="screen-bar">
          <button type="button" onClick={() => leaveScreen(hasAccount)}>
            <span aria-hidden="true">← </span>Back
          </button>
        </div>
        <ManifestRoute path={route.path} meeting={route.meeting} />
      </div>
    );
  if (!accountsLoaded) return <p className="placeholder">Starting…</p>;
  if (!activeAccountId)
    return (
      <>
        <LocalRealmBanner />
        <SignIn />
      </>
    );

  let main: React.ReactNode;
  if (!loaded) main = <p className="placeholder">Loading {activeAccountId}…</p>;
  else if (route.kind === 'narrow')
    main = <NarrowView accountId={activeAccountId} narrow={route.narrow} anchor={route.anchor} />;
  else if (route.kind === 'inbox') main = <Inbox />;
  else if (route.kind === 'recent') main = <Recent accountId={activeAccountId} />;
  else if (route.kind === 'drafts')
    main = (
      <Suspense fallback={<p className="placeholder">Loading drafts…</p>}>
        <Drafts accountId={activeAccountId} />
      </Suspense>
    );
  else if (route.kind === 'scheduled')
    main = (
      <Suspense fallback={<p className="placeholder">Loading scheduled messages…</p>}>
        <ScheduledMessages accountId={activeAccountId} />
      </Suspense>
    );

  // Settings and the channel browser open over the whole window, as the public web app's
  // overlays: both sidebars out of the way, their tables at the window's width.
  let screen: React.ReactNode = null;
  if (loaded && route.kind === 'settings')
    screen = (
      <ScreenOverlay title="Settings" kind="settings">
        <Suspense fallback={<p className="placeholder">Loading settings…</p>}>
          <SettingsView accountId={activeAccountId} section={route.section} />
        </Suspense>
      </ScreenOverlay>
    );
  else if (loaded && route.kind === 'channels')
    screen = (
      <ScreenOverlay title="Channels" kind="channels">
        <Suspense fallback={<p className="placeholder">Loading channels…</p>}>
          <ChannelBrowser
            accountId={activeAccountId}
            streamId={route.streamId}
            create={route.create}
          />
        </Suspense>
      </ScreenOverlay>
    );

  const peopleShown = layout.peopleInline ? userListOpen : layout.panel === 'people';
  return (
    <div className="app">
      <AccountSwitcher />
      <MentionStyles />
      <div className="column">
        <TopBar
          searchRef={searchRef}
          sidebarInline={layout.sidebarInline}
          sidebarOpen={layout.panel === 'sidebar'}
          peopleShown={peopleShown}
          onToggleSidebar={() => layout.togglePanel('sidebar')}
          onTogglePeople={() =>
            layout.peopleInline ? toggleUserList() : layout.togglePanel('people')
          }
        />
        <LocalRealmBanner />
        <ConnectionBanner accountId={activeAccountId} />
        <ActionNotices accountId={activeAccountId} />
        <div
          className="workspace"
          data-sidebar={
            layout.sidebarInline ? 'inline' : layout.panel === 'sidebar' ? 'overlay' : 'hidden'
          }
          data-people={layout.peopleInline ? 'inline' : 'overlay'}
        >
          {loaded ? (
            <Drawer panel="sidebar" layout={layout}>
              <Sidebar accountId={activeAccountId} />
            </Drawer>
          ) : null}
          <main className="main">
            {loaded && !screen ? <Welcome /> : null}
            {main}
          </main>
          {loaded && peopleShown ? (
            <Drawer panel="people" layout={layout}>
              {peopleListReady ? <UserList /> : <aside className="user-list" aria-label="People" />}
            </Drawer>
          ) : null}
        </div>
      </div>
      {screen}
      {/* The dialogs below load their code when first opened (lazy-views.ts): nothing until then. */}
      <Suspense fallback={null}>
        {overlay?.kind === 'switcher' ? <ConversationSwitcher /> : null}
        {overlay?.kind === 'user' ? (
          <UserPopover userId={overlay.userId} anchor={overlay.anchor} />
        ) : null}
        {overlay?.kind === 'profile' ? (
          <UserProfile accountId={activeAccountId} userId={overlay.userId} />
        ) : null}
        {overlay?.kind === 'status' ? <StatusEditor accountId={activeAccountId} /> : null}
        {overlay?.kind === 'help' ? <ShortcutHelp global={GLOBAL_SHORTCUTS} /> : null}
      </Suspense>
      <FeedbackToast />
    </div>
  );
}

export function App({
  store = appStore,
  queryClient,
  bridgeConnected = false,
}: {
  store?: ChatStore;
  queryClient?: QueryClient;
  /** The entry (main.tsx) has connected the bridge to `store` already, before the first render. */
  bridgeConnected?: boolean;
}) {
  const [client] = useState(
    () =>
      queryClient ??
      new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } }),
  );
  useEffect(
    () => (bridgeConnected ? undefined : connectBridge(api(), store)),
    [store, bridgeConnected],
  );
  // After connectBridge's listener, so the store has applied the batch first.
  useEffect(
    () =>
      api().on('events', (batch) => followTopicMoves(batch.accountId, batch.events, client, store)),
    [client, store],
  );
  useEffect(() => reportPageActivity(api()), []);
  // After connectBridge's listener too: decisions read the store with the batch applied.
  useEffect(() => startNotifier(api(), store), [store]);
  useEffect(() => syncUnreadBadge(api(), store), [store]);
  useEffect(() => startFirstScreenCapture(api(), store), [store]);
  return (
    <QueryClientProvider client={client}>
      <ChatStoreProvider store={store}>
        <Shell store={store} />
      </ChatStoreProvider>
    </QueryClientProvider>
  );
}
