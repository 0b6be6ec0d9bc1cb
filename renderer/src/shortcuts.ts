// Global keyboard shortcuts: c compose, x new direct message, r reply, n next unread topic,
// / search, Esc back / close, Ctrl/Cmd+K switch conversation. Ignored while typing in a field.
import { useEffect, type RefObject } from 'react';
import type { ChatStore } from '../store';
import { selectActiveAccount, selectUnreadCounts } from '../store';
import { topicNarrow, dmNarrow, narrowKey } from '../../shared/narrow';
import { conversationOf } from '../features/messages/narrow-info';
import { goBack, navigate, requestCompose, uiStore } from './ui-store';

function typingInField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** The first unread conversation (topic or DM) after the current one. */
export function nextUnreadConversation(store: ChatStore) {
  const account = selectActiveAccount(store.getState());
  if (!account) return null;
  const counts = selectUnreadCounts(account);
  for (const [, c] of counts.channels) {
    if (c.channelMuted) continue;
    for (const t of c.topics.values())
      if (!t.muted && t.count > 0) return topicNarrow(c.streamId, t.topic);
  }
  for (const [key, n] of counts.dms) if (n > 0) return dmNarrow(key.split(',').map(Number));
  return null;
}

export function useShortcuts(
  store: ChatStore,
  searchRef: RefObject<HTMLInputElement | null>,
): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        uiStore.setState({ overlay: { kind: 'switcher' } });
        return;
      }
      if (e.key === 'Escape') {
        if (uiStore.getState().overlay) uiStore.setState({ overlay: null });
        else if (!typingInField(e.target)) goBack();
        return;
      }
      if (typingInField(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      switch (e.key) {
        case 'c':
          e.preventDefault();
          requestCompose('channel');
          break;
        case 'x':
          e.preventDefault();
          requestCompose('dm');
          break;
        case 'r': {
          // Reply in the conversation of the selected message (arrow keys select one).
          e.preventDefault();
          const { selectedMessageId } = uiStore.getState();
          const account = selectActiveAccount(store.getState());
          const message =
            selectedMessageId !== null ? account?.messages.byId.get(selectedMessageId) : undefined;
          if (message && account) {
            const narrow = conversationOf(message, account.selfUserId);
            const route = uiStore.getState().route;
            if (route.kind !== 'narrow' || narrowKey(route.narrow) !== narrowKey(narrow))
              navigate({ kind: 'narrow', narrow, anchor: message.id });
          }
          setTimeout(() => requestCompose('reply'), 0);
          break;
        }
        case 'n': {
          const next = nextUnreadConversation(store);
          if (next) navigate({ kind: 'narrow', narrow: next });
          break;
        }
        case '/':
          e.preventDefault();
          searchRef.current?.focus();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, searchRef]);
}
