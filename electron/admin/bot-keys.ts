// API keys of bots stay in main: the public server puts them in register's realm_bots and in
// realm_bot events, and the renderer's store would keep them. Both are copied here without
// api_key before they are pushed; the one way a key reaches the page is an explicit "show key".
import type { RegisterResponse } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';

export function registerWithoutBotKeys(register: RegisterResponse): RegisterResponse {
  if (!register.realm_bots?.some((bot) => 'api_key' in bot)) return register;
  return {
    ...register,
    realm_bots: register.realm_bots.map(({ api_key: _key, ...bot }) => bot),
  };
}

export function eventsWithoutBotKeys(events: ServerEvent[]): ServerEvent[] {
  if (!events.some((event) => event.type === 'realm_bot' && 'api_key' in event.bot)) return events;
  return events.map((event) => {
    if (event.type !== 'realm_bot' || !('api_key' in event.bot)) return event;
    const { api_key: _key, ...bot } = event.bot as { api_key?: string };
    return { ...event, bot } as ServerEvent;
  });
}
