// The cached permission lookups (group membership through subgroups, subscriptions, channel rows)
// must agree with the tables at every moment, including right after writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { groupMemberIds, isSubscribed, isUserInGroup } from '../../server/realm/permissions';
import { getChannelByName, subscriberIds } from '../../server/resources/channels/channels-store';
import { startTestServer, type TestServer } from '../support/server';

/** Membership straight from the tables: direct members of the group or of any nested subgroup. */
function inGroupBySql(db: Db, userId: number, groupId: number): boolean {
  return (
    db
      .prepare(
        `WITH RECURSIVE g(id) AS (
           SELECT ? UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN g ON s.group_id = g.id)
         SELECT 1 FROM user_group_members m JOIN g ON m.group_id = g.id WHERE m.user_id = ? LIMIT 1`,
      )
      .get(groupId, userId) !== undefined
  );
}

describe('cached permission lookups', () => {
  let server: TestServer;
  let db: Db;
  let userIds: number[];
  let groupIds: number[];
  const expectAllAgree = () => {
    for (const groupId of groupIds) {
      for (const userId of userIds) {
        expect(isUserInGroup(db, userId, groupId), `user ${userId} group ${groupId}`).toBe(
          inGroupBySql(db, userId, groupId),
        );
      }
    }
  };
  beforeAll(async () => {
    server = await startTestServer({ seed: 'demo' });
    db = server.server.db;
    userIds = db
      .prepare<[], { id: number }>('SELECT id FROM users')
      .all()
      .map((r) => r.id);
    groupIds = db
      .prepare<[], { id: number }>('SELECT id FROM user_groups')
      .all()
      .map((r) => r.id);
  });
  afterAll(async () => {
    await server.close();
  });

  it('group membership follows members and nested subgroups as they change', () => {
    expectAllAgree();
    const now = Math.floor(Date.now() / 1000);
    const insertGroup = db.prepare(
      'INSERT INTO user_groups (name, description, date_created) VALUES (?, ?, ?)',
    );
    const outer = Number(insertGroup.run('outer', '', now).lastInsertRowid);
    const inner = Number(insertGroup.run('inner', '', now).lastInsertRowid);
    groupIds.push(outer, inner);
    expectAllAgree(); // fills the caches
    db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(
      inner,
      server.userIds.farid,
    );
    expect(isUserInGroup(db, server.userIds.farid, outer)).toBe(false);
    db.prepare('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)').run(
      outer,
      inner,
    );
    expect(isUserInGroup(db, server.userIds.farid, outer)).toBe(true);
    expect(groupMemberIds(db, outer)).toEqual([server.userIds.farid]);
    expectAllAgree();
    db.prepare('DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?').run(
      inner,
      server.userIds.farid,
    );
    expect(isUserInGroup(db, server.userIds.farid, outer)).toBe(false);
    expect(groupMemberIds(db, outer)).toEqual([]);
    expectAllAgree();
  });

  it('subscriptions and channel rows follow the API that changes them', async () => {
    const farid = server.userIds.farid;
    const channel = getChannelByName(db, 'GENERAL')!;
    expect(channel.name).toBe('general');
    const before = isSubscribed(db, farid, channel.id);
    const left = await server
      .client('farid')
      .delete('/users/me/subscriptions', { subscriptions: ['general'] });
    expect(left.status).toBe(200);
    expect(isSubscribed(db, farid, channel.id)).toBe(false);
    expect(subscriberIds(db, channel.id)).not.toContain(farid);
    const joined = await server
      .client('farid')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    expect(joined.status).toBe(200);
    expect(isSubscribed(db, farid, channel.id)).toBe(true);
    expect(subscriberIds(db, channel.id)).toContain(farid);
    expect(before).toBe(true);

    // A deactivated subscriber leaves the lists (and counts) of the next register, and comes back
    // when reactivated: subscriberIds reads no user rows, so it must hear of both.
    const inRegister = async () => {
      const res = await server
        .client('dev')
        .post('/register', { fetch_event_types: ['subscription'], include_subscribers: true });
      const sub = res.body.subscriptions.find(
        (s: { stream_id: number }) => s.stream_id === channel.id,
      );
      return { ids: sub.subscribers as number[], count: sub.subscriber_count as number };
    };
    const withFarid = await inRegister();
    expect(withFarid.ids).toContain(farid);
    expect((await server.client('owner').delete(`/users/${farid}`)).status).toBe(200);
    const without = await inRegister();
    expect(without.ids).not.toContain(farid);
    expect(without.count).toBe(withFarid.count - 1);
    expect(subscriberIds(db, channel.id)).not.toContain(farid);
    expect((await server.client('owner').post(`/users/${farid}/reactivate`)).status).toBe(200);
    expect(await inRegister()).toEqual(withFarid);

    const renamed = await server
      .client('owner')
      .patch(`/streams/${channel.id}`, { new_name: 'general-renamed' });
    expect(renamed.status).toBe(200);
    expect(getChannelByName(db, 'general')).toBeUndefined();
    expect(getChannelByName(db, 'General-Renamed')?.id).toBe(channel.id);
  });
});
