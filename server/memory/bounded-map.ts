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
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weightTotal = 0;

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
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
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
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.weightTotal = 0;
  }

  *keys(): IterableIterator<K> {
    yield* this.entries.keys();
  }

  *values(): IterableIterator<V> {
    for (const entry of this.entries.values()) yield entry.value;
  }
}
