import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../server/memory/bounded-map';

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
});
