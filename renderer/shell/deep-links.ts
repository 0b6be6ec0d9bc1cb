// Opening a tributary:// or zulip:// link main handed over (at launch, from a second launch, from the
// OS): the account on that server becomes the active one and the link's conversation opens, at its
// message when it names one. A server with no account here opens sign-in with it filled in.
import type { DeepLink } from '../../shared/narrow/deep-link';
import { serverKey } from '../../shared/narrow/deep-link';
import type { ChatStore } from '../store';
import type { Api } from '../bridge/api';
import { ALL_MESSAGES_ROUTE, navigate, uiStore, type Route } from '../store/ui-store';

function whenAccountsLoaded(): Promise<void> {
  if (uiStore.getState().accountsLoaded) return Promise.resolve();
  return new Promise((resolve) => {
    const off = uiStore.subscribe((state) => {
      if (!state.accountsLoaded) return;
      off();
      resolve();
    });
  });
}

function routeOf(link: DeepLink): Route {
  if (!link.narrow) return ALL_MESSAGES_ROUTE;
  return link.anchor === undefined
    ? { kind: 'narrow', narrow: link.narrow }
    : { kind: 'narrow', narrow: link.narrow, anchor: link.anchor };
}

export async function openDeepLink(api: Api, store: ChatStore, link: DeepLink): Promise<void> {
  await whenAccountsLoaded();
  const account = uiStore.getState().accounts.find((a) => serverKey(a.site) === link.server);
  if (!account) {
    navigate({ kind: 'signin', site: `https://${link.server}` });
    return;
  }
  if (store.getState().activeAccountId !== account.id) {
    const changed = await api.switchAccount({ accountId: account.id });
    store.getState().setActiveAccount(changed.activeAccountId);
  }
  navigate(routeOf(link));
}
