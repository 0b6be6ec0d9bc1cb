// The renderer store follows the realm configuration Settings > Organization edits, fed by the real
// local realm server: after linkifiers, playgrounds, allowed domains, custom emoji and profile fields
// change, the store's copy (from register plus the events) equals a fresh register's.
//
// The store lives in the web TypeScript project, which this Node project cannot import statically,
// so it is loaded by URL and typed here by the few members the test uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { feedUntil, registerQueue } from '../support/events';
import type { RegisterResponse } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';

interface Account {
  settings: { realm: Record<string, unknown>; customProfileFields: unknown[] };
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

const PARAMS = {
  fetch_event_types: [
    'realm_linkifiers',
    'realm_playgrounds',
    'realm_domains',
    'realm_emoji',
    'custom_profile_fields',
  ],
  client_capabilities: { linkifier_url_template: true },
};

let server: TestServer;
let mod: StoreModule;

beforeAll(async () => {
  mod = (await import(
    String(new URL('../../renderer/store/index.ts', import.meta.url))
  )) as StoreModule;
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

describe('realm configuration in the store', () => {
  it('ends equal to a fresh register after every kind of change', async () => {
    const store = mod.createChatStore();
    // The whole register (the store needs every slice); all events, as the app asks.
    const q = await registerQueue(server.client('dev'), {
      client_capabilities: PARAMS.client_capabilities,
    });
    store.getState().replaceSnapshot('dev', q.state as RegisterResponse);
    const apply = (events: ServerEvent[]) => store.getState().applyEventBatch('dev', events);
    const owner = server.client('owner');
    const step = async (
      change: () => Promise<{ status: number; text: string }>,
      type: string,
    ): Promise<void> => {
      const res = await change();
      expect(res.status, res.text).toBe(200);
      await feedUntil(q, apply, (e) => e.type === type);
    };

    await step(
      () =>
        owner.post('/realm/filters', {
          pattern: '#(?P<id>[0-9]+)',
          url_template: 'https://t.example/{id}',
        }),
      'realm_linkifiers',
    );
    const second = await owner.post('/realm/filters', {
      pattern: 'PR(?P<id>[0-9]+)',
      url_template: 'https://t.example/pr/{id}',
    });
    await feedUntil(q, apply, (e) => e.type === 'realm_linkifiers');
    const ids = (
      (await owner.get('/realm/linkifiers')).body.linkifiers as Array<{ id: number }>
    ).map((l) => l.id);
    await step(
      () => owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [...ids].reverse() }),
      'realm_linkifiers',
    );
    await step(
      () =>
        owner.post('/realm/playgrounds', {
          name: 'Py',
          pygments_language: 'Python',
          url_template: 'https://py.example/?c={code}',
        }),
      'realm_playgrounds',
    );
    await step(
      () => owner.post('/realm/domains', { domain: 'a.example', allow_subdomains: false }),
      'realm_domains',
    );
    await step(
      () => owner.post('/realm/domains', { domain: 'b.example', allow_subdomains: false }),
      'realm_domains',
    );
    await step(
      () => owner.patch('/realm/domains/b.example', { allow_subdomains: true }),
      'realm_domains',
    );
    await step(() => owner.delete('/realm/domains/a.example'), 'realm_domains');
    await step(() => owner.delete('/realm/emoji/ship_it'), 'realm_emoji');
    await step(
      () => owner.post('/realm/profile_fields', { name: 'Desk', field_type: 1 }),
      'custom_profile_fields',
    );
    expect(second.status).toBe(200);

    const fresh = await server.client('dev').post('/register', PARAMS);
    const account = store.getState().accounts.dev;
    for (const key of ['realm_linkifiers', 'realm_playgrounds', 'realm_domains', 'realm_emoji']) {
      expect(account.settings.realm[key], key).toEqual(fresh.body[key]);
    }
    expect(account.settings.customProfileFields).toEqual(fresh.body.custom_profile_fields);
    expect((account.settings.realm.realm_domains as unknown[]).length).toBe(1);
  });
});
