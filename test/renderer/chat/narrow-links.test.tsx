// Channel, topic and message links inside messages (`#narrow/…`) open in the app: the web app's link
// format is parsed into a narrow (shared/narrow/link.ts), the sanitizer keeps such links focusable
// and marked, and a click on one navigates instead of going to a browser. Links elsewhere still go
// through main's openExternal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { sanitizeMessageHtml } from '../../../renderer/lib/sanitize';
import {
  channelNarrow,
  dmNarrow,
  narrowKey,
  topicNarrow,
  ALL_MESSAGES,
} from '../../../shared/narrow';
import {
  encodeHashComponent,
  messageNearFragment,
  parseNarrowLink,
} from '../../../shared/narrow/link';
import { uiStore, ALL_MESSAGES_ROUTE } from '../../../renderer/store/ui-store';
import { channelMessage, DESIGN, GENERAL, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

const SITE = 'https://chat.example.test';

describe('parseNarrowLink', () => {
  it('reads channel, topic and message links as the server and the web app write them', () => {
    expect(parseNarrowLink('/#narrow/channel/2-design')).toEqual({ narrow: channelNarrow(2) });
    expect(parseNarrowLink('#narrow/stream/2-design/subject/release.20plan')).toEqual({
      narrow: topicNarrow(2, 'release plan'),
    });
    expect(
      parseNarrowLink(`${SITE}/#narrow/channel/1-general/topic/a.2Eb.2Fc.28d.29/near/345`),
    ).toEqual({ narrow: topicNarrow(1, 'a.b/c(d)'), anchor: 345 });
    expect(parseNarrowLink('#narrow/dm/7,5-group')).toEqual({ narrow: dmNarrow([5, 7]) });
    expect(parseNarrowLink('#narrow/is/starred')).toEqual({
      narrow: [{ operator: 'is', operand: 'starred' }],
    });
    expect(parseNarrowLink('#narrow/near/12')).toEqual({ narrow: [], anchor: 12 });
  });

  it('is null for links that are not narrow links or name nothing', () => {
    expect(parseNarrowLink('https://example.com/page')).toBeNull();
    expect(parseNarrowLink('#narrow/')).toBeNull();
    expect(parseNarrowLink('#narrow/near/not-a-number')).toBeNull();
  });

  it('round-trips the topic encoding and the message links it writes', () => {
    for (const topic of ['plain', 'with space', 'dots.and/slashes', '100% (sure)', 'émoji ✔'])
      expect(decodeURIComponent(encodeHashComponent(topic).replace(/\./g, '%'))).toBe(topic);
    const fragment = messageNearFragment(
      {
        type: 'stream',
        id: 99,
        stream_id: 2,
        display_recipient: 'design',
        subject: '✔ done. (really)',
      },
      1,
    );
    expect(parseNarrowLink(fragment)).toEqual({
      narrow: topicNarrow(2, '✔ done. (really)'),
      anchor: 99,
    });
  });
});

describe('sanitizer', () => {
  it('keeps narrow links focusable as in-app fragments, marked, with no new-window target', () => {
    const html = sanitizeMessageHtml(
      '<p><a class="stream-topic" href="/#narrow/channel/2-design/topic/plans">#design &gt; plans</a></p>',
      'a',
    );
    const a = new DOMParser().parseFromString(html, 'text/html').querySelector('a')!;
    expect(a.getAttribute('href')).toBe('#narrow/channel/2-design/topic/plans');
    expect(a.hasAttribute('data-narrow-link')).toBe(true);
    expect(a.hasAttribute('target')).toBe(false);
  });

  it('never trusts a data-narrow-link the server sent on another link', () => {
    const html = sanitizeMessageHtml(
      '<p><a data-narrow-link href="https://evil.example/#narrow/channel/1">x</a></p>',
      'a',
    );
    const a = new DOMParser().parseFromString(html, 'text/html').querySelector('a')!;
    expect(a.hasAttribute('data-narrow-link')).toBe(false);
    expect(a.getAttribute('target')).toBe('_blank');
  });
});

describe('clicking a link in a message', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetUi('a');
    uiStore.setState({ accounts: [{ id: 'a', site: SITE } as never], route: ALL_MESSAGES_ROUTE });
    api = installFakeApi();
  });
  afterEach(cleanup);

  function renderMessage(content: string) {
    const ctx = setupStore();
    const message = {
      ...channelMessage(10, GENERAL, 'links', { content }),
      flags: ['read' as const],
    };
    ctx.store.getState().mergeFetchedMessages('a', narrowKey(ALL_MESSAGES), [message], {
      foundOldest: true,
      foundNewest: true,
    });
    render(
      <Providers store={ctx.store}>
        <MessageRow accountId="a" id={10} prevId={undefined} selected={false} />
      </Providers>,
    );
  }

  it('opens a topic link in the app', () => {
    renderMessage(
      `<p>See <a class="stream-topic" data-stream-id="${DESIGN}" href="/#narrow/channel/${DESIGN}-design/topic/release.20plan">#design &gt; release plan</a></p>`,
    );
    fireEvent.click(screen.getByRole('link', { name: '#design > release plan' }));
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(DESIGN, 'release plan'),
    });
    expect(api.openExternal).not.toHaveBeenCalled();
  });

  it("opens a message link to the account's own server at that message", () => {
    renderMessage(
      `<p><a href="${SITE}/#narrow/channel/${GENERAL}-general/topic/links/near/7">said</a></p>`,
    );
    fireEvent.click(screen.getByRole('link', { name: 'said' }));
    expect(uiStore.getState().route).toEqual({
      kind: 'narrow',
      narrow: topicNarrow(GENERAL, 'links'),
      anchor: 7,
    });
    expect(api.openExternal).not.toHaveBeenCalled();
  });

  it("sends another server's narrow link to the browser through main", () => {
    const href = 'https://other.example.test/#narrow/channel/1-general';
    renderMessage(`<p><a href="${href}">elsewhere</a></p>`);
    fireEvent.click(screen.getByRole('link', { name: 'elsewhere' }));
    expect(uiStore.getState().route).toEqual(ALL_MESSAGES_ROUTE);
    expect(api.openExternal).toHaveBeenCalledWith({ url: href });
  });
});
