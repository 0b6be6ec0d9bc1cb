// Bits of user_messages.flags. The partial indexes in migrations.ts depend on READ = 1, STARRED = 2
// and the three mention bits (8 | 16 | 32 = 56): change them only with a migration.
export const MessageFlag = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;

export type MessageFlagName = keyof typeof MessageFlag;

export const MESSAGE_FLAG_NAMES = Object.keys(MessageFlag) as MessageFlagName[];

/** Flags users may change themselves through the flag endpoints. */
export const USER_EDITABLE_FLAGS: readonly MessageFlagName[] = ['read', 'starred', 'collapsed'];

/** The API's flag list for a bitmask; adds the deprecated wildcard_mentioned where it applies. */
export function flagNames(mask: number): string[] {
  const names: string[] = [];
  for (const name of MESSAGE_FLAG_NAMES) if (mask & MessageFlag[name]) names.push(name);
  if (mask & (MessageFlag.stream_wildcard_mentioned | MessageFlag.topic_wildcard_mentioned)) {
    names.push('wildcard_mentioned');
  }
  return names;
}
