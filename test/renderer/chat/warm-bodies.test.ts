// The idle preparation of message HTML (features/messages/warm-up.ts): the newest rows of each list
// are sanitized ahead, once each, so opening a conversation finds them in the sanitizer's cache.
import { afterEach, describe, expect, it, vi } from 'vitest';

const sanitized: string[] = [];
vi.mock('../../../renderer/lib/sanitize', async (original) => {
  const real = await original<typeof import('../../../renderer/lib/sanitize')>();
  return {
    ...real,
    sanitizeMessageHtml: (html: string, accountId: string) => {
      sanitized.push(html);
      return real.sanitizeMessageHtml(html, accountId);
    },
  };
});

const { warmMessageBodiesWhenIdle } = await import('../../../renderer/features/messages/warm-up');
const { channelMessage, GENERAL, messageEvent, setupStore } = await import('../store/fixtures');
const { channelNarrow, narrowKey } = await import('../../../shared/narrow');

afterEach(() => {
  sanitized.length = 0;
});

describe('warming message bodies when idle', () => {
  it('sanitizes the newest 40 messages of a list once, then only what arrives', async () => {
    const { store, apply } = setupStore();
    const warm = warmMessageBodiesWhenIdle(store);
    const key = narrowKey(channelNarrow(GENERAL));
    const page = Array.from({ length: 100 }, (_, i) =>
      channelMessage(1000 + i, GENERAL, 'topic', { content: `body <b>${i}</b>` }),
    );
    store.getState().mergeFetchedMessages('a', key, page, { foundOldest: true, foundNewest: true });
    await warm.drained();
    expect(sanitized).toHaveLength(40);
    expect(sanitized).toContain('<p>body <b>99</b></p>');
    expect(sanitized).toContain('<p>body <b>60</b></p>');
    expect(sanitized).not.toContain('<p>body <b>59</b></p>');

    sanitized.length = 0;
    apply(messageEvent(channelMessage(2000, GENERAL, 'topic', { content: 'new <i>one</i>' })));
    await warm.drained();
    expect(sanitized).toEqual(['<p>new <i>one</i></p>']);
    warm.stop();
  });
});
