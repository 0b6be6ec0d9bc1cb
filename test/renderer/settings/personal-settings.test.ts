// @vitest-environment node
// The pure parts of the personal settings: the store keeps alert words and follows their events,
// where a channel click goes by web_channel_default_view, animated previews shown still, the home
// view's route, and the profile field checks made before anything is sent.
import { describe, expect, it } from 'vitest';
import type { CustomProfileField } from '../../../shared/api/types';
import { channelNarrow, topicNarrow } from '../../../shared/narrow';
import { channelClickNarrow } from '../../../renderer/features/sidebar/channel-default-view';
import type { TopicItem } from '../../../renderer/features/sidebar/sidebar-model';
import { stillAnimatedImages } from '../../../renderer/features/messages/rich-content';
import { profileValueProblem } from '../../../renderer/features/settings/personal/profile-field-input';
import { homeRoute } from '../../../renderer/store/ui-store';
import { HOME_VIEWS } from '../../../renderer/features/settings/personal/preference-options';
import { ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { eventId, setupStore } from '../store/fixtures';

const topic = (name: string, unread: number, muted = false): TopicItem => ({
  name,
  unread,
  muted,
  resolved: false,
  policy: muted ? 1 : 0,
  lastId: 0,
});

describe('alert words in the store', () => {
  it('loads them from register and replaces them with each alert_words event', () => {
    const t = setupStore({ alert_words: ['deploy'] });
    expect(t.account().settings.alertWords).toEqual(['deploy']);
    t.apply({ id: eventId(), type: 'alert_words', alert_words: ['deploy', 'fire'] });
    expect(t.account().settings.alertWords).toEqual(['deploy', 'fire']);
  });
});

describe('personal settings in the store', () => {
  it('follows user_settings events for every setting the screens change', () => {
    const t = setupStore();
    const changes: Array<[string, boolean | number | string]> = [
      ['twenty_four_hour_time', true],
      ['web_home_view', 'recent_topics'],
      ['web_channel_default_view', 2],
      ['user_list_style', 1],
      ['web_animate_image_previews', 'never'],
      ['emojiset', 'text'],
      ['send_read_receipts', false],
      ['email_address_visibility', 4],
    ];
    for (const [property, value] of changes) {
      t.apply({ id: eventId(), type: 'user_settings', op: 'update', property, value });
      expect(t.account().settings.user[property]).toBe(value);
    }
  });
});

describe("web_home_view in the public server's spelling", () => {
  it("reads the spec's `recent` as `recent_topics`, from register and from events", () => {
    const t = setupStore({
      user_settings: { web_home_view: 'recent' },
      realm_user_settings_defaults: { web_home_view: 'recent' },
    });
    expect(t.account().settings.user.web_home_view).toBe('recent_topics');
    expect(t.account().settings.realmUserDefaults.web_home_view).toBe('recent_topics');
    t.apply({
      id: eventId(),
      type: 'user_settings',
      op: 'update',
      property: 'web_home_view',
      value: 'inbox',
    });
    expect(t.account().settings.user.web_home_view).toBe('inbox');
    t.apply({
      id: eventId(),
      type: 'user_settings',
      op: 'update',
      property: 'web_home_view',
      value: 'recent',
    });
    expect(t.account().settings.user.web_home_view).toBe('recent_topics');
    t.apply({
      id: eventId(),
      type: 'realm_user_settings_defaults',
      op: 'update',
      property: 'web_home_view',
      value: 'all_messages',
    });
    expect(t.account().settings.realmUserDefaults.web_home_view).toBe('all_messages');
  });

  it('offers Recent conversations as `recent_topics`, the only value a public server accepts', () => {
    expect(HOME_VIEWS.map((c) => c.value)).toEqual(['inbox', 'recent_topics', 'all_messages']);
  });
});

describe('channel click by web_channel_default_view', () => {
  // Newest first, as the sidebar lists them.
  const topics = [topic('muted news', 3, true), topic('lunch', 0), topic('deploy', 2)];

  it('goes to the top topic that is not muted (1)', () => {
    expect(channelClickNarrow(7, 1, topics)).toEqual(topicNarrow(7, 'lunch'));
  });
  it('goes to the top unread topic (4), else the top topic', () => {
    expect(channelClickNarrow(7, 4, topics)).toEqual(topicNarrow(7, 'deploy'));
    expect(channelClickNarrow(7, 4, [topic('quiet', 0)])).toEqual(topicNarrow(7, 'quiet'));
  });
  it('goes to the channel feed for 2 and 3, and for a channel without topics', () => {
    expect(channelClickNarrow(7, 2, topics)).toEqual(channelNarrow(7));
    expect(channelClickNarrow(7, 3, topics)).toEqual(channelNarrow(7));
    expect(channelClickNarrow(7, 1, [])).toEqual(channelNarrow(7));
  });
});

describe('animated previews', () => {
  it('shows the still thumbnail and keeps the animated one for hover', () => {
    const html =
      '<div class="message_inline_image"><a href="/user_uploads/1/a/cat.gif"><img data-animated="true" src="/media/a/user_uploads/thumbnail/1/a/cat.gif/840x560-anim.webp"></a></div>' +
      '<img src="/media/a/user_uploads/thumbnail/1/b/dog.png/840x560.webp">';
    expect(stillAnimatedImages(html)).toBe(
      '<div class="message_inline_image"><a href="/user_uploads/1/a/cat.gif"><img data-animated="true" src="/media/a/user_uploads/thumbnail/1/a/cat.gif/840x560.webp" data-animated-src="/media/a/user_uploads/thumbnail/1/a/cat.gif/840x560-anim.webp"></a></div>' +
        '<img src="/media/a/user_uploads/thumbnail/1/b/dog.png/840x560.webp">',
    );
  });
});

describe('home view', () => {
  it('maps each web_home_view to its route, inbox by default', () => {
    expect(homeRoute('recent_topics')).toEqual({ kind: 'recent' });
    // The spec's spelling, which the local server returns when it was sent it.
    expect(homeRoute('recent')).toEqual({ kind: 'recent' });
    expect(homeRoute('all_messages')).toBe(ALL_MESSAGES_ROUTE);
    expect(homeRoute('inbox')).toEqual({ kind: 'inbox' });
    expect(homeRoute(undefined)).toEqual({ kind: 'inbox' });
  });
});

describe('profile field values before sending', () => {
  const field = (type: number, field_data = ''): CustomProfileField => ({
    id: 1,
    name: 'Field',
    hint: '',
    type,
    field_data,
    order: 0,
  });
  it('accepts an empty value (clears the field) and valid values', () => {
    expect(profileValueProblem(field(1), '  ')).toBeNull();
    expect(profileValueProblem(field(4), '2024-02-29')).toBeNull();
    expect(profileValueProblem(field(5), 'https://example.com/me')).toBeNull();
    expect(profileValueProblem(field(3, '{"a":{"text":"A","order":"1"}}'), 'a')).toBeNull();
  });
  it('refuses what the server would refuse', () => {
    expect(profileValueProblem(field(1), 'x'.repeat(51))).toMatch(/at most 50/);
    expect(profileValueProblem(field(4), 'yesterday')).toMatch(/date/);
    expect(profileValueProblem(field(5), 'ftp://example.com')).toMatch(/link/);
    expect(profileValueProblem(field(3, '{"a":{"text":"A"}}'), 'b')).toMatch(/options/);
    expect(profileValueProblem(field(7), 'bad name!')).toMatch(/account name/);
  });
});
