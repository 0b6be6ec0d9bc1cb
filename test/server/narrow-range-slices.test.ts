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
    expect(compared).toBeGreaterThan(300);
  });
});
