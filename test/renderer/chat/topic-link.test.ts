// "Copy link to topic" writes the public web app's topic link: `#narrow/channel/ID-name/topic/…`,
// the channel's name with dashes for spaces, both hash-encoded (percent-encoding with "." for "%").
// The app's own link parser reads it back to the same topic.
import { describe, expect, it } from 'vitest';
import { channelSlug, parseNarrowLink, topicFragment } from '../../../shared/narrow/link';
import { topicLink } from '../../../renderer/features/topics/topic-actions';

describe('topic links', () => {
  it('writes the channel slug and the topic as the web app does', () => {
    expect(channelSlug(12, 'release notes')).toBe('12-release-notes');
    expect(channelSlug(3, 'ops (eu)')).toBe('3-ops-.28eu.29');
    expect(topicFragment(12, 'release notes', 'v1.2 plan')).toBe(
      '#narrow/channel/12-release-notes/topic/v1.2E2.20plan',
    );
    expect(topicFragment(7, 'general', '✔ done')).toBe(
      '#narrow/channel/7-general/topic/.E2.9C.94.20done',
    );
  });

  it('is a link on the realm that reads back as the topic', () => {
    const link = topicLink('https://chat.example.com/', 12, 'release notes', 'v1.2 plan / 50%');
    expect(
      link.startsWith('https://chat.example.com/#narrow/channel/12-release-notes/topic/'),
    ).toBe(true);
    expect(parseNarrowLink(link)).toEqual({
      narrow: [
        { operator: 'channel', operand: 12 },
        { operator: 'topic', operand: 'v1.2 plan / 50%' },
      ],
    });
  });
});
