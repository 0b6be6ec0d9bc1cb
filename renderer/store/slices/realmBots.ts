// The realm_bots list (register's own key, kept in the settings slice's realm record) after a
// realm_bot event: add replaces a bot of the same id, update merges the changed fields, delete and
// the deprecated remove drop it. Keys never arrive here: main strips api_key first.
import type { RealmBot } from '../../../shared/api/types';
import type { RealmBotEvent } from '../../../shared/api/events';

export function applyRealmBotEvent(
  bots: readonly RealmBot[] | undefined,
  ev: RealmBotEvent,
): RealmBot[] {
  const list = bots ?? [];
  const others = list.filter((b) => b.user_id !== ev.bot.user_id);
  switch (ev.op) {
    case 'add':
      return [...others, ev.bot];
    case 'update': {
      const old = list.find((b) => b.user_id === ev.bot.user_id);
      return old ? list.map((b) => (b === old ? { ...old, ...ev.bot } : b)) : [...list];
    }
    default:
      return others;
  }
}
