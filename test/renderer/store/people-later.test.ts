// A first sign-in's snapshot can come without the people (electron/accounts/session.ts): the
// store says they are loading, names read as loading rather than as unknown users, and once the
// people come (applyPeople) they show, with the realm_user events main held meanwhile applied
// over them, and a message delivered in between kept.
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../../renderer/store';
import { userName, LOADING_NAME } from '../../../renderer/features/messages/narrow-info';
import type { RegisterResponse } from '../../../shared/api/types';
import { EMMA, GENERAL, channelMessage, messageEvent, register } from './fixtures';

function withoutPeople(): RegisterResponse {
  const {
    realm_users: _users,
    realm_non_active_users: _inactive,
    ...rest
  } = register({
    last_event_id: 10,
  });
  return rest as RegisterResponse;
}

describe('people after the snapshot', () => {
  it('shows them as loading, then as they are, with the changes made meanwhile', () => {
    const store = createChatStore();
    const full = register();
    store.getState().replaceSnapshot('a', withoutPeople(), true);
    const account = () => store.getState().accounts.a;
    expect(account().users.loading).toBe(true);
    expect(userName(account(), EMMA)).toBe(LOADING_NAME);
    // A message arrives before the people: it is kept.
    store
      .getState()
      .applyEventBatch('a', [{ ...messageEvent(channelMessage(501, GENERAL, 'hi')), id: 12 }]);
    store.getState().applyPeople({
      accountId: 'a',
      queueId: full.queue_id!,
      people: {
        realm_users: full.realm_users,
        realm_non_active_users: full.realm_non_active_users,
      },
      // Held by main: numbered below the message applied above, applied all the same.
      events: [
        {
          type: 'realm_user',
          op: 'update',
          id: 11,
          person: { user_id: EMMA, full_name: 'Emma R.' },
        },
      ],
    });
    expect(account().users.loading).toBe(false);
    expect(userName(account(), EMMA)).toBe('Emma R.');
    expect(account().users.users.size).toBe(full.realm_users.length);
    expect(account().messages.byId.has(501)).toBe(true);
    expect(account().lastEventId).toBe(12);
  });

  it('says an unknown user once the people are in', () => {
    const store = createChatStore();
    store.getState().replaceSnapshot('a', register());
    expect(store.getState().accounts.a.users.loading).toBe(false);
    expect(userName(store.getState().accounts.a, 9999)).toBe('User 9999');
  });
});
