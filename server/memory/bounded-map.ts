// The one bounded cache of the server: a Map that keeps at most `maxEntries` entries (and, given a
// `weigh`, at most `maxBytes` of them), evicting the least recently used first. Every cache that
// grows with requests uses it or says in a comment what else bounds it (server/README.md, "Memory
// bounds"), so no request pattern can grow the process without limit.
//
// Recency rides on the Map's insertion order: a hit moves its entry to the end (delete + set), and
// eviction takes from the front.
export interface BoundedMapOptions<K, V> {
  maxEntries: number;
  /** With `weigh`: the most the entries may weigh together (e.g. bytes of their keys and values). */
  maxBytes?: number;
  /** An entry's weight, counted once when it is stored. */
  weigh?: (key: K, value: V) => number;
  /** Told of every entry evicted to keep the bounds (not of delete() or clear()). */
  onEvict?: (key: K, value: V) => void;
}

export class BoundedMap<K, V> {
  // Not readonly: clear() puts a new Map in its place (see there).
  private entries = new Map<K, { value: V; weight: number }>();
  private weightTotal = 0;
  /** The key last stored or refreshed, while it is still in the map (newestKnown). */
  private newest: K | undefined;
  private newestKnown = false;

  constructor(private readonly options: BoundedMapOptions<K, V>) {
    if (!(options.maxEntries > 0)) throw new Error('BoundedMap needs maxEntries > 0');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The summed weight of the entries (0 without `weigh`). */
  get bytes(): number {
    return this.weightTotal;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value, marking the entry most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Already the newest: moving it would change nothing, and a delete + set costs V8 a new
    // table every few calls (in the old generation, as a long-lived Map's is). Caches of one hot
    // key (the realm row) are read several times a request.
    if (this.newestKnown && this.newest === key) return entry.value;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.markNewest(key);
    return entry.value;
  }

  private markNewest(key: K): void {
    this.newest = key;
    this.newestKnown = true;
  }

  /** The value without changing its recency. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Stores the entry as the most recently used and evicts the least recently used ones past the
   * bounds. An entry heavier than `maxBytes` on its own is not stored; returns whether it was.
   */
  set(key: K, value: V): boolean {
    this.delete(key);
    const weight = this.options.weigh?.(key, value) ?? 0;
    const maxBytes = this.options.maxBytes ?? Infinity;
    if (weight > maxBytes) return false;
    this.entries.set(key, { value, weight });
    this.markNewest(key);
    this.weightTotal += weight;
    while (this.entries.size > this.options.maxEntries || this.weightTotal > maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.weightTotal -= oldest.weight;
      this.options.onEvict?.(oldestKey, oldest.value);
    }
    return true;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.weightTotal -= entry.weight;
    if (this.newestKnown && this.newest === key) {
      this.newestKnown = false;
      this.newest = undefined;
    }
    return true;
  }

  // A new Map rather than Map.clear(): V8 allocates a cleared Map's new table where the old one
  // was, so a long-lived cache's table goes to the old generation at every clear, and the young
  // values later stored in it are kept through every scavenge (copied, then promoted) until the
  // next full collection, with whatever they point to. The table cache clears on every write to
  // its tables (each account the hostile bench's set-up creates empties the credentials cache).
  // A new Map's table starts young and dies young. Iterators already running keep the old entries.
  clear(): void {
    this.entries = new Map();
    this.weightTotal = 0;
    this.newestKnown = false;
    this.newest = undefined;
  }

  *keys(): IterableIterator<K> {
    yield* this.entries.keys();
  }

  *values(): IterableIterator<V> {
    for (const entry of this.entries.values()) yield entry.value;
  }
}
