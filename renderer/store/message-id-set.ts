// A set of message ids that also knows its newest (highest) id.
//
// Why: the sidebar orders topics and conversations by their newest message. Scanning a topic's ids
// for that on every store update would make the cost grow with the messages held; keeping the
// maximum as ids are added is O(1). Removing the newest id only marks it unknown, and the next read
// scans once, so removing many ids (a topic moved, a channel marked read) never rescans per id.
// It is a Set, so code that only needs membership and size uses it as one.
export class MessageIdSet extends Set<number> {
  /** The newest id, 0 when empty, NaN when unknown (the newest was removed since the last read). */
  private newestId = 0;

  // No initial ids: Set's constructor would call add() before newestId is initialized.
  constructor() {
    super();
  }

  override add(id: number): this {
    super.add(id);
    // NaN stays NaN (the comparison is false): the next read computes it.
    if (id > this.newestId) this.newestId = id;
    return this;
  }

  override delete(id: number): boolean {
    const removed = super.delete(id);
    if (removed && id === this.newestId) this.newestId = Number.NaN;
    return removed;
  }

  override clear(): void {
    super.clear();
    this.newestId = 0;
  }

  /** The highest id in the set (0 when empty). */
  get newest(): number {
    if (Number.isNaN(this.newestId)) {
      let max = 0;
      for (const id of this) if (id > max) max = id;
      this.newestId = max;
    }
    return this.newestId;
  }
}
