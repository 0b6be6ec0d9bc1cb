// The app shell: react-query and the chat store, the bridge subscription, the account switcher and
// sidebar, and the routes (narrows, inbox, recent, drafts, settings, sign-in, the manifest viewer).
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { appStore, ChatStoreProvider, useChatStore } from '../store/hooks';
import { selectActiveAccount, type ChatStore } from '../store';
import { connectBridge } from './bridge-sync';
import { api } from '../bridge/api';
import { leaveScreen, navigate, toggleUserList, uiStore, useUi } from '../store/ui-store';
import { followTopicMoves } from './topic-moves';
import { reportPageActivity } from './activity-report';
import { startNotifier } from '../features/notifications/notifier';
import { syncUnreadBadge } from '../features/notifications/badge-sync';
import { GLOBAL_SHORTCUTS, useShortcuts } from './shortcuts';
import { useHomeViewAtStart } from './home-view';
import { ManifestRoute } from './ManifestRoute';
import { useDisplaySettings } from '../lib/theme';
import { AccountSwitcher } from '../features/accounts/AccountSwitcher';
import { SignIn } from '../features/accounts/SignIn';
import { Sidebar } from '../features/sidebar/Sidebar';
import { NarrowView } from '../features/messages/NarrowView';
import { MentionStyles } from '../features/messages/MentionStyles';
import { Inbox } from '../features/views/Inbox';
import { Recent } from '../features/views/Recent';
import { Drafts } from '../features/views/Drafts';
import { ScheduledMessages } from '../features/views/ScheduledMessages';
import { ConversationSwitcher } from '../features/views/ConversationSwitcher';
// Settings (every personal and organization screen) is a third of the app's code and nobody needs
// it to read messages: it loads when first opened, so a launch parses less before the first paint.
const SettingsView = lazy(() =>
  import('../features/settings/SettingsView').then((m) => ({ default: m.SettingsView })),
);
import { ChannelBrowser } from '../features/channels/ChannelBrowser';
import { ConnectionBanner } from '../features/connection/ConnectionBanner';
import { LocalRealmBanner } from '../features/connection/LocalRealmBanner';
import { SearchBox } from '../features/search/SearchBox';
import { UserProfile } from '../features/people/UserProfile';
import { UserPopover } from '../features/people/UserPopover';
import { StatusEditor } from '../features/people/StatusEditor';
import { UserList } from '../features/people/UserList';
import { ShortcutHelp } from '../features/help/ShortcutHelp';

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
  useShortcuts(store, searchRef);
  useDisplaySettings(userSettings ?? {});
  useHomeViewAtStart(loaded, userSettings?.web_home_view);

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
  else if (route.kind === 'drafts') main = <Drafts accountId={activeAccountId} />;
  else if (route.kind === 'scheduled') main = <ScheduledMessages accountId={activeAccountId} />;
  else if (route.kind === 'settings')
    main = (
      <Suspense fallback={<p className="placeholder">Loading settings…</p>}>
        <SettingsView accountId={activeAccountId} section={route.section} />
      </Suspense>
    );
  else if (route.kind === 'channels')
    main = (
      <ChannelBrowser accountId={activeAccountId} streamId={route.streamId} create={route.create} />
    );

  return (
    <div className="app">
      <AccountSwitcher />
      <MentionStyles />
      <div className="column">
        <header className="topbar">
          <SearchBox ref={searchRef} />
          <button type="button" onClick={() => uiStore.setState({ overlay: { kind: 'status' } })}>
            Set status
          </button>
          <button type="button" onClick={() => navigate({ kind: 'manifest' })}>
            Open meeting manifest…
          </button>
          <button type="button" onClick={() => navigate({ kind: 'settings' })}>
            Settings
          </button>
          <button type="button" aria-pressed={userListOpen} onClick={toggleUserList}>
            People
          </button>
        </header>
        <LocalRealmBanner />
        <ConnectionBanner accountId={activeAccountId} />
        <div className="workspace">
          {loaded ? <Sidebar accountId={activeAccountId} /> : null}
          <main className="main">{main}</main>
          {loaded && userListOpen ? <UserList /> : null}
        </div>
      </div>
      {overlay?.kind === 'switcher' ? <ConversationSwitcher /> : null}
      {overlay?.kind === 'user' ? (
        <UserPopover userId={overlay.userId} anchor={overlay.anchor} />
      ) : null}
      {overlay?.kind === 'profile' ? (
        <UserProfile accountId={activeAccountId} userId={overlay.userId} />
      ) : null}
      {overlay?.kind === 'status' ? <StatusEditor accountId={activeAccountId} /> : null}
      {overlay?.kind === 'help' ? <ShortcutHelp global={GLOBAL_SHORTCUTS} /> : null}
    </div>
  );
}

export function App({
  store = appStore,
  queryClient,
}: {
  store?: ChatStore;
  queryClient?: QueryClient;
}) {
  const [client] = useState(
    () =>
      queryClient ??
      new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } }),
  );
  useEffect(() => connectBridge(api(), store), [store]);
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
  return (
    <QueryClientProvider client={client}>
      <ChatStoreProvider store={store}>
        <Shell store={store} />
      </ChatStoreProvider>
    </QueryClientProvider>
  );
}
