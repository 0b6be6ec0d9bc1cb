// @vitest-environment node
// IdList shares one backing array between versions; every older version must keep reading its own ids.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdList } from '../../../renderer/store';

type Op =
  | { kind: 'insert'; id: number; from: number }
  | { kind: 'remove'; ids: number[]; from: number }
  | { kind: 'merge'; ids: number[]; from: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    id: fc.integer({ min: 0, max: 200 }),
    from: fc.nat(),
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    ids: fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 5 }),
    from: fc.nat(),
  }),
  fc.record({
    kind: fc.constant('merge' as const),
    ids: fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 8 }),
    from: fc.nat(),
  }),
);

const model = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

describe('IdList', () => {
  it('behaves like a sorted set, and old versions never change (any version may be extended)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const versions: { list: IdList; expected: number[] }[] = [
          { list: IdList.EMPTY, expected: [] },
        ];
        for (const op of ops) {
          // Extend the newest version most of the time, an older one otherwise (a stale view).
          const base =
            op.from % 4 === 0 ? versions[op.from % versions.length] : versions[versions.length - 1];
          let list: IdList;
          let expected: number[];
          if (op.kind === 'insert') {
            list = base.list.insert(op.id);
            expected = model([...base.expected, op.id]);
          } else if (op.kind === 'remove') {
            list = base.list.remove(op.ids);
            expected = base.expected.filter((id) => !op.ids.includes(id));
          } else {
            list = base.list.merge(op.ids);
            expected = model([...base.expected, ...op.ids]);
          }
          versions.push({ list, expected });
          for (const v of versions) {
            expect([...v.list]).toEqual(v.expected);
            expect(v.list.length).toBe(v.expected.length);
          }
        }
        const last = versions[versions.length - 1];
        for (const id of last.expected) expect(last.list.has(id)).toBe(true);
        expect(last.list.toArray()).toEqual(last.expected);
      }),
      { numRuns: 200 },
    );
  });

  it('appends newer ids in place and returns itself when nothing changes', () => {
    const a = IdList.from([3, 1, 2]);
    const b = a.insert(4);
    expect(b.last).toBe(4);
    expect(a.length).toBe(3);
    expect(b.insert(2)).toBe(b);
    expect(b.remove([99])).toBe(b);
    expect(b.search(0)).toBe(-1);
  });
});
