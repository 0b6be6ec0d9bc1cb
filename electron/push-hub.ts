// Fans main-to-renderer messages out to whoever is listening: Electron windows, browser-mode sockets,
// tests. Services get `hub.push` before any transport exists.
import type { PushName, PushPayload, PushSink } from '../shared/ipc/contract';

export type RawPushListener = (channel: PushName, payload: unknown) => void;

export class PushHub {
  private readonly listeners = new Set<RawPushListener>();

  readonly push: PushSink = <K extends PushName>(channel: K, payload: PushPayload<K>) => {
    for (const listener of this.listeners) {
      try {
        listener(channel, payload);
      } catch (error) {
        console.error('Tributary: push listener failed', error);
      }
    }
  };

  subscribe(listener: RawPushListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
