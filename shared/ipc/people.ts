// People: presence (main reports this client's activity for every account and passes on what the
// server answers) and muting users.
import * as z from 'zod';
import type { SuccessEnvelope } from '../api/endpoints';
import type { ModernPresence } from '../api/types';
import { forAccount, payload, userId } from './common';
import { method, push } from './define';

/** One account's presence as main last heard it from the server. */
export interface PresenceUpdate {
  accountId: string;
  /** By user id (as a string), modern shape. */
  presences: Record<string, ModernPresence>;
  /** When the server read them (seconds, a float). */
  serverTimestamp: number;
  /** true: `presences` is everyone main knows of (replace); false: only who changed (merge). */
  complete: boolean;
}

export const peopleMethods = {
  /**
   * The page's activity (browser mode, where main cannot ask the system how long the person has
   * been idle): sent on input, at most every few seconds, and when the page is shown or hidden.
   */
  reportActivity: method<null>()(payload({ visible: z.boolean(), userInput: z.boolean() })),
  /** Everyone's presence as main last heard it (a reloaded page catches up with this). */
  getPresence: method<PresenceUpdate | null>()(forAccount({})),
  muteUser: method<SuccessEnvelope>()(forAccount({ userId })),
  unmuteUser: method<SuccessEnvelope>()(forAccount({ userId })),
} as const;

export const peoplePushes = {
  presence: push<PresenceUpdate>(),
} as const;
