// What makes the demo realm feel alive, started with the server once it listens and stopped with
// it: the Echo bot's endpoint (echo-bot.ts) and the demo people's presence (demo-presence.ts).
// Both do nothing in a realm without the demo's bots and people.
import type { RealmContext } from '../realm/context';
import { startEchoService } from './echo-bot';
import { startDemoPresence } from './demo-presence';

export interface DemoServices {
  /** The echo's URL, or null when no bot points at it. */
  echoUrl: string | null;
  close(): Promise<void>;
}

export async function startDemoServices(ctx: RealmContext): Promise<DemoServices> {
  const echo = await startEchoService(ctx);
  const stopPresence = ctx.config.demoPresence ? startDemoPresence(ctx) : () => {};
  return {
    echoUrl: echo?.url ?? null,
    async close() {
      stopPresence();
      await echo?.close();
    },
  };
}
