// Personal settings that are not PATCH /settings values (those go through updateSettings): alert
// words, custom profile field values, the avatar, and revealing the account's API key once.
import * as z from 'zod';
import type { SuccessEnvelope } from '../api/endpoints';
import { forAccount } from './common';
import { method } from './define';

/** The public server's limit on one alert word (MAX_ALERT_WORD_LENGTH). */
export const MAX_ALERT_WORD_LENGTH = 100;

const alertWords = z.array(z.string().trim().min(1).max(MAX_ALERT_WORD_LENGTH)).min(1).max(100);
const fileToken = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'not a file token');

export const personalMethods = {
  addAlertWords: method<SuccessEnvelope & { alert_words: string[] }>()(
    forAccount({ words: alertWords }),
  ),
  removeAlertWords: method<SuccessEnvelope & { alert_words: string[] }>()(
    forAccount({ words: alertWords }),
  ),
  /** Custom profile field values; an empty value clears the field. */
  updateProfileData: method<SuccessEnvelope>()(
    forAccount({
      data: z
        .array(
          z.strictObject({
            id: z.number().int().positive(),
            value: z.union([
              z.string().max(10_000),
              z.array(z.number().int().positive()).max(1000),
            ]),
          }),
        )
        .min(1)
        .max(100),
    }),
  ),
  /** Uploads a file the user chose (a token from intakeFile or chooseFiles) as the avatar. */
  uploadAvatar: method<{ avatarUrl: string }>()(forAccount({ token: fileToken })),
  deleteAvatar: method<{ avatarUrl: string }>()(forAccount({})),
  /**
   * Asks the server for the account's API key with the password just typed. The one call whose
   * answer carries a key to the renderer, for the settings screen to show once; nothing keeps it.
   */
  revealApiKey: method<{ apiKey: string }>()(forAccount({ password: z.string().min(1).max(1024) })),
} as const;
