// Alert words: GET, POST and DELETE /users/me/alert_words, the alert_words register state and
// alert_words events. As on the public server every answer and event carries the user's whole
// list; words are trimmed on add (empty ones dropped) and kept with the case first given, and a
// word already present in another case is not added again. Removal compares case-insensitively
// without trimming. Matching in messages is in realm/alert-word-matcher.ts.
import * as z from 'zod';
import type { Db } from '../../db';
import type { ResourceModule } from '../module';
import type { RealmContext } from '../../realm/context';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';

/** The public server's limit for one word on add (checked before trimming, as it does). */
export const MAX_ALERT_WORD_LENGTH = 100;

interface AlertWordRow {
  id: number;
  word: string;
}

// The public server's wording for a too-long item of a list parameter (a BAD_REQUEST).
function checkLength(word: string, index: number): void {
  if (word.length > MAX_ALERT_WORD_LENGTH) {
    throw badRequest(
      `alert_words[${index}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`,
    );
  }
}

function alertWordRows(db: Db, userId: number): AlertWordRow[] {
  return db
    .prepare<[number], AlertWordRow>(
      'SELECT id, word FROM alert_words WHERE user_id = ? ORDER BY id',
    )
    .all(userId);
}

export function userAlertWords(db: Db, userId: number): string[] {
  return alertWordRows(db, userId).map((row) => row.word);
}

function addAlertWords(db: Db, userId: number, words: readonly string[]): void {
  const known = new Set(alertWordRows(db, userId).map((row) => row.word.toLowerCase()));
  // Of new words equal but for case, the last one given is kept, as the public server keeps it.
  const fresh = new Map<string, string>();
  for (const word of words) {
    const lower = word.toLowerCase();
    if (!known.has(lower)) fresh.set(lower, word);
  }
  if (fresh.size === 0) return;
  const insert = db.prepare('INSERT INTO alert_words (user_id, word) VALUES (?, ?)');
  db.transaction(() => {
    for (const word of fresh.values()) insert.run(userId, word);
  })();
}

function removeAlertWords(db: Db, userId: number, words: readonly string[]): void {
  const doomed = new Set(words.map((word) => word.toLowerCase()));
  const ids = alertWordRows(db, userId)
    .filter((row) => doomed.has(row.word.toLowerCase()))
    .map((row) => row.id);
  if (ids.length === 0) return;
  const remove = db.prepare('DELETE FROM alert_words WHERE id = ?');
  db.transaction(() => {
    for (const id of ids) remove.run(id);
  })();
}

/** Sends the whole list to every queue of the user and returns it for the response. */
function announce(ctx: RealmContext, userId: number): { alert_words: string[] } {
  const alertWords = userAlertWords(ctx.db, userId);
  ctx.events.send([userId], { type: 'alert_words', alert_words: alertWords });
  return { alert_words: alertWords };
}

export const alertWordsResource: ResourceModule = {
  name: 'alert-words',
  routes(api, ctx) {
    api.get('/users/me/alert_words', {}, ({ user }) => ({
      alert_words: userAlertWords(ctx.db, user.id),
    }));

    api.post(
      '/users/me/alert_words',
      { params: { alert_words: p.json(z.array(z.string())) } },
      ({ user, params }) => {
        params.alert_words.forEach(checkLength);
        const words = params.alert_words.map((word) => word.trim()).filter((word) => word !== '');
        addAlertWords(ctx.db, user.id, words);
        return announce(ctx, user.id);
      },
    );

    api.delete(
      '/users/me/alert_words',
      { params: { alert_words: p.json(z.array(z.string())) } },
      ({ user, params }) => {
        removeAlertWords(ctx.db, user.id, params.alert_words);
        return announce(ctx, user.id);
      },
    );
  },

  initialState(ctx, user, request) {
    if (!request.wants('alert_words')) return {};
    return { alert_words: userAlertWords(ctx.db, user.id) };
  },
};
