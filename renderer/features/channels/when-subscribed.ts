// The id of a channel once the person's subscription to it has reached the store. Creating a
// channel answers before its subscription add event arrives on the queue; the settings screen it
// opens needs the subscription.
import { selectActiveAccount, type ChatStore } from '../../store';

const GIVE_UP_MS = 10_000;

/** With `subscribed` false, once the channel itself is known (created for others). */
export function whenSubscribed(
  store: ChatStore,
  name: string,
  subscribed = true,
): Promise<number | undefined> {
  const find = () => {
    const account = selectActiveAccount(store.getState());
    const id = account?.channels.idByName.get(name.toLowerCase());
    return id !== undefined && (!subscribed || account?.channels.subscriptions.has(id))
      ? id
      : undefined;
  };
  return new Promise((resolve) => {
    const found = find();
    if (found !== undefined) return resolve(found);
    const finish = (id: number | undefined) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(id);
    };
    const unsubscribe = store.subscribe(() => {
      const id = find();
      if (id !== undefined) finish(id);
    });
    const timer = setTimeout(() => finish(undefined), GIVE_UP_MS);
  });
}
