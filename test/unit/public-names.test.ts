// The neutral-to-public names table covers every neutral identifier the spec's notation paragraph
// lists (read from ../shared at test time), each renamed, and both directions agree.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { neutralName, PUBLIC_NAMES, publicName } from '../../shared/api/public-names';
import { haveShared, sharedPath } from '../support/shared-fixtures';

const haveSpec = haveShared('spec/chat-api.md');

describe('public names table', () => {
  it.skipIf(!haveSpec)('covers every neutral word of chat-api.md (../shared/spec)', () => {
    const notation = readFileSync(sharedPath('spec/chat-api.md'), 'utf8')
      .split('\n')
      .find((line) => line.includes('Neutral words replace brand words'));
    expect(notation, 'the notation paragraph').toBeDefined();
    // The identifiers are listed in parentheses after the words "Neutral words replace brand words".
    const list = notation!.slice(notation!.indexOf('Neutral words replace brand words'));
    const listed = [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThanOrEqual(8);
    for (const neutral of listed) {
      expect(publicName(neutral), neutral).not.toBe(neutral);
      expect(neutralName(publicName(neutral))).toBe(neutral);
    }
    expect(PUBLIC_NAMES.map((n) => n.neutral).sort()).toEqual([...listed].sort());
  });

  it("maps to the public server's own names", () => {
    expect(publicName('lexer_language')).toBe('pygments_language');
    expect(publicName('client_extavatar')).toBe('client_gravatar');
    expect(publicName('has_videoprovider_token')).toBe('has_zoom_token');
    expect(publicName('svc_extra_emoji')).toBe('zulip_extra_emoji');
    expect(publicName('/users/me/platform_a_device_token')).toBe('/users/me/apns_device_token');
    expect(publicName('/users/me/platform_b_reg_id')).toBe('/users/me/android_gcm_reg_id');
    expect(publicName('/calls/videoprovider/create')).toBe('/calls/zoom/create');
    expect(publicName('topic')).toBe('topic');
  });
});
