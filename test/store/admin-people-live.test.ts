// The renderer store fed by the real local realm server for channel, group and bot administration:
// realm_bot add/update (deactivation), default_streams and user_group events from the owner's
// changes land in the store as the screens read them, and main's key filter keeps the API key of
// a regenerate event out of what the store receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { feedUntil, registerQueue } from '../support/events';
import type { RealmBot, RegisterResponse, UserGroup } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';
import { eventsWithoutBotKeys, registerWithoutBotKeys } from '../../electron/admin/bot-keys';

interface Account {
  settings: { realm: Record<string, unknown> };
  userGroups: { groups: Map<number, UserGroup> };
}
interface StoreModule {
  createChatStore(): {
    getState(): {
      accounts: Record<string, Account>;
      replaceSnapshot(accountId: string, reg: RegisterResponse): void;
      applyEventBatch(accountId: string, events: readonly ServerEvent[]): void;
    };
  };
}

let server: TestServer;
let mod: StoreModule;

beforeAll(async () => {
  mod = (await import(
    String(new URL('../../renderer/store/index.ts', import.meta.url))
  )) as StoreModule;
  server = await startTestServer({ seed: 'demo', heartbeatMs: 500 });
});
afterAll(async () => {
  await server?.close();
});

describe('administration events in the store', () => {
  it('follows bots, default channels and groups, and never holds a bot key', async () => {
    const owner = server.client('owner');
    const store = mod.createChatStore();
    const s = store.getState();
    const q = await registerQueue(owner, {
      client_capabilities: JSON.stringify({ include_deactivated_groups: true }),
    });
    s.replaceSnapshot('owner', registerWithoutBotKeys(q.state as RegisterResponse));
    const received: ServerEvent[] = [];
    const apply = (events: ServerEvent[]) => {
      const clean = eventsWithoutBotKeys(events);
      received.push(...clean);
      s.applyEventBatch('owner', clean);
    };
    const realm = () => store.getState().accounts.owner.settings.realm;
    const bots = () => realm().realm_bots as RealmBot[];
    expect(bots().map((b) => b.full_name)).toContain('Helper Bot');

    const made = await owner.post('/bots', { full_name: 'Store Bot', short_name: 'store' });
    const botId = made.body.user_id as number;
    await feedUntil<ServerEvent>(q, apply, (e) => e.type === 'realm_bot' && e.op === 'add');
    expect(bots().find((b) => b.user_id === botId)).toMatchObject({
      full_name: 'Store Bot',
      is_active: true,
      owner_id: server.users.owner.user_id,
    });

    const fresh = await owner.post(`/bots/${botId}/api_key/regenerate`);
    await feedUntil<ServerEvent>(q, apply, (e) => e.type === 'realm_bot' && e.op === 'update');
    expect(JSON.stringify(received)).not.toContain(fresh.body.api_key as string);
    expect(JSON.stringify(store.getState().accounts.owner)).not.toContain(
      fresh.body.api_key as string,
    );

    await owner.delete(`/bots/${botId}`);
    await feedUntil<ServerEvent>(
      q,
      apply,
      (e) => e.type === 'realm_bot' && 'is_active' in e.bot && e.bot.is_active === false,
    );
    expect(bots().find((b) => b.user_id === botId)?.is_active).toBe(false);

    const random = (await owner.get('/get_stream_id', { stream: 'random' })).body
      .stream_id as number;
    await owner.post('/default_streams', { stream_id: random });
    await feedUntil<ServerEvent>(q, apply, (e) => e.type === 'default_streams');
    expect(realm().realm_default_streams).toContain(random);

    const group = await owner.post('/user_groups/create', {
      name: 'store-group',
      description: 'd',
      members: JSON.stringify([server.users.owner.user_id]),
    });
    const groupId = group.body.group_id as number;
    await owner.post(`/user_groups/${groupId}/members`, {
      add: JSON.stringify([server.users.emma.user_id]),
    });
    await owner.post(`/user_groups/${groupId}/deactivate`);
    await feedUntil<ServerEvent>(
      q,
      apply,
      (e) => e.type === 'user_group' && e.op === 'update' && e.data.deactivated === true,
    );
    const stored = store.getState().accounts.owner.userGroups.groups.get(groupId);
    expect(stored?.members.sort()).toEqual(
      [server.users.owner.user_id, server.users.emma.user_id].sort(),
    );
    expect(stored?.deactivated).toBe(true);
  });
});
