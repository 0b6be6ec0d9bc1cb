// Placeholder owned by the message engineer: seedDemoMessages adds messages, DMs, reactions,
// unreads and a resolved topic to the demo realm. Called once, right after the demo users and
// channels exist (see seed/demo.ts for what DemoSeedContext provides).
import type { DemoSeedContext } from './demo';

export async function seedDemoMessages(_seed: DemoSeedContext): Promise<void> {
  // No messages yet.
}
