// The first screen of the demo realm says what it is and offers a few things to try, as a panel
// above the conversation (never over it). Dismissed once, it stays dismissed (welcome.ts); the
// app menu shows it again. Only the demo realm shows it: a real organization's first screen is
// its own messages.
import { MessageSquareReply, Server, SmilePlus, Video, X } from 'lucide-react';
import { navigate, requestCompose, useUi } from '../../store/ui-store';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { topicNarrow } from '../../../shared/narrow';
import { serverKey } from '../../../shared/narrow/deep-link';
import { dismissWelcome, useWelcomeDismissed } from './welcome';

/** The demo seed's organization name (server/seed/demo.ts). */
const DEMO_REALM_NAME = 'Tributary demo';

/** Whether the active account is on the demo realm: the local one the app runs, or a demo seed. */
function useOnDemoRealm(): boolean {
  const activeAccountId = useChatStore((s) => s.activeAccountId);
  const account = useUi((s) => s.accounts.find((a) => a.id === activeAccountId));
  const localUrl = useUi((s) => (s.localRealm?.state === 'running' ? s.localRealm.url : null));
  if (!account) return false;
  const site = serverKey(account.site);
  return (
    account.realmName === DEMO_REALM_NAME ||
    (!!localUrl && site !== null && site === serverKey(localUrl))
  );
}

/** The demo's greeting conversation (server/seed/demo-messages.ts), to reply in. */
const GREETING = { channel: 'general', topic: 'welcome' };

export function Welcome() {
  const dismissed = useWelcomeDismissed();
  const onDemo = useOnDemoRealm();
  const store = useChatStoreApi();
  // Reply where the demo's people said hello (all messages, if that channel is gone), compose open.
  const reply = () => {
    const channels = selectActiveAccount(store.getState())?.channels.subscriptions.values() ?? [];
    const general = [...channels].find((s) => s.name === GREETING.channel);
    navigate({
      kind: 'narrow',
      narrow: general ? topicNarrow(general.stream_id, GREETING.topic) : [],
    });
    requestCompose('reply');
  };
  if (dismissed || !onDemo) return null;
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-text">
        <h2 id="welcome-title">Welcome to the Tributary demo</h2>
        <p>
          This is a demo organization running on your computer, with made-up people and
          conversations. Nothing you do here leaves this machine. Some things to try:
        </p>
        <ul className="welcome-tries">
          <li>
            <button type="button" onClick={reply}>
              <MessageSquareReply size={16} aria-hidden="true" />
              Reply to a message
            </button>
          </li>
          <li>
            <span className="welcome-hint">
              <SmilePlus size={16} aria-hidden="true" />
              React: point at a message and choose an emoji
            </span>
          </li>
          <li>
            <button type="button" onClick={() => navigate({ kind: 'manifest' })}>
              <Video size={16} aria-hidden="true" />
              Open a meeting recording
            </button>
          </li>
          <li>
            <button type="button" onClick={() => navigate({ kind: 'signin' })}>
              <Server size={16} aria-hidden="true" />
              Sign in to a real server
            </button>
          </li>
        </ul>
      </div>
      <button
        type="button"
        className="welcome-close"
        aria-label="Dismiss welcome"
        title="Dismiss (it stays in the main menu)"
        onClick={dismissWelcome}
      >
        <X size={16} aria-hidden="true" />
      </button>
    </section>
  );
}
