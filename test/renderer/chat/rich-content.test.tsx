// Message content as the public server renders it, shown by the message row: the HTML is the public
// server's own (its Markdown test cases and a captured feature-level-372 register and message), the
// store is filled from that register as the app fills it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { MentionStyles } from '../../../renderer/features/messages/MentionStyles';
import { Reactions } from '../../../renderer/features/messages/Reactions';
import { EmojiPicker } from '../../../renderer/features/emoji/EmojiPicker';
import { localizeTimes } from '../../../renderer/features/messages/rich-content';
import { applyDisplaySettings } from '../../../renderer/lib/theme';
import type { MessageWithFlags, RegisterResponse } from '../../../shared/api/types';
import { narrowKey, topicNarrow } from '../../../shared/narrow';
import { Providers, installFakeApi, resetUi } from './harness';
import { serverFixture, serverHtml } from './server-fixtures';

const register = serverFixture<RegisterResponse>('zulip-server/register-fl372.json');
const events = serverFixture<{
  events: { type: string; message?: MessageWithFlags; flags?: string[] }[];
}>('zulip-server/events-fl372.json').events;

/** The captured message with emoji, bold, math and a mention of the reader (King Hamlet, 51). */
const captured = events.find((e) => e.type === 'message' && e.message?.id === 122)!;
const SELF = register.user_id!;

let store: ChatStore;
let nextId = 1000;

function messageWith(content: string, flags: string[] = ['read']): MessageWithFlags {
  return {
    ...captured.message!,
    id: nextId++,
    content,
    flags,
  } as MessageWithFlags;
}

function show(message: MessageWithFlags, twentyFourHour = false, textEmoji = false) {
  if (message.type !== 'stream') throw new Error('a channel message is expected');
  const key = narrowKey(topicNarrow(message.stream_id, message.subject));
  act(() =>
    store.getState().mergeFetchedMessages('z', key, [message], {
      foundOldest: true,
      foundNewest: true,
    }),
  );
  const { container } = render(
    <Providers store={store}>
      <MentionStyles />
      <MessageRow
        accountId="z"
        id={message.id}
        prevId={undefined}
        selected={false}
        twentyFourHour={twentyFourHour}
        textEmoji={textEmoji}
      />
    </Providers>,
  );
  return {
    row: container.querySelector<HTMLElement>('[data-testid=message]')!,
    content: container.querySelector<HTMLElement>('.content')!,
    container,
  };
}

const GREEN_TICK = {
  emoji_name: 'green_tick',
  emoji_code: '3',
  reaction_type: 'realm_emoji',
  user_id: SELF,
} as const;

/** The reaction chips of a message with `reactions`. */
function showReactions(reactions: readonly object[]): HTMLElement[] {
  const message = messageWith('<p>hi</p>');
  message.reactions = reactions as MessageWithFlags['reactions'];
  const { container } = render(
    <Providers store={store}>
      <Reactions accountId="z" message={message} />
    </Providers>,
  );
  return [...container.querySelectorAll<HTMLElement>('.reaction')];
}

beforeEach(() => {
  installFakeApi();
  store = createChatStore();
  store.getState().replaceSnapshot('z', register);
  store.getState().setActiveAccount('z');
  resetUi('z');
});
afterEach(cleanup);

describe('emoji in messages', () => {
  it('are sprite cells whose name stays as hidden text, following the emojiset setting', () => {
    const { content } = show({ ...captured.message!, flags: captured.flags } as MessageWithFlags);
    const smile = content.querySelector('span.emoji')!;
    expect(smile.className).toBe('emoji emoji-1f642');
    expect(smile.getAttribute('role')).toBe('img');
    expect(smile.textContent).toBe(':smile:');
    // The sheet the stylesheet draws from is chosen on <html> from the user's setting.
    const root = document.documentElement;
    applyDisplaySettings(root, { emojiset: 'twitter' }, false);
    expect(root.dataset.emojiset).toBe('twitter');
    applyDisplaySettings(root, {}, false);
    expect(root.dataset.emojiset).toBe('google');
  });

  it('show reactions with the same pictures, and custom emoji with the realm image', () => {
    const [heart, tick] = showReactions([
      { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: SELF },
      GREEN_TICK,
    ]);
    expect(heart.querySelector('span.emoji')!.className).toBe('emoji emoji-2764');
    const img = tick.querySelector('img.emoji')!;
    // The realm's image, through main's media route (never the server directly).
    expect(img.getAttribute('src')).toBe('/media/z/user_avatars/8/emoji/images/e5218485.png');
    expect(img.getAttribute('alt')).toBe(':green_tick:');
  });
});

describe('the text emojiset', () => {
  it('shows custom emoji in messages and reactions as their :name:, as the public app does', () => {
    const html =
      '<p>done <img alt=":green_tick:" class="emoji" src="/user_avatars/8/emoji/images/e5218485.png" title="green tick"></p>';
    const pictures = show(messageWith(html)).content;
    expect(pictures.querySelector('img.emoji')!.getAttribute('src')).toBe(
      '/media/z/user_avatars/8/emoji/images/e5218485.png',
    );
    cleanup();
    const text = show(messageWith(html), false, true).content;
    expect(text.querySelector('img')).toBeNull();
    expect(text.textContent).toBe('done :green_tick:');
    cleanup();
    act(() =>
      store
        .getState()
        .applyEventBatch('z', [
          { id: 2, type: 'user_settings', op: 'update', property: 'emojiset', value: 'text' },
        ]),
    );
    const [tick] = showReactions([GREEN_TICK]);
    expect(tick.querySelector('img')).toBeNull();
    expect(tick.textContent).toBe(':green_tick: 1');
  });
});

describe('the emoji picker', () => {
  it("offers the public server's categories in its order, and the realm's custom emoji last", async () => {
    const onPick = vi.fn();
    render(
      <Providers store={store}>
        <EmojiPicker
          accountId="z"
          open
          onOpenChange={() => undefined}
          trigger={<button type="button">Add reaction</button>}
          onPick={onPick}
        />
      </Providers>,
    );
    const picker = screen.getByRole('dialog', { name: 'Emoji picker' });
    const tabs = within(picker).getByRole('toolbar', { name: 'Emoji categories' });
    await within(tabs).findByRole('button', { name: 'Popular' });
    expect(
      within(tabs)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'Popular',
      'Smileys & Emotion',
      'People & Body',
      'Animals & Nature',
      'Food & Drink',
      'Activities',
      'Travel & Places',
      'Objects',
      'Symbols',
      'Flags',
      'Custom',
    ]);
    const custom = within(picker).getByRole('region', { name: 'Custom' });
    const tick = within(custom).getByRole('button', { name: 'green_tick' });
    expect(tick.querySelector('img.emoji')!.getAttribute('src')).toBe(
      '/media/z/user_avatars/8/emoji/images/e5218485.png',
    );
    fireEvent.click(tick);
    expect(onPick).toHaveBeenLastCalledWith(
      expect.objectContaining({ name: 'green_tick', code: '3', type: 'realm_emoji' }),
    );
    // A custom emoji added to the realm (a realm_emoji event) is offered at once.
    act(() =>
      store.getState().applyEventBatch('z', [
        {
          id: 1,
          type: 'realm_emoji',
          op: 'update',
          realm_emoji: {
            ...(register as unknown as { realm_emoji: Record<string, never> }).realm_emoji,
            '4': {
              id: '4',
              name: 'party_parrot',
              source_url: '/user_avatars/8/emoji/images/parrot.gif',
              deactivated: false,
            },
          },
        },
      ]),
    );
    expect(await within(custom).findByRole('button', { name: 'party_parrot' })).toBeTruthy();
  });
});

describe('math', () => {
  it("keeps KaTeX's layout (classes renamed to the bundled KaTeX's, sizes) and the MathML copy", () => {
    const { content } = show(messageWith(serverHtml('tex_fenced_math')));
    const html = content.querySelector('.katex-html')!;
    expect(html.getAttribute('aria-hidden')).toBe('true');
    expect(content.querySelector('.katex-mathml math annotation')!.textContent).toBe(
      'a^2 = b^2 + c^2',
    );
    // The public server's KaTeX writes `base`, `strut`, `sizing`; the bundled stylesheet styles
    // `katex-base`, `katex-strut`, `katex-sizing`.
    expect(html.querySelectorAll('.katex-base')).toHaveLength(3);
    expect(html.querySelector('.base, .strut, .sizing')).toBeNull();
    const strut = html.querySelector<HTMLElement>('.katex-strut')!;
    expect(strut.getAttribute('style')).toBe('height:0.8641em;');
    expect(html.querySelector('.katex-sizing')!.className).toBe(
      'katex-sizing reset-size6 size3 mtight',
    );
    expect(html.querySelector('.vlist [style]')!.getAttribute('style')).toBe(
      'top:-3.113em;margin-right:0.05em;',
    );
  });
});

describe('spoilers', () => {
  it('are closed until the header is clicked, and close again', () => {
    const { content } = show(messageWith(serverHtml('spoilers_fenced_spoiler')));
    const block = content.querySelector('.spoiler-block')!;
    const header = content.querySelector<HTMLElement>('.spoiler-header')!;
    const hidden = content.querySelector('.spoiler-content')!;
    expect(header.getAttribute('role')).toBe('button');
    expect(header.tabIndex).toBe(0);
    expect(header.getAttribute('aria-expanded')).toBe('false');
    expect(hidden.getAttribute('aria-hidden')).toBe('true');
    expect(block.classList.contains('spoiler-open')).toBe(false);
    fireEvent.click(header.querySelector('p')!);
    expect(block.classList.contains('spoiler-open')).toBe(true);
    expect(header.getAttribute('aria-expanded')).toBe('true');
    expect(hidden.getAttribute('aria-hidden')).toBe('false');
    fireEvent.click(header);
    expect(block.classList.contains('spoiler-open')).toBe(false);
    expect(header.getAttribute('aria-expanded')).toBe('false');
  });

  it('open and close with Enter and Space on the focused header, which the list never sees', () => {
    const { content } = show(messageWith(serverHtml('spoilers_fenced_spoiler')));
    const header = content.querySelector<HTMLElement>('.spoiler-header')!;
    const listKeys = vi.fn();
    window.addEventListener('keydown', listKeys);
    header.focus();
    fireEvent.keyDown(header, { key: 'Enter' });
    expect(header.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(header, { key: ' ' });
    expect(header.getAttribute('aria-expanded')).toBe('false');
    expect(listKeys).not.toHaveBeenCalled();
    window.removeEventListener('keydown', listKeys);
  });

  it('read "Spoiler" when the header is empty, and a link in the header opens the link', () => {
    const { content } = show(messageWith(serverHtml('spoilers_empty_header')));
    expect(content.querySelector('.spoiler-header')!.textContent!.trim()).toBe('Spoiler');
    cleanup();
    const withLink = show(messageWith(serverHtml('spoilers_with_header_markdown'))).content;
    fireEvent.click(withLink.querySelector('.spoiler-header a')!);
    expect(withLink.querySelector('.spoiler-header')!.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('code blocks', () => {
  it("keep the highlighter's token classes and get the language and a copy button", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { content } = show(messageWith(serverHtml('codeblock_hilite_python')));
    const block = content.querySelector('.codehilite')!;
    expect(block.querySelector('.k')!.textContent).toBe('def');
    expect(block.querySelector('.nf')!.textContent).toBe('speak');
    expect(block.querySelector('.mi')!.textContent).toBe('1');
    expect(block.querySelector('.code-language')!.textContent).toBe('Python');
    const copy = block.querySelector<HTMLButtonElement>('button.copy-code')!;
    expect(copy.getAttribute('aria-label')).toBe('Copy code');
    await act(async () => fireEvent.click(copy));
    expect(writeText).toHaveBeenCalledWith('def speak(self):\n    x = 1\n');
    expect(copy.classList.contains('copied')).toBe(true);
  });

  it('get a copy button without a language label when the block has none', () => {
    const { content } = show(messageWith(serverHtml('codeblock_multiline')));
    expect(content.querySelector('.code-language')).toBeNull();
    expect(content.querySelectorAll('button.copy-code')).toHaveLength(1);
  });
});

describe('global times', () => {
  it("show in the reader's zone and format, with the full date and the original on hover", () => {
    const html = serverHtml('timestamp_backend_markdown_only');
    const when = new Date('2017-06-05T22:30:00Z');
    const twelve = show(messageWith(html)).content.querySelector('time')!;
    // The reader's zone (this machine's), in the public app's "Mon, Jun 5, 2017, 10:30 PM" form.
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][when.getDay()];
    const month = [
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ][when.getMonth()];
    const hour12 = when.getHours() % 12 || 12;
    const ampm = when.getHours() < 12 ? 'AM' : 'PM';
    const expected12 = `${weekday}, ${month} ${when.getDate()}, 2017, ${hour12}:${String(when.getMinutes()).padStart(2, '0')} ${ampm}`;
    // Some Intl versions put a narrow no-break space before AM/PM.
    expect(twelve.textContent!.replace(/\u202f/g, ' ')).toBe(expected12);
    expect(twelve.textContent).not.toContain('10:30PM'); // the sender's text is replaced
    expect(twelve.getAttribute('datetime')).toBe('2017-06-05T22:30:00Z');
    expect(twelve.title).toContain('2017');
    expect(twelve.title).toContain('Original text: Jun 5th 2017, 10:30PM');
    cleanup();
    const twentyFour = show(messageWith(html), true).content.querySelector('time')!;
    expect(twentyFour.textContent).not.toMatch(/AM|PM/);
    expect(twentyFour.textContent).toMatch(/\d{2}:30/);
  });

  it('leave errors and hostile text as text', () => {
    const error = show(messageWith(serverHtml('timestamp_invalid_input'))).content;
    expect(error.querySelector('.timestamp-error')!.textContent).toBe(
      'Invalid time format: <alert(1)',
    );
    const quoted = localizeTimes(
      '<time datetime="2017-06-05T22:30:00Z">a "b" &lt;c&gt;</time>',
      true,
    );
    const div = document.createElement('div');
    div.innerHTML = quoted;
    expect(div.querySelector('time')!.title).toContain('Original text: a "b" <c>');
    expect(div.querySelectorAll('*')).toHaveLength(1);
  });
});

describe('mentions', () => {
  it('of the reader, of a group the reader is in and wildcards stand out; silent ones do not', () => {
    const { row, container } = show({
      ...captured.message!,
      flags: captured.flags,
    } as MessageWithFlags);
    // The row of a message that mentions the reader is marked.
    expect(row.classList.contains('mentioned')).toBe(true);
    const rules = container.querySelector('style[data-testid=mention-styles]')!.textContent!;
    const content = container.querySelector('.content')!;
    const mention = content.querySelector('.user-mention')!;
    expect(mention.getAttribute('data-user-id')).toBe(String(SELF));
    // The rules name the reader and each of the reader's groups, never silent mentions.
    const selectors = rules
      .slice(0, rules.indexOf('{'))
      .split(',')
      .map((s) => s.trim());
    expect(selectors).toContain(`.content .user-mention[data-user-id="${SELF}"]:not(.silent)`);
    expect(selectors).toContain(
      '.content .user-group-mention[data-user-group-id="80"]:not(.silent)',
    );
    const groupOfOthers = register.realm_user_groups.find(
      (g) => !g.members.includes(SELF) && !g.direct_subgroup_ids.length,
    )!;
    expect(selectors).not.toContain(
      `.content .user-group-mention[data-user-group-id="${groupOfOthers.id}"]:not(.silent)`,
    );
    expect(mention.matches(selectors.join(','))).toBe(true);
    cleanup();
    const others = show(
      messageWith(
        `<p><span class="user-mention silent" data-user-id="${SELF}">King Hamlet</span> ` +
          '<span class="user-group-mention" data-user-group-id="80">@hamletcharacters</span> ' +
          '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> ' +
          '<span class="topic-mention">@topic</span></p>',
      ),
    );
    const css = others.container.querySelector('style[data-testid=mention-styles]')!.textContent!;
    const mine = css.slice(0, css.indexOf('{'));
    const [silent, group, all, topic] = [...others.content.querySelectorAll('span')];
    expect(silent.matches(mine)).toBe(false);
    expect(group.matches(mine)).toBe(true);
    // Wildcards keep the server's classes, which the stylesheet highlights for everyone.
    expect(all.className).toBe('user-mention channel-wildcard-mention');
    expect(all.getAttribute('data-user-id')).toBe('*');
    expect(topic.className).toBe('topic-mention');
    expect(others.row.classList.contains('mentioned')).toBe(false);
  });
});

describe('the rest of the Markdown', () => {
  it('keeps tables, headings, strikethrough, quotes, channel links and TeX errors', () => {
    const html = [
      'tables',
      'hashheading_enabled',
      'strikthrough_basic',
      'fenced_complexly_nested_quote',
      'tex_inline_error_no_markdown_inside',
    ]
      .map(serverHtml)
      .join('\n');
    const { content } = show(messageWith(html));
    expect(content.querySelectorAll('table th')).toHaveLength(2);
    expect(content.querySelector('h1')!.textContent).toBe('Hello world');
    expect(content.querySelector('del')!.textContent).toBe('software');
    expect(content.querySelectorAll('blockquote blockquote')).toHaveLength(1);
    expect(content.querySelector('.tex-error')!.textContent).toBe('$$\\error{**a**}$$');
  });
});
