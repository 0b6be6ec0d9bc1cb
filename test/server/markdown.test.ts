// The message renderer: chat syntax (mentions, wildcards, groups, channel links, emoji, /me),
// markdown basics, what the renderer reports for flags and narrows, and hostile input.
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../server/markdown/render';
import type { MentionLookup } from '../../server/markdown/mentions';
import { linkifierMatches, type Linkifier } from '../../server/markdown/linkifiers';

const people = [
  { id: 4, full_name: 'Dev Member' },
  { id: 5, full_name: 'Emma Member' },
  { id: 9, full_name: 'Sam Same' },
  { id: 10, full_name: 'Sam Same' },
];

const lookup: MentionLookup = {
  userByName: (name) => people.filter((p) => p.full_name.toLowerCase() === name.toLowerCase()),
  userById: (id) => people.find((p) => p.id === id),
  groupByName: (name) => (name === 'designers' ? { id: 31, name: 'designers' } : undefined),
  channelByName: (name) => (name === 'general' ? { id: 1, name: 'general' } : undefined),
};

describe('chat syntax', () => {
  it('renders user mentions and reports them', () => {
    const out = renderMessage('hi @**Emma Member** and @**Sam Same|10**', lookup);
    expect(out.html).toContain('<span class="user-mention" data-user-id="5">@Emma Member</span>');
    expect(out.html).toContain('data-user-id="10">@Sam Same</span>');
    expect(out.mentionedUserIds.sort()).toEqual([10, 5].sort());
  });

  it('does not mention ambiguous or unknown names', () => {
    const out = renderMessage('@**Sam Same** @**Nobody Here**', lookup);
    // Unresolved names fall back to plain markdown (bold), as the public server renders them.
    expect(out.html).toBe('<p>@<strong>Sam Same</strong> @<strong>Nobody Here</strong></p>');
    expect(out.mentionedUserIds).toEqual([]);
  });

  it('renders silent mentions without setting the mention', () => {
    const out = renderMessage('@_**Dev Member** did it', lookup);
    expect(out.html).toContain(
      '<span class="user-mention silent" data-user-id="4">Dev Member</span>',
    );
    expect(out.mentionedUserIds).toEqual([]);
  });

  it('renders group mentions and wildcards', () => {
    const out = renderMessage('@*designers* @**all** and @**topic**', lookup);
    expect(out.html).toContain(
      '<span class="user-group-mention" data-user-group-id="31">@designers</span>',
    );
    expect(out.html).toContain('data-user-id="*">@all</span>');
    expect(out.html).toContain('<span class="topic-mention">@topic</span>');
    expect(out.mentionedGroupIds).toEqual([31]);
    expect(out.streamWildcard).toBe(true);
    expect(out.topicWildcard).toBe(true);
  });

  it('does not treat a silent wildcard as a mention', () => {
    const out = renderMessage('@_**everyone**', lookup);
    expect(out.streamWildcard).toBe(false);
  });

  it('renders channel and topic links', () => {
    const out = renderMessage('see #**general** and #**general>release 1.2**', lookup);
    expect(out.html).toContain(
      '<a class="stream" data-stream-id="1" href="/#narrow/channel/1-general">#general</a>',
    );
    expect(out.html).toContain('class="stream-topic" data-stream-id="1"');
    expect(out.html).toContain('#general &gt; release 1.2</a>');
    // Channel links are links, as on the public server (has:link).
    expect(out.hasLink).toBe(true);
  });

  it('links topics through their latest message, and single messages with @id', () => {
    const withTopics: MentionLookup = {
      ...lookup,
      latestMessageInTopic: (channelId, topic) =>
        channelId === 1 && topic === 'release 1.2' ? 41 : undefined,
    };
    expect(renderMessage('#**general>release 1.2**', withTopics).html).toBe(
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-general/topic/release.201.2E2/with/41">#general &gt; release 1.2</a></p>',
    );
    expect(renderMessage('#**general>new topic**', withTopics).html).toContain(
      'href="/#narrow/channel/1-general/topic/new.20topic">',
    );
    expect(renderMessage('#**general>release 1.2@17**', withTopics).html).toBe(
      '<p><a class="message-link" href="/#narrow/channel/1-general/topic/release.201.2E2/near/17">#general &gt; release 1.2 @ 💬</a></p>',
    );
  });

  it('ignores mentions inside code', () => {
    const out = renderMessage('`@**Emma Member**`\n\n```\n@**Dev Member**\n```', lookup);
    expect(out.mentionedUserIds).toEqual([]);
    expect(out.html).toContain('<code>@**Emma Member**</code>');
  });

  it('renders emoji names and /me', () => {
    const out = renderMessage('/me waves :wave:', lookup);
    expect(out.isMeMessage).toBe(true);
    expect(out.html).toContain('class="emoji emoji-1f44b"');
    expect(renderMessage('/meh', lookup).isMeMessage).toBe(false);
  });
});

describe('markdown', () => {
  it('renders emphasis, lists, quotes and fenced code with its language', () => {
    const out = renderMessage('**bold** *it*\n\n- a\n- b\n\n> q\n\n```mylang\nx = 1\n```', lookup);
    expect(out.html).toContain('<strong>bold</strong> <em>it</em>');
    expect(out.html).toContain('<ul>\n<li>a</li>');
    expect(out.html).toContain('<blockquote>');
    expect(out.html).toContain(
      '<div class="codehilite" data-code-language="mylang"><pre><span></span><code>x = 1\n</code></pre></div>',
    );
  });

  it('links URLs and reports links, images and uploads', () => {
    const plain = renderMessage('https://example.com/a', lookup);
    // No target or rel in stored HTML: the client decides how links open.
    expect(plain.html).toBe('<p><a href="https://example.com/a">https://example.com/a</a></p>');
    expect(plain.hasLink).toBe(true);
    expect(plain.hasAttachment).toBe(false);
    const upload = renderMessage('[shot.png](/user_uploads/1/ab/cd/shot.png)', lookup);
    expect(upload.hasAttachment).toBe(true);
    expect(upload.hasImage).toBe(true);
    expect(upload.uploadPathIds).toEqual(['1/ab/cd/shot.png']);
    expect(renderMessage('just text', lookup).hasLink).toBe(false);
  });

  it('links bare addresses among many words as it links them alone', () => {
    // The pattern runs only on words holding '.', ':' or '@' (bench/hostile-load): each of these
    // must still be linked, or left alone, exactly as in a message of its own.
    const pieces = [
      'example.com',
      '(see example.org/a_(b))',
      '"https://x.org/q?a=1".',
      'me@example.com,',
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      'file.py',
      'ratio 3:2',
      'end.',
      'a example.net',
      'https://тест.рф/путь',
    ];
    const anchors = (html: string) => html.match(/<a href="[^"]*">[^<]*<\/a>/g) ?? [];
    const alone = pieces.flatMap((piece) => anchors(renderMessage(piece, lookup).html));
    expect(alone.length).toBeGreaterThanOrEqual(6);
    const words = pieces.flatMap((piece, i) => [
      piece,
      ...Array.from({ length: 50 }, () => (i % 2 ? 'word' : '**bold**')),
    ]);
    expect(anchors(renderMessage(words.join(' '), lookup).html)).toEqual(alone);
    expect(anchors(renderMessage(words.join('\n'), lookup).html)).toEqual(alone);
  });

  it('puts an uploaded image preview after its paragraph, never inside it', () => {
    const src = '/user_uploads/1/ab/cd/shot.png';
    const out = renderMessage(`look [shot](${src}) here\n\nafter`, lookup);
    expect(out.html).toBe(
      `<p>look <a href="${src}">shot</a> here</p>\n` +
        `<div class="message_inline_image"><a href="${src}" title="shot"><img src="${src}"></a></div>` +
        '<p>after</p>',
    );
    expect(out.hasImage).toBe(true);
    expect(out.uploadPathIds).toEqual(['1/ab/cd/shot.png']);
    // A link in a table cell previews at the end of the message, as on the public server.
    const table = renderMessage(`| a |\n|---|\n| [t](${src}) |`, lookup).html;
    expect(table).toMatch(/<\/table>\n<div class="message_inline_image">/);
  });

  it('previews uploads as thumbnails when the lookup knows them', () => {
    const src = '/user_uploads/1/ab/cd/shot.png';
    const thumbnails: MentionLookup = {
      ...lookup,
      uploadImage: (pathId) =>
        pathId === '1/ab/cd/shot.png'
          ? {
              width: 1600,
              height: 900,
              contentType: 'image/png',
              thumbnailUrl: '/user_uploads/thumbnail/1/ab/cd/shot.png/840x560.webp',
            }
          : undefined,
    };
    expect(renderMessage(`[shot.png](${src})`, thumbnails).html).toBe(
      `<p><a href="${src}">shot.png</a></p>\n<div class="message_inline_image"><a href="${src}" title="shot.png">` +
        '<img data-original-dimensions="1600x900" src="/user_uploads/thumbnail/1/ab/cd/shot.png/840x560.webp" data-original-content-type="image/png">' +
        '</a></div>',
    );
    // A file the lookup does not know as an image gets no preview.
    const other = '/user_uploads/1/ab/cd/notes.png';
    expect(renderMessage(`[notes.png](${other})`, thumbnails).html).toBe(
      `<p><a href="${other}">notes.png</a></p>`,
    );
  });

  it('previews external images through the camo proxy when one is set, else from the source', () => {
    const url = 'https://example.com/x.png';
    expect(renderMessage(url, lookup).html).toBe(
      `<div class="message_inline_image"><a href="${url}"><img src="${url}"></a></div>`,
    );
    const camo: MentionLookup = {
      ...lookup,
      imageProxy: () => ({ url: 'https://camo.example/', key: 'secret' }),
    };
    // Links into the realm are relative and never proxied.
    const own: MentionLookup = { ...camo, realmUrl: () => 'https://chat.example' };
    expect(renderMessage('https://chat.example/user_uploads/1/ab/x.png', own).html).toContain(
      '<img src="user_uploads/1/ab/x.png">',
    );
    const proxied = renderMessage(url, camo).html;
    const hex = Buffer.from(url).toString('hex');
    expect(proxied).toMatch(new RegExp(`<img src="https://camo\\.example/[0-9a-f]{40}/${hex}">`));
  });
});

describe('character references', () => {
  it('writes them out as typed, as the public server does', () => {
    expect(renderMessage('a&nbsp;b &copy; &#169; &amp; & <b>', lookup).html).toBe(
      '<p>a&nbsp;b &copy; &#169; &amp; &amp; &lt;b&gt;</p>',
    );
  });
});

describe('emoticons', () => {
  const translating: MentionLookup = { ...lookup, translateEmoticons: () => true };

  it('converts every emoticon of the table when the sender translates them', () => {
    const html = renderMessage('(: ;) :D :P\n<3 **:/**', translating).html;
    for (const name of ['smile', 'wink', 'grinning', 'stuck_out_tongue', 'heart', 'confused']) {
      expect(html, name).toContain(`:${name}:</span>`);
    }
    expect(renderMessage('(: ;)', lookup).html).toBe('<p>(: ;)</p>');
  });

  it('leaves emoticons touching words, code and links alone', () => {
    expect(renderMessage('a;) `:)` [:)](https://x.example)', translating).html).toBe(
      '<p>a;) <code>:)</code> <a href="https://x.example">:)</a></p>',
    );
  });
});

describe('global times', () => {
  it('writes times as UTC datetimes, keeping what was typed as the text', () => {
    const cases: Array<[string, string]> = [
      ['2024-03-05T10:00:00+01:00', '2024-03-05T09:00:00Z'],
      ['2024-03-05T10:00:00Z', '2024-03-05T10:00:00Z'],
      ['2024-03-05', '2024-03-05T00:00:00Z'],
      ['1709632800', '2024-03-05T10:00:00Z'],
      ['March 5, 2024 10:00 pm PST', '2024-03-06T06:00:00Z'],
    ];
    for (const [input, datetime] of cases) {
      expect(renderMessage(`at <time:${input}>`, lookup).html, input).toBe(
        `<p>at <time datetime="${datetime}">${input}</time></p>`,
      );
    }
    expect(renderMessage('<time:2024-02-30>', lookup).html).toBe(
      '<p><span class="timestamp-error">Invalid time format: 2024-02-30</span></p>',
    );
  });

  it('starts no list with "1)", as the public server', () => {
    expect(renderMessage('1) first', lookup).html).toBe('<p>1) first</p>');
  });
});

describe('hostile input', () => {
  it('escapes raw HTML, script tags and event handlers', () => {
    const out = renderMessage(
      '<script>alert(1)</script> <img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a>',
      lookup,
    );
    expect(out.html).not.toMatch(/<script|<img|<a /);
    expect(out.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // Quotes in text stay as typed, as the public server writes them; no tag can open.
    expect(out.html).toContain('onerror="alert(2)"');
  });

  it('never produces javascript:, data: or vbscript: links', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
    ]) {
      const out = renderMessage(`[click](${url}) ![img](${url})`, lookup);
      expect(out.html, url).not.toContain('href="' + url);
      expect(out.html, url).not.toMatch(/href="(javascript|data|vbscript):/i);
      expect(out.hasLink, url).toBe(false);
    }
    // A protocol-relative URL becomes an http one, as the public server does, never "//host".
    expect(renderMessage('[click](//evil.example/x)', lookup).html).toBe(
      '<p><a href="http:////evil.example/x">click</a></p>',
    );
  });

  it('escapes names it inserts', () => {
    const evil: MentionLookup = {
      ...lookup,
      userByName: () => [{ id: 1, full_name: '<b onclick=x>' }],
      channelByName: () => ({ id: 2, name: '"><script>' }),
    };
    const out = renderMessage('@**anyone** #**chan**', evil);
    expect(out.html).toContain('@&lt;b onclick=x&gt;');
    expect(out.html).not.toContain('<script>');
    expect(out.html).toContain('#"&gt;&lt;script&gt;</a>');
  });
});

describe('linkifiers', () => {
  const issue: Linkifier = {
    regex: /#(?<id>[0-9]+)/u,
    url: (g) => `https://tracker.example/issues/${encodeURIComponent(g.id)}`,
  };
  const evil: Linkifier = { regex: /EVIL-(?<x>[0-9]+)/u, url: (g) => `javascript:alert(${g.x})` };
  const withLinkifiers: MentionLookup = { ...lookup, linkifiers: () => [issue, evil] };

  it('links matches in text, not in code or existing links, and not inside words', () => {
    const out = renderMessage(
      'fixes #42, see `#43` and [#44](https://x.example) but not a#45 or #46x',
      withLinkifiers,
    );
    expect(out.html).toContain('<a href="https://tracker.example/issues/42">#42</a>');
    expect(out.html).toContain('<code>#43</code>');
    expect(out.html).not.toContain('issues/44');
    expect(out.html).not.toContain('issues/45');
    expect(out.html).not.toContain('issues/46');
    expect(out.hasLink).toBe(true);
  });

  it('drops matches whose URL is not http(s) or mailto', () => {
    const out = renderMessage('EVIL-1', withLinkifiers);
    expect(out.html).toBe('<p>EVIL-1</p>');
    expect(linkifierMatches('EVIL-1 and #7', [issue, evil])).toEqual([
      { index: 11, text: '#7', url: 'https://tracker.example/issues/7' },
    ]);
  });
});
