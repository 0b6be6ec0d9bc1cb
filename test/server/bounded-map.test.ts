import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../server/memory/bounded-map';
import { runBundledInChild } from '../support/bundled-child';

// The table cache clears its BoundedMap on every write to its tables and refills it with new
// values. Run in a child with V8's per-collection trace: the real BoundedMap, made old (two full
// collections), then cleared and refilled a few thousand times while other garbage is made. What a
// scavenge promotes is what survived two of them; the values of a cleared map are dead, so it
// should stay near zero. With Map.prototype.clear() V8 put each new table in the old generation and
// every cleared table kept its values alive until the next full collection (1.8 MB promoted at
// the median scavenge here).
const CLEAR_AND_REFILL = `
import { BoundedMap } from './bounded-map.mjs';
const map = new BoundedMap({ maxEntries: 10000 });
for (let i = 0; i < 1000; i++) map.set('k' + i, { i });
globalThis.gc();
globalThis.gc();
let sink = 0;
for (let round = 0; round < 3000; round++) {
  map.clear();
  for (let i = 0; i < 50; i++) {
    map.set('k' + i, { rows: new Array(64).fill(round), next: { more: new Array(32).fill(i) } });
  }
  for (let j = 0; j < 200; j++) sink += [j, j + 1, j + 2].length;
}
if (sink < 0) console.error(sink);
`;

function scavengesOfClearAndRefill(): Array<{ promoted: number }> {
  const trace = runBundledInChild(['server/memory/bounded-map.ts'], CLEAR_AND_REFILL, [
    '--expose-gc',
    '--trace-gc-nvp',
    '--max-semi-space-size=32',
  ]);
  return trace
    .split('\n')
    .filter((line) => / gc=s /.test(line))
    .map((line) => ({ promoted: Number(/ promoted=(\d+)/.exec(line)![1]) }));
}

describe('BoundedMap', () => {
  it('at its entry bound evicts the least recently used entry', () => {
    const evicted: string[] = [];
    const map = new BoundedMap<string, number>({
      maxEntries: 3,
      onEvict: (key) => evicted.push(key),
    });
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the most recently used; b the least
    map.set('d', 4);
    expect(map.size).toBe(3);
    expect(map.has('b')).toBe(false);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
    expect(evicted).toEqual(['b']);
  });

  it('peek does not refresh an entry; replacing a key does not evict another', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2 });
    map.set('a', 1);
    map.set('b', 2);
    expect(map.peek('a')).toBe(1);
    map.set('b', 3);
    expect([...map.keys()]).toEqual(['a', 'b']);
    map.set('c', 4);
    expect(map.has('a')).toBe(false);
    expect(map.get('b')).toBe(3);
  });

  it('keeps the weight of its entries under maxBytes and refuses an entry heavier than that', () => {
    const map = new BoundedMap<string, string>({
      maxEntries: 100,
      maxBytes: 10,
      weigh: (key, value) => key.length + value.length,
    });
    map.set('a', '1234'); // 5
    map.set('b', '1234'); // 10
    expect(map.bytes).toBe(10);
    map.set('c', '12'); // 13 > 10: a goes
    expect([...map.keys()]).toEqual(['b', 'c']);
    expect(map.bytes).toBe(8);
    expect(map.set('huge', '12345678901')).toBe(false);
    expect(map.has('huge')).toBe(false);
    expect(map.bytes).toBe(8);
    map.delete('b');
    expect(map.bytes).toBe(3);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.bytes).toBe(0);
  });

  it('clear() leaves nothing of the cleared entries for scavenges to promote', () => {
    const scavenges = scavengesOfClearAndRefill();
    expect(scavenges.length).toBeGreaterThan(3);
    const promoted = scavenges.map((s) => s.promoted).sort((a, b) => a - b);
    const median = promoted[Math.floor(promoted.length / 2)];
    expect(median).toBeLessThan(256 * 1024);
  });

  it('keeps exact recency when the newest entry is read again, deleted or replaced', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 3 });
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('b')).toBe(2); // already the newest
    expect(map.get('a')).toBe(1);
    expect(map.get('a')).toBe(1);
    expect([...map.keys()]).toEqual(['b', 'a']);
    map.delete('a');
    map.set('c', 3);
    map.set('a', 4);
    expect(map.get('c')).toBe(3); // c was not the newest: it moves
    expect([...map.keys()]).toEqual(['b', 'a', 'c']);
    map.set('d', 5);
    expect([...map.keys()]).toEqual(['a', 'c', 'd']);
    map.clear();
    map.set('e', 6);
    expect(map.get('e')).toBe(6);
    map.set('f', 7);
    expect(map.get('e')).toBe(6);
    expect([...map.keys()]).toEqual(['f', 'e']);
  });
});
