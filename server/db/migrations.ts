// Versioned schema. PRAGMA user_version records the last applied step; each step runs once, in a
// transaction, in order. Never edit a released step: append a new one so existing data folders upgrade.
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  description: string;
  up: (db: Database.Database) => void;
}

const initialSchema = `
-- One realm per data folder. settings holds the realm_* organisation settings as JSON
-- (group-setting values included), so adding a setting needs no schema change.
CREATE TABLE realm (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  date_created INTEGER NOT NULL,
  settings TEXT NOT NULL DEFAULT '{}'
);

-- Defaults copied into user_settings when a user is created (PATCH /realm/user_settings_defaults).
CREATE TABLE realm_user_settings_defaults (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  settings TEXT NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,          -- API email
  delivery_email TEXT NOT NULL UNIQUE COLLATE NOCASE, -- real email
  full_name TEXT NOT NULL,
  role INTEGER NOT NULL CHECK (role IN (100, 200, 300, 400, 600)),
  api_key TEXT NOT NULL UNIQUE,
  password_hash TEXT,                                 -- scrypt$N$r$p$salt$hash; NULL for bots
  is_active INTEGER NOT NULL DEFAULT 1,
  is_bot INTEGER NOT NULL DEFAULT 0,
  bot_type INTEGER CHECK (bot_type IS NULL OR bot_type IN (1, 2, 3, 4)),
  bot_owner_id INTEGER REFERENCES users(id),
  bot_config TEXT,                                    -- JSON: outgoing webhook base_url, token, interface
  timezone TEXT NOT NULL DEFAULT '',
  avatar_source TEXT NOT NULL DEFAULT 'G',
  avatar_version INTEGER NOT NULL DEFAULT 1,
  date_joined TEXT NOT NULL,                          -- ISO 8601
  is_imported_stub INTEGER NOT NULL DEFAULT 0,
  can_create_users INTEGER NOT NULL DEFAULT 0
);

-- Full settings object per user (JSON), created from realm_user_settings_defaults.
CREATE TABLE user_settings (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  settings TEXT NOT NULL
);

CREATE TABLE user_groups (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  is_system_group INTEGER NOT NULL DEFAULT 0,
  creator_id INTEGER REFERENCES users(id),
  date_created INTEGER,
  deactivated INTEGER NOT NULL DEFAULT 0,
  settings TEXT NOT NULL DEFAULT '{}'                 -- JSON: can_*_group group-setting values
);
CREATE TABLE user_group_members (
  group_id INTEGER NOT NULL REFERENCES user_groups(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
CREATE INDEX user_group_members_by_user ON user_group_members(user_id);
CREATE TABLE user_group_subgroups (
  group_id INTEGER NOT NULL REFERENCES user_groups(id),
  subgroup_id INTEGER NOT NULL REFERENCES user_groups(id),
  PRIMARY KEY (group_id, subgroup_id)
) WITHOUT ROWID;

CREATE TABLE channels (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  rendered_description TEXT NOT NULL DEFAULT '',
  date_created INTEGER NOT NULL,
  creator_id INTEGER REFERENCES users(id),
  invite_only INTEGER NOT NULL DEFAULT 0,
  is_web_public INTEGER NOT NULL DEFAULT 0,
  history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
  message_retention_days INTEGER,                     -- NULL inherits the realm; -1 forever
  topics_policy TEXT NOT NULL DEFAULT 'inherit',
  folder_id INTEGER,
  is_archived INTEGER NOT NULL DEFAULT 0,
  is_default_stream INTEGER NOT NULL DEFAULT 0,
  group_settings TEXT NOT NULL DEFAULT '{}'           -- JSON: can_*_group group-setting values
);

-- A row stays (active = 0) after unsubscribing, which is how register lists "unsubscribed".
CREATE TABLE subscriptions (
  user_id INTEGER NOT NULL REFERENCES users(id),
  channel_id INTEGER NOT NULL REFERENCES channels(id),
  active INTEGER NOT NULL DEFAULT 1,
  color TEXT NOT NULL DEFAULT '#c2c2c2',
  is_muted INTEGER NOT NULL DEFAULT 0,
  pin_to_top INTEGER NOT NULL DEFAULT 0,
  desktop_notifications INTEGER,                      -- NULL: inherit the user's setting
  audible_notifications INTEGER,
  push_notifications INTEGER,
  email_notifications INTEGER,
  wildcard_mentions_notify INTEGER,
  PRIMARY KEY (user_id, channel_id)
) WITHOUT ROWID;
CREATE INDEX subscriptions_by_channel ON subscriptions(channel_id, active, user_id);

-- A recipient is a channel or one direct-message conversation (the sorted set of its participants,
-- sender included), so 1:1 messages in both directions share a recipient_id.
CREATE TABLE recipients (
  id INTEGER PRIMARY KEY,
  channel_id INTEGER UNIQUE REFERENCES channels(id),
  user_ids TEXT UNIQUE,                               -- '3,7,9' for direct conversations
  CHECK ((channel_id IS NULL) <> (user_ids IS NULL))
);
CREATE TABLE recipient_members (
  recipient_id INTEGER NOT NULL REFERENCES recipients(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (recipient_id, user_id)
) WITHOUT ROWID;
CREATE INDEX recipient_members_by_user ON recipient_members(user_id);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  sender_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('stream', 'private')),
  recipient_id INTEGER NOT NULL REFERENCES recipients(id),
  channel_id INTEGER REFERENCES channels(id),         -- NULL for direct messages
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  client TEXT NOT NULL DEFAULT 'API',
  timestamp INTEGER NOT NULL,
  edit_history TEXT,                                  -- JSON array, newest first; NULL if never edited
  last_edit_timestamp INTEGER,
  last_moved_timestamp INTEGER,
  is_me_message INTEGER NOT NULL DEFAULT 0,
  has_link INTEGER NOT NULL DEFAULT 0,
  has_image INTEGER NOT NULL DEFAULT 0,
  has_attachment INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX messages_by_channel_topic ON messages(channel_id, topic COLLATE NOCASE, id);
CREATE INDEX messages_by_recipient ON messages(recipient_id, id);
CREATE INDEX messages_by_sender ON messages(sender_id, id);

-- Per-user message rows; flags is a bitmask (server/db/flags.ts).
CREATE TABLE user_messages (
  user_id INTEGER NOT NULL REFERENCES users(id),
  message_id INTEGER NOT NULL REFERENCES messages(id),
  flags INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
CREATE INDEX user_messages_by_message ON user_messages(message_id);
CREATE INDEX user_messages_unread ON user_messages(user_id, message_id) WHERE (flags & 1) = 0;
CREATE INDEX user_messages_starred ON user_messages(user_id, message_id) WHERE (flags & 2) <> 0;
CREATE INDEX user_messages_mentioned ON user_messages(user_id, message_id) WHERE (flags & 56) <> 0;

-- Full-text search over content and topic, kept in step by triggers.
CREATE VIRTUAL TABLE messages_fts USING fts5(
  content, topic, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content, topic) VALUES (new.id, new.content, new.topic);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, topic) VALUES ('delete', old.id, old.content, old.topic);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, topic ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, topic) VALUES ('delete', old.id, old.content, old.topic);
  INSERT INTO messages_fts(rowid, content, topic) VALUES (new.id, new.content, new.topic);
END;

CREATE TABLE reactions (
  message_id INTEGER NOT NULL REFERENCES messages(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  emoji_name TEXT NOT NULL,
  emoji_code TEXT NOT NULL,
  reaction_type TEXT NOT NULL CHECK (reaction_type IN ('unicode_emoji', 'realm_emoji', 'svc_extra_emoji')),
  created_at INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (message_id, user_id, reaction_type, emoji_code)
) WITHOUT ROWID;

CREATE TABLE submessages (
  id INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES messages(id),
  sender_id INTEGER NOT NULL REFERENCES users(id),
  msg_type TEXT NOT NULL,
  content TEXT NOT NULL
);
CREATE INDEX submessages_by_message ON submessages(message_id);

-- Uploaded files live in DIR/uploads/<path_id>.
CREATE TABLE attachments (
  id INTEGER PRIMARY KEY,
  path_id TEXT NOT NULL UNIQUE,
  file_name TEXT NOT NULL,
  content_type TEXT,
  size INTEGER NOT NULL,
  owner_id INTEGER NOT NULL REFERENCES users(id),
  create_time INTEGER NOT NULL,                       -- UNIX seconds
  is_web_public INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX attachments_by_owner ON attachments(owner_id);
CREATE TABLE attachment_messages (
  attachment_id INTEGER NOT NULL REFERENCES attachments(id),
  message_id INTEGER NOT NULL REFERENCES messages(id),
  PRIMARY KEY (attachment_id, message_id)
) WITHOUT ROWID;
CREATE INDEX attachment_messages_by_message ON attachment_messages(message_id);

CREATE TABLE drafts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('', 'stream', 'private')),
  to_ids TEXT NOT NULL DEFAULT '[]',                  -- JSON integer array
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  last_edit_time INTEGER NOT NULL
);
CREATE INDEX drafts_by_user ON drafts(user_id, last_edit_time);

CREATE TABLE user_status (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  status_text TEXT NOT NULL DEFAULT '',
  emoji_name TEXT NOT NULL DEFAULT '',
  emoji_code TEXT NOT NULL DEFAULT '',
  reaction_type TEXT NOT NULL DEFAULT '',
  timestamp INTEGER NOT NULL
);

CREATE TABLE user_topics (
  user_id INTEGER NOT NULL REFERENCES users(id),
  channel_id INTEGER NOT NULL REFERENCES channels(id),
  topic_name TEXT NOT NULL COLLATE NOCASE,
  visibility_policy INTEGER NOT NULL CHECK (visibility_policy IN (1, 2, 3)),
  last_updated INTEGER NOT NULL,
  PRIMARY KEY (user_id, channel_id, topic_name)
) WITHOUT ROWID;

CREATE TABLE muted_users (
  user_id INTEGER NOT NULL REFERENCES users(id),
  muted_user_id INTEGER NOT NULL REFERENCES users(id),
  timestamp INTEGER NOT NULL,
  PRIMARY KEY (user_id, muted_user_id)
) WITHOUT ROWID;

CREATE TABLE custom_profile_fields (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  hint TEXT NOT NULL DEFAULT '',
  field_type INTEGER NOT NULL,
  field_data TEXT NOT NULL DEFAULT '',
  sort_order INTEGER NOT NULL,
  display_in_profile_summary INTEGER NOT NULL DEFAULT 0,
  required INTEGER NOT NULL DEFAULT 0,
  editable_by_user INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE custom_profile_field_values (
  user_id INTEGER NOT NULL REFERENCES users(id),
  field_id INTEGER NOT NULL REFERENCES custom_profile_fields(id),
  value TEXT NOT NULL,
  rendered_value TEXT,
  PRIMARY KEY (user_id, field_id)
) WITHOUT ROWID;
`;

const realmConfiguration = `
CREATE TABLE linkifiers (
  id INTEGER PRIMARY KEY,
  pattern TEXT NOT NULL,
  url_template TEXT NOT NULL,
  reverse_template TEXT,
  alternative_url_templates TEXT NOT NULL DEFAULT '[]',   -- JSON string array
  example_input TEXT,
  UNIQUE (pattern, url_template)
);
CREATE TABLE code_playgrounds (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  lexer_language TEXT NOT NULL,
  url_template TEXT NOT NULL,
  UNIQUE (lexer_language, name)
);
CREATE TABLE realm_domains (
  id INTEGER PRIMARY KEY,
  domain TEXT NOT NULL UNIQUE COLLATE NOCASE,
  allow_subdomains INTEGER NOT NULL DEFAULT 0
);
`;

export const migrations: Migration[] = [
  {
    version: 1,
    description:
      'initial schema: realm, users, groups, channels, messages, uploads, drafts, statuses',
    up: (db) => db.exec(initialSchema),
  },
  {
    version: 2,
    description: 'realm configuration: linkifiers, code playgrounds, allowed email domains',
    up: (db) => db.exec(realmConfiguration),
  },
  {
    version: 3,
    description: 'per-bot key-value storage',
    up: (db) =>
      db.exec(`
        CREATE TABLE bot_storage (
          bot_id INTEGER NOT NULL REFERENCES users(id),
          key TEXT NOT NULL,
          value TEXT NOT NULL,
          PRIMARY KEY (bot_id, key)
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 4,
    description: 'navigation views and (deprecated) push device tokens',
    up: (db) =>
      db.exec(`
        CREATE TABLE navigation_views (
          user_id INTEGER NOT NULL REFERENCES users(id),
          fragment TEXT NOT NULL,
          is_pinned INTEGER NOT NULL,
          name TEXT,
          PRIMARY KEY (user_id, fragment)
        ) WITHOUT ROWID;
        CREATE TABLE push_devices (
          user_id INTEGER NOT NULL REFERENCES users(id),
          kind TEXT NOT NULL CHECK (kind IN ('platform_a', 'platform_b')),
          token TEXT NOT NULL,
          appid TEXT,
          PRIMARY KEY (user_id, kind, token)
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 5,
    description: 'custom (realm) emoji; images in uploads/emoji/<file_name>',
    up: (db) =>
      db.exec(`
        CREATE TABLE realm_emoji (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          author_id INTEGER REFERENCES users(id),
          file_name TEXT NOT NULL UNIQUE,
          content_type TEXT NOT NULL,
          deactivated INTEGER NOT NULL DEFAULT 0
        );
        -- One active emoji per name; deactivated ones keep their name for old reactions.
        CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (name) WHERE deactivated = 0;
      `),
  },
  {
    version: 6,
    description:
      'uploaded images: dimensions as shown and frame count (thumbnails in uploads/thumbnail/)',
    up: (db) =>
      db.exec(`
        CREATE TABLE image_attachments (
          path_id TEXT PRIMARY KEY,
          width INTEGER NOT NULL,
          height INTEGER NOT NULL,
          frames INTEGER NOT NULL,
          content_type TEXT NOT NULL
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 7,
    description: 'presence: last active and last connected time per user (unix seconds)',
    up: (db) =>
      db.exec(`
        CREATE TABLE user_presence (
          user_id INTEGER PRIMARY KEY REFERENCES users(id),
          last_active_time INTEGER,
          last_connected_time INTEGER NOT NULL,
          -- Realm-wide sequence: each write takes MAX + 1, so clients fetch only what changed.
          last_update_id INTEGER NOT NULL
        );
        CREATE INDEX user_presence_last_update_id ON user_presence (last_update_id);
      `),
  },
  {
    version: 8,
    description: 'scheduled messages and message reminders (delivered by the server at the time)',
    up: (db) =>
      db.exec(`
        CREATE TABLE scheduled_messages (
          id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id),
          -- 'send' is a scheduled message; 'reminder' a Notification Bot DM about another message.
          delivery_type TEXT NOT NULL CHECK (delivery_type IN ('send', 'reminder')),
          type TEXT NOT NULL CHECK (type IN ('stream', 'private')),
          -- Channel id, or the JSON list of direct recipients' ids.
          to_ids TEXT NOT NULL,
          topic TEXT NOT NULL,
          content TEXT NOT NULL,
          rendered_content TEXT NOT NULL,
          scheduled_delivery_timestamp INTEGER NOT NULL,
          read_by_sender INTEGER NOT NULL,
          reminder_target_message_id INTEGER,
          failed INTEGER NOT NULL DEFAULT 0,
          delivered INTEGER NOT NULL DEFAULT 0,
          delivered_message_id INTEGER
        );
        CREATE INDEX scheduled_messages_pending
          ON scheduled_messages (scheduled_delivery_timestamp) WHERE delivered = 0 AND failed = 0;
        CREATE INDEX scheduled_messages_user ON scheduled_messages (user_id);
      `),
  },
  {
    version: 9,
    description: 'alert words (per user; matched in messages they receive)',
    up: (db) =>
      db.exec(`
        CREATE TABLE alert_words (
          id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id),
          -- As entered (trimmed); unique per user case-insensitively, which the server enforces
          -- (SQLite's NOCASE folds ASCII only).
          word TEXT NOT NULL
        );
        CREATE INDEX alert_words_user ON alert_words (user_id);
      `),
  },
  {
    version: 10,
    description: 'who muted a user, by the muted user (each send marks read for them)',
    up: (db) => db.exec('CREATE INDEX muted_users_by_muted ON muted_users (muted_user_id)'),
  },
  {
    version: 11,
    description: 'linkifier order (PATCH /realm/linkifiers): rendering tries them in this order',
    up: (db) =>
      db.exec(`
        ALTER TABLE linkifiers ADD COLUMN sort_order INTEGER NOT NULL DEFAULT 0;
        UPDATE linkifiers SET sort_order = id;
      `),
  },
  {
    version: 12,
    description: 'organization icon: where it comes from (G default, U uploaded) and its version',
    up: (db) =>
      db.exec(`
        ALTER TABLE realm ADD COLUMN icon_source TEXT NOT NULL DEFAULT 'G';
        ALTER TABLE realm ADD COLUMN icon_version INTEGER NOT NULL DEFAULT 1;
      `),
  },
  {
    version: 13,
    description: 'reusable invitation links (POST /invites/multiuse)',
    // IF NOT EXISTS: realms from before this step made the table on start-up themselves.
    up: (db) =>
      db.exec(`
        CREATE TABLE IF NOT EXISTS multiuse_invites (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          invited_by INTEGER NOT NULL REFERENCES users(id),
          invited_as INTEGER NOT NULL,
          invited INTEGER NOT NULL,
          expiry INTEGER,
          stream_ids TEXT NOT NULL DEFAULT '[]'
        )
      `),
  },
  {
    version: 14,
    description: 'outgoing webhook calls owed to bots, queued with the message that triggered them',
    // Written in the message's own transaction, deleted in the transaction that posts the bot's
    // answer: a call survives a restart and is answered at most once (resources/webhooks/).
    up: (db) =>
      db.exec(`
        CREATE TABLE outgoing_webhook_deliveries (
          id INTEGER PRIMARY KEY,
          bot_id INTEGER NOT NULL,
          message_id INTEGER NOT NULL,
          trigger TEXT NOT NULL,
          -- Failed tries so far (timeouts, connection errors, 5xx).
          attempts INTEGER NOT NULL DEFAULT 0,
          -- Milliseconds since the epoch.
          next_attempt_at INTEGER NOT NULL
        );
        CREATE INDEX outgoing_webhook_deliveries_due ON outgoing_webhook_deliveries (next_attempt_at);
      `),
  },
  {
    version: 15,
    description: 'status clear-after (scheduled_end_time): when the server clears a status itself',
    up: (db) =>
      db.exec(`
        ALTER TABLE user_status ADD COLUMN scheduled_end_time INTEGER;
        CREATE INDEX user_status_end ON user_status (scheduled_end_time)
          WHERE scheduled_end_time IS NOT NULL;
      `),
  },
  {
    version: 16,
    description: "each user's email_address_visibility, indexed out of their settings document",
    // Every register reads all users' visibility (users-store.ts, emailVisibilityUncached, whose
    // expression this must match exactly): read from this covering index instead of parsing each
    // 2 KB settings document, a 10,000-user organization's first register spent 12-25 instead of
    // 70-88 ms of CPU on it (docs/benchmarks.md, tenth pass).
    up: (db) =>
      db.exec(`
        CREATE INDEX user_settings_email_visibility ON user_settings (
          user_id,
          (CASE WHEN json_valid(settings) THEN json_extract(settings, '$.email_address_visibility') END)
        );
      `),
  },
  {
    version: 17,
    description: "each user's presence_enabled, indexed out of their settings document",
    // Every register finds the users who turned presence off (user-status.ts, PRESENCE_ENABLED_SQL,
    // which this must match exactly): looked up here instead of parsing all 10,000 settings
    // documents, about 80 ms of a large organization's first register (docs/benchmarks.md,
    // eleventh pass).
    up: (db) =>
      db.exec(`
        CREATE INDEX user_settings_presence_enabled ON user_settings (
          (CASE WHEN json_valid(settings) THEN json_extract(settings, '$.presence_enabled') END)
        );
      `),
  },
  {
    version: 18,
    description: 'the unread index carries the flags, so reading unreads needs no table row',
    // Register's unread_msgs (messages/unreads.ts) wants each unread message's flags: without them
    // in the index, SQLite scanned all of a member's rows of user_messages instead (156,199 for
    // 20,000 unread in the large organization), 20-30 ms more of its first register.
    up: (db) =>
      db.exec(`
        DROP INDEX user_messages_unread;
        CREATE INDEX user_messages_unread ON user_messages(user_id, message_id, flags)
          WHERE (flags & 1) = 0;
      `),
  },
];
