// GET /messages reads a large range in pages with other requests running between them
// (NarrowQuery.rangeInSlices): the pages must add up to exactly the one-statement range, whatever
// the anchor, the sizes and the narrow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NarrowQuery } from '../../server/resources/messages/narrow-query';
import type { NarrowTerm } from '../../server/resources/messages/narrow';
import { toAuthUser } from '../../server/http/auth';
import { loopSlicer } from '../../server/realm/loop-slices';
import { startTestServer, type TestServer } from '../support/server';

describe('a range read in pages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 'demo' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is the same range as one statement reads', async () => {
    const db = server.server.db;
    const viewer = toAuthUser(
      db.prepare('SELECT * FROM users WHERE id = ?').get(server.userIds.emma) as never,
    );
    const ids = db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[];
    expect(ids.length).toBeGreaterThan(100);
    const narrows: NarrowTerm[][] = [
      [],
      [{ operator: 'channel', operand: 'general', negated: false }],
      [
        { operator: 'channel', operand: 'general', negated: false },
        { operator: 'topic', operand: 'no such topic', negated: true },
      ],
      [{ operator: 'is', operand: 'dm', negated: false }],
      // Many excluded topics (walked by the channel's recipient index) and a narrow that sorts.
      [
        { operator: 'channel', operand: 'general', negated: false },
        ...Array.from({ length: 20 }, (_, i) => ({
          operator: 'topic',
          operand: `not ${i}`,
          negated: true,
        })),
      ],
      [
        { operator: 'channel', operand: 'general', negated: false },
        { operator: 'is', operand: 'unread', negated: false },
      ],
    ];
    const anchors = [0, ids[0], ids[Math.floor(ids.length / 2)], ids.at(-1)!, 10 ** 16];
    const sizes: Array<[number, number]> = [
      [0, 0],
      [1, 0],
      [0, 1],
      [7, 7],
      [50, 0],
      [5000, 5000],
    ];
    let compared = 0;
    for (const terms of narrows) {
      const query = new NarrowQuery(db, viewer, terms);
      for (const anchor of anchors) {
        for (const [before, after] of sizes) {
          for (const includeAnchor of before > 0 && after > 0 ? [true] : [true, false]) {
            const whole = query.range(anchor, before, after, includeAnchor);
            for (const pageRows of [1, 3, 500]) {
              const paged = await query.rangeInSlices(
                anchor,
                before,
                after,
                includeAnchor,
                loopSlicer(undefined, 0),
                pageRows,
              );
              expect(paged.rows.map((row) => row.id)).toEqual(whole.rows.map((row) => row.id));
              expect(paged).toEqual(whole);
              compared += 1;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('walks a channel in id order, by the topic index with a topic, by the recipient without', () => {
    const db = server.server.db;
    const viewer = toAuthUser(
      db.prepare('SELECT * FROM users WHERE id = ?').get(server.userIds.emma) as never,
    );
    const channel = { operator: 'channel', operand: 'general', negated: false };
    const excluded = Array.from({ length: 99 }, (_, i) => ({
      operator: 'topic',
      operand: `not ${i}`,
      negated: true,
    }));
    // A range of a channel (minus topics) reads only the rows it returns, and so pages.
    for (const terms of [[channel], [channel, ...excluded]]) {
      const query = new NarrowQuery(db, viewer, terms);
      expect(query.walksInIdOrder('<', 'DESC')).toBe(true);
      expect(query.walksInIdOrder('>', 'ASC')).toBe(true);
    }
    const plan = (terms: NarrowTerm[]) => {
      const query = new NarrowQuery(db, viewer, terms);
      const sql = `EXPLAIN QUERY PLAN SELECT m.id FROM messages m
        LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
        WHERE ${query.compiled.conditions.map((c) => `(${c.sql})`).join(' AND ')} AND m.id < ?
        ORDER BY m.id DESC LIMIT 50`;
      const params = query.compiled.conditions.flatMap((c) => c.params);
      return (db.prepare(sql).all(viewer.id, ...params, 10 ** 16) as Array<{ detail: string }>)
        .map((step) => step.detail)
        .join('; ');
    };
    expect(plan([channel, ...excluded])).toContain('messages_by_recipient');
    // A topic keeps the (channel, topic, id) index: a sparse topic is not found by walking the channel.
    expect(plan([channel, { operator: 'topic', operand: 'greetings', negated: false }])).toContain(
      'messages_by_channel_topic',
    );
    // A narrow the plan sorts is read in one statement.
    expect(
      new NarrowQuery(db, viewer, [
        channel,
        { operator: 'is', operand: 'unread', negated: false },
      ]).walksInIdOrder(),
    ).toBe(false);
  });
});
