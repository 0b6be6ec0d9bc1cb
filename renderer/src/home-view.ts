// The view the app opens on, by the user's web_home_view (inbox, recent conversations or all
// messages), as the public web app starts. Applied once per account and launch, and only while the
// person has not gone anywhere yet, so a slow snapshot never pulls them away from what they opened.
import { useEffect } from 'react';
import type { UserSettings } from '../../shared/api/types';
import { ALL_MESSAGES_ROUTE, replaceRoute, uiStore, type Route } from './ui-store';

export function homeRoute(view: UserSettings['web_home_view']): Route {
  if (view === 'recent') return { kind: 'recent' };
  if (view === 'all_messages') return ALL_MESSAGES_ROUTE;
  return { kind: 'inbox' };
}

const applied = new Set<string>();

export function useHomeViewAtStart(
  accountId: string | null,
  loaded: boolean,
  view: UserSettings['web_home_view'],
): void {
  useEffect(() => {
    if (!accountId || !loaded || applied.has(accountId)) return;
    applied.add(accountId);
    const { route, previous } = uiStore.getState();
    if (route === ALL_MESSAGES_ROUTE && previous.length === 0) replaceRoute(homeRoute(view));
  }, [accountId, loaded, view]);
}
