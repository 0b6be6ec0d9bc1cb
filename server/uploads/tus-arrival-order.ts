// Requests for one tus upload take its lock in the order they arrived.
//
// Without this, a client resuming after a dropped PATCH could lose the race: the dropped request
// was still being read (authenticated, its upload looked up) when the client's HEAD arrived, the
// HEAD took tus's lock first and reported an offset, and the late PATCH then wrote the bytes it had
// received, so the client's resuming PATCH at the reported offset was refused with 409.
//
// A request waits only until the earlier requests on the same upload hold the lock (or are done),
// not until they finish: once it reaches tus's lock it asks the holder to let go, which is how tus
// lets a client resume past a connection the server still thinks is open.
import type { IncomingMessage } from 'node:http';
// Types only: @tus/server is loaded at the first tus request (tus.ts), which hands its MemoryLocker.
import type { Lock, Locker } from '@tus/server';

export interface Turn {
  /** Resolves when every earlier request on the upload holds the lock or is done. */
  ready: Promise<void>;
  /** Marks this request done with the queue: called when it settles, locked or not. */
  leave(): void;
}

export class TusArrivalOrder {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly whenLocked = new WeakMap<IncomingMessage, () => void>();

  /** Queues a request for `uploadId` behind the ones that arrived before it. */
  join(uploadId: string, raw: IncomingMessage): Turn {
    const previous = this.tails.get(uploadId) ?? Promise.resolve();
    let leave!: () => void;
    const passed = new Promise<void>((resolve) => (leave = resolve));
    const tail = previous.then(() => passed);
    this.tails.set(uploadId, tail);
    this.whenLocked.set(raw, leave);
    void tail.then(() => {
      if (this.tails.get(uploadId) === tail) this.tails.delete(uploadId);
    });
    return { ready: previous, leave };
  }

  /**
   * tus's `locker` option: one shared in-memory lock table (`memory`, tus's MemoryLocker) that
   * tells the queue who holds it.
   */
  locker =
    (memory: Locker) =>
    (request: Request): Locker => ({
      newLock: (id: string): Lock => {
        const lock = memory.newLock(id);
        return {
          lock: async (signal, cancelRequest) => {
            await lock.lock(signal, cancelRequest);
            const raw = (request as { runtime?: { node?: { req?: IncomingMessage } } }).runtime
              ?.node?.req;
            if (raw) this.whenLocked.get(raw)?.();
          },
          unlock: () => lock.unlock(),
        };
      },
    });
}
