// The database side of rendering: resolves user, group and channel names for one author, the
// author's translate_emoticons setting, and the server's markdown settings (realm URL, camo proxy).
// Channel links only resolve to channels the author may see, so a link never leaks a private name.
import type { Db } from '../db';
import { sharedTableCache } from '../db/table-cache';
import { BoundedMap } from '../memory/bounded-map';
import type { AuthUser } from '../realm/context';
import { canSeeChannelMetadata } from '../realm/permissions';
import { userSettings } from '../realm/accounts';
import type { ChannelRow } from '../resources/channels/channels-store';
import type { CamoConfig, MentionLookup, MentionUser } from './mentions';
import type { Linkifier } from './linkifiers';
import { compilePattern } from '../resources/realm/realm-config';
import { expandTemplate } from '../../shared/linkifier-rules';
import { emojiSourceUrl } from '../resources/realm/realm-emoji';
import { uploadImagePreview } from '../uploads/thumbnails';

/** Server settings of rendering, per database (one realm per database). */
export interface MarkdownServerSettings {
  realmUrl?: string;
  camo?: CamoConfig;
}

const serverSettings = new WeakMap<Db, MarkdownServerSettings>();

/** Sets the realm URL and camo proxy the renderer uses for messages of this database's realm. */
export function configureMarkdown(db: Db, settings: MarkdownServerSettings): void {
  serverSettings.set(db, settings);
}

function translatesEmoticons(db: Db, userId: number): boolean {
  return sharedTableCache(
    db,
    'translate-emoticons',
    ['user_settings'],
    (db, id: number) => userSettings(db, id).translate_emoticons === true,
  ).get(userId);
}

export function databaseLookup(db: Db, author: AuthUser): MentionLookup {
  const settings = serverSettings.get(db);
  return {
    realmUrl: () => settings?.realmUrl,
    imageProxy: () => settings?.camo,
    translateEmoticons: () => translatesEmoticons(db, author.id),
    // Thumbnails are made before the upload answers, so a previewed upload always has one.
    uploadImage: (pathId) => uploadImagePreview(db, pathId),
    userByName(name) {
      return db
        .prepare<[string], MentionUser>(
          'SELECT id, full_name FROM users WHERE full_name = ? COLLATE NOCASE AND is_active = 1',
        )
        .all(name);
    },
    userById(id) {
      return db
        .prepare<[number], MentionUser>(
          'SELECT id, full_name FROM users WHERE id = ? AND is_active = 1',
        )
        .get(id);
    },
    groupByName(name) {
      // System groups (role:*) are not mentionable.
      return db
        .prepare<[string], { id: number; name: string }>(
          `SELECT id, name FROM user_groups
            WHERE name = ? COLLATE NOCASE AND is_system_group = 0 AND deactivated = 0`,
        )
        .get(name);
    },
    channelByName(name) {
      const row = db
        .prepare<[string], ChannelRow>('SELECT * FROM channels WHERE name = ? COLLATE NOCASE')
        .get(name);
      if (!row || !canSeeChannelMetadata(db, author, row)) return undefined;
      return { id: row.id, name: row.name };
    },
    latestMessageInTopic(channelId, topic) {
      const row = db
        .prepare<[number, string], { id: number | null }>(
          'SELECT MAX(id) AS id FROM messages WHERE channel_id = ? AND topic = ? COLLATE NOCASE',
        )
        .get(channelId, topic);
      return row?.id ?? undefined;
    },
    customEmojiUrl(name) {
      const row = db
        .prepare<[string], { file_name: string }>(
          'SELECT file_name FROM realm_emoji WHERE name = ? AND deactivated = 0',
        )
        .get(name);
      return row && emojiSourceUrl(row.file_name);
    },
    linkifiers: () => realmLinkifiers(db),
  };
}

/** Compiled linkifiers by pattern and template; kept past a change, as an edit often restores one. */
const compiled = new BoundedMap<string, Linkifier | null>({ maxEntries: 1000 });

/**
 * The realm's linkifiers, compiled once per pattern/template pair; invalid ones are skipped.
 * Every rendering asks for them: the list is cached until the linkifiers table changes.
 */
export function realmLinkifiers(db: Db): readonly Linkifier[] {
  return sharedTableCache(db, 'linkifiers', ['linkifiers'], readRealmLinkifiers).get(0);
}

function readRealmLinkifiers(db: Db): Linkifier[] {
  const rows = db
    .prepare<[], { pattern: string; url_template: string }>(
      'SELECT pattern, url_template FROM linkifiers ORDER BY sort_order, id',
    )
    .all();
  const out: Linkifier[] = [];
  for (const row of rows) {
    const key = `${row.pattern}\u0000${row.url_template}`;
    let linkifier = compiled.get(key);
    if (linkifier === undefined) {
      try {
        const regex = compilePattern(row.pattern);
        linkifier = { regex, url: (groups) => expandTemplate(row.url_template, groups) };
      } catch {
        linkifier = null;
      }
      compiled.set(key, linkifier);
    }
    if (linkifier) out.push(linkifier);
  }
  return out;
}
