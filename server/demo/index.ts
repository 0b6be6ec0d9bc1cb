// What makes the demo realm feel alive, started with the server once it listens and stopped with
// it: the Echo bot's endpoint (echo-bot.ts) and the demo people's presence (demo-presence.ts).
// Both do nothing in a realm without the demo's bots and people. Also the seeded passwords'
// hashes, left by the seed for after the listen (realm/accounts.ts).
import type { RealmContext } from '../realm/context';
import { finishDeferredPasswordHashes } from '../realm/accounts';
import { startEchoService } from './echo-bot';
import { startDemoPresence } from './demo-presence';

export interface DemoServices {
  /** The echo's URL, or null when no bot points at it. */
  echoUrl: string | null;
  close(): Promise<void>;
}

/**
 * How long after the listen the seeded passwords are hashed (about 0.5 s of CPU): a first
 * launch's sign-in (by API key), register and first screen come first, on two cores shared with
 * the browser. A password sign-in sooner makes its own hash at once, and a process stopped
 * sooner leaves the markers for the next start (seed/index.ts).
 */
export const DEFERRED_HASHES_AFTER_MS = 5_000;

export async function startDemoServices(ctx: RealmContext): Promise<DemoServices> {
  const echo = await startEchoService(ctx);
  const stopPresence = ctx.config.demoPresence ? startDemoPresence(ctx) : () => {};
  let closed = false;
  // Stops at the next hash once closed (each is made on the thread pool, then stored).
  const hashes = setTimeout(() => {
    finishDeferredPasswordHashes(ctx.db, () => closed).catch((error: unknown) =>
      console.error("Tributary: storing the seeded passwords' hashes failed", error),
    );
  }, DEFERRED_HASHES_AFTER_MS);
  hashes.unref();
  return {
    echoUrl: echo?.url ?? null,
    async close() {
      closed = true;
      clearTimeout(hashes);
      stopPresence();
      await echo?.close();
    },
  };
}
