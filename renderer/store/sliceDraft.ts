// Copy-on-first-write for one slice during one event batch.
//
// A slice's state is a small wrapper object (with a version) around Maps and Sets that are mutated
// in place. The first write in a batch replaces the wrapper with a shallow copy whose version is one
// higher, so subscribers to the slice see a new value once per batch, while the big collections are
// never copied. Records inside the collections (a message, a user) are immutable and replaced only
// when they change, so selectors for one record re-render only for that record.
export interface Versioned {
  readonly version: number;
}

/** The wrapper's own fields become writable inside a batch (the records inside stay immutable). */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

export class SliceDraft<S extends Versioned> {
  private state: S;
  private copied = false;

  constructor(state: S) {
    this.state = state;
  }

  /** The current state, for reading. */
  get read(): S {
    return this.state;
  }

  /** The batch's own copy of the wrapper, for writing (made on first call). */
  get write(): Writable<S> {
    if (!this.copied) {
      this.state = { ...this.state, version: this.state.version + 1 };
      this.copied = true;
    }
    return this.state;
  }

  get changed(): boolean {
    return this.copied;
  }
}
