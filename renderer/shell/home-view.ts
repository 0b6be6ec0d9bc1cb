// The view the app opens on, by the user's web_home_view (inbox, recent conversations or all
// messages), as the public web app starts. Applied once per launch, when the first account's state
// arrives, and only if nothing has changed the route before: a person who already went somewhere,
// signing in (which opens the new account's messages) or switching accounts keeps their way.
import { useEffect } from 'react';
import type { UserSettings } from '../../shared/api/types';
import { homeRoute, replaceRoute, uiStore } from '../store/ui-store';

export function useHomeViewAtStart(loaded: boolean, view: UserSettings['web_home_view']): void {
  useEffect(() => {
    // Once (replaceRoute marks the view chosen): a later change of the setting does not move the
    // person.
    if (!loaded || uiStore.getState().routeChosen) return;
    replaceRoute(homeRoute(view));
  }, [loaded, view]);
}
