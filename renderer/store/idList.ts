// A sorted list of message ids with cheap appends, for the message list of one narrow.
//
// Why not a plain array: every store update must produce a new value for a list that changed (so
// `useNarrowIds` re-renders) without copying 100,000 ids per batch. IdList is a view of the first
// `length` entries of a backing array that only grows at its end. Appending newer ids pushes onto the
// backing array in place and returns a new view; older views keep seeing their own length, so they
// stay valid. Anything else (insert in the middle, removal, merge) copies: those are rare (moves,
// deletes, history pages).
export class IdList {
  private materialized: readonly number[] | undefined;

  private constructor(
    private readonly backing: number[],
    private count: number,
  ) {}

  get length(): number {
    return this.count;
  }

  static readonly EMPTY = new IdList([], 0);

  /** From ids in any order (sorted and de-duplicated here). */
  static from(ids: Iterable<number>): IdList {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    return new IdList(sorted, sorted.length);
  }

  at(index: number): number | undefined {
    return index >= 0 && index < this.count ? this.backing[index] : undefined;
  }

  get first(): number | undefined {
    return this.count > 0 ? this.backing[0] : undefined;
  }

  get last(): number | undefined {
    return this.count > 0 ? this.backing[this.count - 1] : undefined;
  }

  /** Index of id, or -(insertion point) - 1 when absent (binary search). */
  search(id: number): number {
    let lo = 0;
    let hi = this.count - 1;
    const a = this.backing;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid];
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  has(id: number): boolean {
    return this.search(id) >= 0;
  }

  /** The ids as an array (copied once per view, then cached). Prefer at()/length in hot paths. */
  toArray(): readonly number[] {
    if (!this.materialized) this.materialized = this.backing.slice(0, this.count);
    return this.materialized;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let i = 0; i < this.count; i++) yield this.backing[i];
  }

  /**
   * Append a newer id to THIS list in place. Only for a list no one else can have seen yet (the
   * store uses it for lists it created earlier in the same batch). False when not possible.
   */
  appendInPlace(id: number): boolean {
    if (this.backing.length !== this.count) return false;
    if (this.count > 0 && id <= this.backing[this.count - 1]) return false;
    this.backing.push(id);
    this.count++;
    this.materialized = undefined;
    return true;
  }

  /** This list plus one id; `this` when it is already present. */
  insert(id: number): IdList {
    const last = this.last;
    if (last === undefined) return new IdList([id], 1);
    if (id > last) {
      if (this.backing.length === this.count) {
        // We are the newest view of this backing array: grow it in place.
        this.backing.push(id);
        return new IdList(this.backing, this.count + 1);
      }
      const copy = this.backing.slice(0, this.count);
      copy.push(id);
      return new IdList(copy, copy.length);
    }
    const at = this.search(id);
    if (at >= 0) return this;
    const copy = this.backing.slice(0, this.count);
    copy.splice(-at - 1, 0, id);
    return new IdList(copy, copy.length);
  }

  /** This list without the given ids; `this` when none was present. */
  remove(ids: Iterable<number>): IdList {
    const drop = new Set<number>();
    for (const id of ids) if (this.has(id)) drop.add(id);
    if (drop.size === 0) return this;
    const kept: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const v = this.backing[i];
      if (!drop.has(v)) kept.push(v);
    }
    return new IdList(kept, kept.length);
  }

  /** Sorted union with other ids (any order). */
  merge(ids: Iterable<number>): IdList {
    const incoming = [...ids];
    if (incoming.length === 0) return this;
    incoming.sort((a, b) => a - b);
    const last = this.last;
    if (last === undefined || incoming[0] > last) {
      return incoming.reduce<IdList>((list, id) => list.insert(id), this);
    }
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < this.count || j < incoming.length) {
      const a = i < this.count ? this.backing[i] : Infinity;
      const b = j < incoming.length ? incoming[j] : Infinity;
      const next = a <= b ? a : b;
      if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
      if (a === next) i++;
      if (b === next) j++;
    }
    return new IdList(out, out.length);
  }
}
