// Schemas and types several domains share.
import * as z from 'zod';

export const accountId = z.string().regex(/^[a-z0-9-]{1,64}$/, 'not an account id');
export const messageId = z.number().int().positive();
export const streamId = z.number().int().positive();
export const userId = z.number().int().positive();

/** Payloads are closed objects: an unexpected key is a malformed call, not something to ignore. */
export const payload = z.strictObject;

export const forAccount = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject({ accountId, ...shape });

/** Connection state of one account's event loop, as the UI shows it. */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'live'; queueId: string }
  | { status: 'backoff'; retryAt: number; attempt: number; reason: string }
  | { status: 'signed_out'; reason: string }
  | { status: 'stopped' };
