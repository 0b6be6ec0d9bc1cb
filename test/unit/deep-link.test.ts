// @vitest-environment node
// tributary:// and zulip:// deep links (shared/narrow/deep-link.ts): the server they name and the
// place on it, in the web app's `#narrow/` encoding.
import { describe, expect, it } from 'vitest';
import { isDeepLinkUrl, parseDeepLink, serverKey } from '../../shared/narrow/deep-link';
import { messageNearFragment } from '../../shared/narrow/link';

describe('deep links', () => {
  it('opens a server alone', () => {
    expect(parseDeepLink('tributary://Chat.Example.com')).toEqual({ server: 'chat.example.com' });
    expect(parseDeepLink('zulip://chat.example.com/')).toEqual({ server: 'chat.example.com' });
    expect(parseDeepLink('tributary://127.0.0.1:9991/team/')).toEqual({
      server: '127.0.0.1:9991/team',
    });
  });

  it('opens a channel, a topic, a message and a DM conversation', () => {
    expect(parseDeepLink('tributary://chat.example.com/#narrow/channel/12-general')).toEqual({
      server: 'chat.example.com',
      narrow: [{ operator: 'channel', operand: 12 }],
    });
    expect(
      parseDeepLink('zulip://chat.example.com/#narrow/stream/12-general/topic/release.20plan'),
    ).toEqual({
      server: 'chat.example.com',
      narrow: [
        { operator: 'channel', operand: 12 },
        { operator: 'topic', operand: 'release plan' },
      ],
    });
    expect(
      parseDeepLink('tributary://chat.example.com/#narrow/channel/12-general/topic/x/near/345'),
    ).toMatchObject({ anchor: 345, narrow: [{ operand: 12 }, { operand: 'x' }] });
    expect(parseDeepLink('tributary://chat.example.com/#narrow/dm/7,5-group')).toEqual({
      server: 'chat.example.com',
      narrow: [{ operator: 'dm', operand: [5, 7] }],
    });
  });

  it('round-trips the fragment the app itself writes for a message link', () => {
    const fragment = messageNearFragment(
      { type: 'stream', id: 99, stream_id: 3, display_recipient: 'design', subject: 'a.b (c)' },
      1,
    );
    expect(parseDeepLink(`tributary://chat.example.com/${fragment}`)).toEqual({
      server: 'chat.example.com',
      narrow: [
        { operator: 'channel', operand: 3 },
        { operator: 'topic', operand: 'a.b (c)' },
      ],
      anchor: 99,
    });
  });

  it('takes a whole realm URL in ?url=', () => {
    const url = encodeURIComponent('http://127.0.0.1:9991/#narrow/channel/4-random/topic/hi');
    expect(parseDeepLink(`tributary://open?url=${url}`)).toEqual({
      server: '127.0.0.1:9991',
      narrow: [
        { operator: 'channel', operand: 4 },
        { operator: 'topic', operand: 'hi' },
      ],
    });
    expect(parseDeepLink('tributary://open?url=javascript%3Aalert(1)')).toBeNull();
    expect(parseDeepLink('tributary://open')).toBeNull();
  });

  it('refuses what is not a well-formed link', () => {
    for (const bad of [
      'https://chat.example.com/#narrow/channel/1',
      'tributary://',
      'tributary://user:pw@chat.example.com/',
      'tributary://chat example.com/',
      'tributary://chat.example.com/../etc/',
      'tributary:chat.example.com',
      `tributary://chat.example.com/#narrow/topic/${'x'.repeat(9000)}`,
    ]) {
      expect(parseDeepLink(bad), bad).toBeNull();
    }
    // A fragment that names nothing still opens the server.
    expect(parseDeepLink('tributary://chat.example.com/#streams')).toEqual({
      server: 'chat.example.com',
    });
  });

  it('recognises link arguments and keys servers the same way as links', () => {
    expect(isDeepLinkUrl('zulip://x.example/')).toBe(true);
    expect(isDeepLinkUrl('TRIBUTARY://x.example/')).toBe(true);
    expect(isDeepLinkUrl('manifest.json')).toBe(false);
    expect(serverKey('https://Chat.example.com/team/')).toBe('chat.example.com/team');
    expect(serverKey('http://127.0.0.1:9991')).toBe('127.0.0.1:9991');
    expect(serverKey('ftp://x')).toBeNull();
  });
});
