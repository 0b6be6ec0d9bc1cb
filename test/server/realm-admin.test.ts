// PATCH /realm for the realm's group settings over HTTP: who may change them, the update_dict event
// every user hears, and the setting taking effect (a member no longer allowed to create channels).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;
let adminsGroupId: number;
let membersGroupId: number;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  const state = await server
    .client('dev')
    .post('/register', { fetch_event_types: '["realm_user_groups"]' });
  const groups = state.body.realm_user_groups as Array<{ id: number; name: string }>;
  adminsGroupId = groups.find((g) => g.name === 'role:administrators')!.id;
  membersGroupId = groups.find((g) => g.name === 'role:members')!.id;
});
afterAll(() => server?.close());

describe('PATCH /realm group settings', () => {
  it('refuses members and owner-only settings for administrators', async () => {
    const member = await server.client('dev').patch('/realm', {
      can_create_public_channel_group: JSON.stringify({ new: adminsGroupId }),
    });
    expect(member.status).toBe(400);
    expect(member.body.msg).toBe('Must be an organization administrator');
    const admin = await server.client('admin').patch('/realm', {
      can_create_web_public_channel_group: JSON.stringify({ new: adminsGroupId }),
    });
    expect(admin.body.msg).toBe('Must be an organization owner');
    const stale = await server.client('owner').patch('/realm', {
      can_create_public_channel_group: JSON.stringify({ new: adminsGroupId, old: adminsGroupId }),
    });
    expect(stale.body.msg).toBe("'old' value does not match the expected value.");
  });

  it('announces the change and enforces it on channel creation', async () => {
    const queue = await registerQueue(server.client('dev'), { event_types: '["realm"]' });
    expect(queue.state.realm_can_create_public_channel_group).toBe(membersGroupId);
    const res = await server.client('admin').patch('/realm', {
      can_create_public_channel_group: JSON.stringify({ new: adminsGroupId, old: membersGroupId }),
      can_create_private_channel_group: JSON.stringify({ new: adminsGroupId }),
    });
    expect(res.body.result).toBe('success');
    // One update_dict per group setting, as the public server sends them.
    const publicEvent = await queue.waitFor((e) => e.type === 'realm' && e.op === 'update_dict');
    expect(publicEvent).toMatchObject({
      property: 'default',
      data: { can_create_public_channel_group: adminsGroupId },
    });
    const privateEvent = await queue.waitFor((e) => e.type === 'realm' && e.op === 'update_dict');
    expect(privateEvent.data).toEqual({ can_create_private_channel_group: adminsGroupId });
    const refused = await server.client('dev').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'not-allowed-here' }]),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    const allowed = await server.client('admin').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'admins-may' }]),
    });
    expect(allowed.body.result).toBe('success');
    const fresh = await server.client('dev').post('/register', { fetch_event_types: '["realm"]' });
    expect(fresh.body.realm_can_create_private_channel_group).toBe(adminsGroupId);
  });
});
