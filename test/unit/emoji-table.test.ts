// The checked-in emoji table must be the public server's table exactly (the fixture it is generated
// from), so reactions and `:name:` accept the same names as the public server.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import table from '../../shared/emoji/zulip-emoji-codes.json';
import { EMOTICON_CONVERSIONS, emojiCodeForName, emojiNameForCode } from '../../shared/emoji/names';

const fixture = JSON.parse(
  readFileSync(
    new URL('../../../shared/fixtures/zulip-emoji/emoji_codes.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;

describe('the emoji name table', () => {
  it('is the public server table (regenerate with scripts/gen-emoji-table.ts)', () => {
    expect(table).toEqual(fixture);
  });

  it('accepts aliases and gives canonical names', () => {
    expect(emojiCodeForName('+1')).toBe('1f44d');
    expect(emojiCodeForName('thumbs_up')).toBe('1f44d');
    expect(emojiCodeForName('like')).toBe('1f44d');
    expect(emojiNameForCode('1f44d')).toBe('+1');
    expect(emojiCodeForName('no_such_emoji')).toBeUndefined();
    expect(EMOTICON_CONVERSIONS[':)']).toBe(':smile:');
  });
});
