// Drafts: kept by main on disk (never lost) and synced with the server's drafts when the user's
// enable_drafts_synchronization setting is on.
import * as z from 'zod';
import { forAccount, streamId, userId } from './common';
import { method, push } from './define';

export const draftBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('stream'),
    to: z.tuple([streamId]),
    topic: z
      .string()
      .max(1024)
      .refine((s) => !s.includes('\0'), 'no null bytes'),
    content: z
      .string()
      .max(1_000_000)
      .refine((s) => !s.includes('\0'), 'no null bytes'),
  }),
  z.strictObject({
    type: z.literal('private'),
    to: z.array(userId).max(1000),
    topic: z.literal('').default(''),
    content: z
      .string()
      .max(1_000_000)
      .refine((s) => !s.includes('\0'), 'no null bytes'),
  }),
  z.strictObject({
    type: z.literal(''),
    to: z.array(userId).max(0).default([]),
    topic: z.literal('').default(''),
    content: z
      .string()
      .max(1_000_000)
      .refine((s) => !s.includes('\0'), 'no null bytes'),
  }),
]);
export type DraftBody = z.infer<typeof draftBody>;

export interface LocalDraft {
  /** Stable local key (survives before the server has assigned an id). */
  key: string;
  /** The server's draft id once synced, else null. */
  serverId: number | null;
  draft: DraftBody;
  /** UNIX seconds of the last edit. */
  timestamp: number;
  synced: boolean;
}

export const draftsMethods = {
  listDrafts: method<LocalDraft[]>()(forAccount({})),
  saveDraft: method<LocalDraft>()(
    forAccount({ key: z.string().min(1).max(64).optional(), draft: draftBody }),
  ),
  deleteDraft: method<null>()(forAccount({ key: z.string().min(1).max(64) })),
} as const;

export const draftsPushes = {
  drafts: push<{ accountId: string; drafts: LocalDraft[] }>(),
} as const;
