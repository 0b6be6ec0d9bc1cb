// Message HTML is untrusted: what survives sanitizing, and how links and realm images are rewritten.
import { describe, expect, it } from 'vitest';
import {
  htmlToText,
  sanitizeMessageHtml,
  warmSanitizerWhenIdle,
} from '../../../renderer/lib/sanitize';
import { markdownCases, readRepoFile, serverHtml } from './server-fixtures';

function parse(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

describe('sanitizeMessageHtml', () => {
  it('passes plain formatting through unchanged and sends anything with attributes to DOMPurify', () => {
    const plain =
      '<p>Hi <strong>there</strong> &amp; <em>you</em> &#x1F600;<br></p><ul><li>a</li></ul>';
    expect(sanitizeMessageHtml(plain, 'acct-1')).toBe(plain);
    // The same tags with an attribute, or an unlisted tag, are sanitized.
    expect(sanitizeMessageHtml('<p onclick="alert(1)">x</p>', 'acct-1')).toBe('<p>x</p>');
    expect(sanitizeMessageHtml('<p>x<script>alert(1)</script></p>', 'acct-1')).toBe('<p>x</p>');
    expect(sanitizeMessageHtml('<p>x</p><style>p{}</style>', 'acct-1')).toBe('<p>x</p>');
    expect(sanitizeMessageHtml('<p>a > b</p><img src=x onerror=alert(1)>', 'acct-1')).not.toMatch(
      /onerror/,
    );
  });

  it('leaves code blocks and plain external links as DOMPurify would, without it', () => {
    const code =
      '<p>Here:</p><div class="codehilite"><pre><span></span><code>const x = 1;\n</code></pre></div>';
    expect(sanitizeMessageHtml(code, 'acct-1')).toBe(code);
    expect(
      sanitizeMessageHtml('<p>A <a href="https://example.com/5?q=1#x">link</a>.</p>', 'acct-1'),
    ).toBe(
      '<p>A <a href="https://example.com/5?q=1#x" target="_blank" rel="noopener noreferrer">link</a>.</p>',
    );
    // Anything past those exact shapes still goes through DOMPurify.
    const hostile = [
      '<p><a href="https://example.com/" onclick="alert(1)">x</a></p>',
      '<p><a href="https://example.com/"onclick="alert(1)">x</a></p>',
      '<p><a href="javascript:alert(1)">x</a></p>',
      '<p><a href="https://example.com/&quot; onclick=&quot;alert(1)">x</a></p>',
      '<div class="x" onmouseover="alert(1)">x</div>',
      '<div class="x"onmouseover="alert(1)">x</div>',
      '<span class="x" style="color:red">x</span>',
      '<div class="codehilite"><pre><code>x</code></pre></div><img src=x onerror=alert(1)>',
    ];
    for (const html of hostile) {
      const dom = parse(sanitizeMessageHtml(html, 'acct-1'));
      for (const el of dom.querySelectorAll('*')) {
        const names = el.getAttributeNames();
        expect(names.filter((n) => n.startsWith('on') || n === 'style')).toEqual([]);
        expect(el.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
      }
    }
  });

  it('gives, without DOMPurify, the same DOM that DOMPurify and the hook give', () => {
    // An unknown element sends the same HTML through DOMPurify, which drops it and nothing else.
    const viaDomPurify = (html: string) => sanitizeMessageHtml(`${html}<x-y></x-y>`, 'acct-1');
    const samples = [
      '<p>&quot;a&quot; &amp; &lt;b&gt; &#60;script&#62; &#x3C;</p>',
      '<p>Quotes " and \' in text</p><ul><li><strong>b</strong> <em>i</em> <del>d</del></li></ul>',
      '<div class="codehilite"><pre><span></span><code><span class="k">const</span> x</code></pre></div>',
      '<p><a href="https://example.com/a_(b)/c\'d?e=f;g+h%20i,j!k$l*m@n[o]#p">x</a></p>',
      '<blockquote><p><a href="http://x.example:8080/">x</a> <a>no href</a></p></blockquote>',
    ];
    for (const html of samples) {
      const fast = sanitizeMessageHtml(html, 'acct-1');
      expect(parse(fast).innerHTML).toBe(parse(viaDomPurify(html)).innerHTML);
    }
  });

  it('keeps the edit diff’s two classes on their tags only when asked (the edit history)', () => {
    const html =
      '<p><del>a</del> <ins class="diff-inserted">b</ins> <del class="diff-deleted">c</del> ' +
      '<span class="diff-inserted">d</span> <ins class="diff-deleted overlay">e</ins></p>';
    expect(sanitizeMessageHtml(html, 'diff', { diffMarks: true })).toBe(
      '<p><del>a</del> <ins class="diff-inserted">b</ins> <del class="diff-deleted">c</del> ' +
        '<span>d</span> <ins>e</ins></p>',
    );
    expect(sanitizeMessageHtml(html, 'diff')).toBe(
      '<p><del>a</del> <ins>b</ins> <del>c</del> <span>d</span> <ins>e</ins></p>',
    );
  });

  it("keeps the rendered markdown's classes and drops the app's, with or without DOMPurify", () => {
    // Dressed as the app's own overlay, menu and banner: the classes go, the text stays.
    for (const html of [
      '<div class="overlay">Session expired: sign in again</div>',
      '<div class="overlay" data-x="1">Session expired: sign in again</div>',
      '<span class="menu banner jump-unread">Click</span>',
      '<p class="dm me nav row dot">x</p>',
    ]) {
      const dom = parse(sanitizeMessageHtml(html, 'acct-1'));
      for (const el of dom.querySelectorAll('*')) expect(el.getAttribute('class')).toBeNull();
    }
    // Mixed: only the markdown's own survive, on both paths (plain attribute and DOMPurify).
    expect(sanitizeMessageHtml('<span class="user-mention overlay">@Ada</span>', 'acct-1')).toBe(
      '<span class="user-mention">@Ada</span>',
    );
    expect(
      sanitizeMessageHtml(
        '<span class="user-mention overlay" data-user-id="5">@Ada</span>',
        'acct-1',
      ),
    ).toBe('<span class="user-mention" data-user-id="5">@Ada</span>');
    const highlighted =
      '<div class="codehilite"><pre><span></span><code><span class="kd">const</span> <span class="nx">x</span> <span class="o">=</span> <span class="mi">1</span>;</code></pre></div>';
    expect(sanitizeMessageHtml(highlighted, 'acct-1')).toBe(highlighted);
    expect(
      sanitizeMessageHtml(
        '<span aria-label="tada" class="emoji emoji-1f389" role="img">:tada:</span>',
        'acct-1',
      ),
    ).toContain('class="emoji emoji-1f389"');
  });

  it('leaves text that merely looks like a class attribute alone', () => {
    for (const html of [
      '<p>Use <code>&lt;div class="message-row"&gt;</code> here</p>',
      '<p>set class="sidebar nav" on it</p>',
      '<div class="codehilite"><pre><code>el.class="overlay"</code></pre></div>',
    ])
      expect(sanitizeMessageHtml(html, 'acct-1')).toBe(html);
    // The same text on the DOMPurify path (an attribute sends it there).
    expect(sanitizeMessageHtml('<p data-x="1">set class="sidebar nav" on it</p>', 'acct-1')).toBe(
      '<p data-x="1">set class="sidebar nav" on it</p>',
    );
  });

  it('keeps highlighting tokens by name only, and never short app classes', () => {
    expect(sanitizeMessageHtml('<span class="app add kd">x</span>', 'acct-1')).toBe(
      '<span class="kd">x</span>',
    );
    expect(
      sanitizeMessageHtml('<a class="message-link" href="/#narrow/id/5">m</a>', 'acct-1'),
    ).toContain('class="message-link"');
  });

  it("drops dialog and menu roles and aria-modal: message content cannot pose as the app's", () => {
    const dom = parse(
      sanitizeMessageHtml(
        '<div role="dialog" aria-modal="true"><span role="menuitem">Sign out</span>' +
          '<span class="emoji emoji-1f389" role="img" aria-label="tada">:tada:</span></div>',
        'acct-1',
      ),
    );
    expect(dom.querySelector('[aria-modal]')).toBeNull();
    expect(dom.querySelector('[role=dialog], [role=menuitem]')).toBeNull();
    expect(dom.querySelector('.emoji')!.getAttribute('role')).toBe('img');
  });

  it('prefixes ids and names from message HTML so they cannot clash with the app', () => {
    const dom = parse(sanitizeMessageHtml('<p id="root">x</p><a name="menu">y</a>', 'acct-1'));
    expect(dom.querySelector('p')!.id).toBe('user-content-root');
    expect(dom.querySelector('a')!.getAttribute('name')).toBe('user-content-menu');
  });

  it("drops the server's copies of the link markers only the sanitizer sets", () => {
    const a = parse(
      sanitizeMessageHtml(
        '<a href="https://x.example/" data-realm-href="/user_uploads/1/ab/f.txt" ' +
          'data-internal-href="/x" data-narrow-link>x</a>',
        'acct-1',
      ),
    ).querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://x.example/');
    expect(a.hasAttribute('data-realm-href')).toBe(false);
    expect(a.hasAttribute('data-internal-href')).toBe(false);
    expect(a.hasAttribute('data-narrow-link')).toBe(false);
  });

  it('sanitizes HTML too long for the fast-path patterns instead of throwing', () => {
    // Matched by the patterns, these overflow V8's regexp stack (RangeError).
    const long = `<p>${'a'.repeat(5_000_000)}</p>`;
    expect(sanitizeMessageHtml(long, 'acct-1')).toBe(long);
    const linked = `<p><a href="https://example.com/">x</a>${'a'.repeat(5_000_000)}</p>`;
    expect(sanitizeMessageHtml(linked, 'acct-1')).toContain('target="_blank"');
  });

  it('removes scripts, event handlers and javascript: links', () => {
    const out = sanitizeMessageHtml(
      '<p>hi<script>alert(1)</script></p>' +
        '<img src="/user_uploads/1/ab/cat.png" onerror="alert(2)">' +
        '<a href="javascript:alert(3)" onclick="alert(4)">x</a>' +
        '<svg><g onload="alert(5)"></g></svg>' +
        '<iframe src="https://evil.example"></iframe>' +
        '<form action="https://evil.example"><input name="q"></form>' +
        '<a href="JaVaScRiPt&colon;alert(6)">y</a>',
      'acct-1',
    );
    expect(out).not.toMatch(/script|onerror|onclick|onload|javascript|iframe|<form|<input/i);
    const dom = parse(out);
    expect(dom.querySelector('p')?.textContent).toBe('hi');
    for (const a of dom.querySelectorAll('a')) expect(a.hasAttribute('href')).toBe(false);
  });

  it('opens external links outside the app and keeps their address', () => {
    const dom = parse(sanitizeMessageHtml('<a href="https://example.com/x">ext</a>', 'acct-1'));
    const a = dom.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://example.com/x');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('keeps relative (non-narrow) and unknown-scheme links unfollowable, their address kept aside', () => {
    const dom = parse(
      sanitizeMessageHtml(
        '<a href="/help/keyboard-shortcuts">rel</a><a href="ftp://x.example/f">ftp</a>',
        'acct-1',
      ),
    );
    const [rel, ftp] = dom.querySelectorAll('a');
    expect(rel.hasAttribute('href')).toBe(false);
    expect(rel.getAttribute('data-internal-href')).toBe('/help/keyboard-shortcuts');
    expect(ftp.hasAttribute('href')).toBe(false);
    expect(ftp.hasAttribute('target')).toBe(false);
  });

  it('loads realm images and uploads through main, and drops remote images', () => {
    const dom = parse(
      sanitizeMessageHtml(
        '<a href="/user_uploads/2/cd/report.pdf">report</a>' +
          '<img src="/user_uploads/2/cd/cat.png">' +
          '<img src="https://tracker.example/pixel.gif">',
        'acct-1',
      ),
    );
    expect(dom.querySelector('a')!.getAttribute('href')).toBe(
      '/media/acct-1/user_uploads/2/cd/report.pdf',
    );
    expect(dom.querySelector('a')!.getAttribute('data-realm-href')).toBe(
      '/user_uploads/2/cd/report.pdf',
    );
    const [local, remote] = dom.querySelectorAll('img');
    expect(local.getAttribute('src')).toBe('/media/acct-1/user_uploads/2/cd/cat.png');
    expect(remote.hasAttribute('src')).toBe(false);
  });

  it('gives plain text for quoting and editing', () => {
    expect(htmlToText('<p>a <strong>b</strong><script>c</script></p>')).toBe('a b');
  });

  it('keeps the links of each account apart when the same HTML comes from two accounts (results are cached)', () => {
    const html = '<p><a href="/user_uploads/9/ef/notes.txt">notes</a></p>';
    const first = sanitizeMessageHtml(html, 'acct-1');
    expect(sanitizeMessageHtml(html, 'acct-2')).toContain('href="/media/acct-2/user_uploads/9/ef/');
    // Asked again, each account gets its own (cached) result, not the other's.
    expect(sanitizeMessageHtml(html, 'acct-1')).toBe(first);
    expect(first).toContain('href="/media/acct-1/user_uploads/9/ef/');
  });

  it('still sanitizes HTML that has dropped out of the bounded cache', () => {
    const hostile = '<p>old<img src=x onerror="alert(1)"></p>';
    expect(sanitizeMessageHtml(hostile, 'acct-1')).not.toMatch(/onerror/);
    for (let i = 0; i < 2100; i++) sanitizeMessageHtml(`<p class="c">${i}</p>`, 'acct-1');
    expect(sanitizeMessageHtml(hostile, 'acct-1')).toBe('<p>old<img loading="lazy"></p>');
  });
});

describe('warmSanitizerWhenIdle', () => {
  it('resolves once, and leaves the next sanitize bound to its own account', async () => {
    const warm = warmSanitizerWhenIdle();
    expect(warmSanitizerWhenIdle()).toBe(warm);
    await warm;
    const dom = parse(sanitizeMessageHtml('<img src="/user_uploads/3/aa/x.png">', 'acct-3'));
    expect(dom.querySelector('img')!.getAttribute('src')).toBe(
      '/media/acct-3/user_uploads/3/aa/x.png',
    );
  });
});

describe('the public server’s rich content', () => {
  const cases = markdownCases();

  it('keeps every class its Markdown emits (KaTeX 0.16 names as the bundled KaTeX’s)', () => {
    const lost: string[] = [];
    for (const c of cases) {
      const kept = new Set(
        [
          ...parse(sanitizeMessageHtml(c.expected_output!, 'acct-1')).querySelectorAll('[class]'),
        ].flatMap((el) => [...el.classList]),
      );
      for (const el of parse(c.expected_output!).querySelectorAll('[class]'))
        for (const name of el.classList)
          if (!kept.has(name) && !kept.has(`katex-${name}`)) lost.push(`${c.name}: ${name}`);
    }
    expect(lost).toEqual([]);
  });

  it('keeps KaTeX’s inline sizes inside math only, and only of the shapes KaTeX writes', () => {
    const math = serverHtml('tex_fenced_math');
    const styles = [...parse(sanitizeMessageHtml(math, 'acct-1')).querySelectorAll('[style]')];
    expect(styles.length).toBe((math.match(/style="/g) ?? []).length);
    const hostile =
      '<p style="color:red">a</p><span class="katex"><span class="katex-html">' +
      '<span class="overlay menu base" style="position:fixed;top:0;left:0;width:100em;height:100em">x</span>' +
      '<span style="background-image:url(https://evil.example/x.png);height:1em">y</span>' +
      '<span style="top:-99999em;margin-left:expression(alert(1));color:#f00">z</span>' +
      '<span style="height:1em;position:relative;color:red;behavior:url(x.htc)">w</span>' +
      '</span></span>';
    const dom = parse(sanitizeMessageHtml(hostile, 'acct-1'));
    expect(dom.querySelector('p')!.hasAttribute('style')).toBe(false);
    const [a, b, c, d] = [...dom.querySelectorAll('.katex-html > span')];
    // Generic names never reach the DOM: KaTeX's are renamed, the app's dropped.
    expect(a.className).toBe('katex-overlay katex-base');
    expect(a.getAttribute('style')).toBe('top:0;left:0;');
    expect(b.getAttribute('style')).toBe('height:1em;');
    expect(c.getAttribute('style')).toBe('color:#f00;');
    expect(d.getAttribute('style')).toBe('height:1em;position:relative;color:red;');
  });

  it('keeps the MathML copy for screen readers, its TeX source in an annotation', () => {
    const math = serverHtml('tex_fenced_math');
    const dom = parse(sanitizeMessageHtml(math, 'acct-1'));
    expect(dom.querySelector('math semantics annotation')!.getAttribute('encoding')).toBe(
      'application/x-tex',
    );
  });
});

describe('KaTeX classes', () => {
  it('include every class the bundled KaTeX stylesheet styles', () => {
    const css = readRepoFile('node_modules/katex-styles/dist/katex.css');
    // Selectors only (not the font file names in url(), nor comments).
    const selectors =
      css.replace(/url\([^)]*\)|\/\*[^]*?\*\//g, '').match(/\.[a-z][a-z0-9-]*/gi) ??
      ([] as string[]);
    const names = [...new Set(selectors.map((s) => s.slice(1)))].filter((n) => !/^\d/.test(n));
    const html = `<span class="katex"><span class="${names.join(' ')}">x</span></span>`;
    const kept = parse(sanitizeMessageHtml(html, 'acct-1')).querySelector('.katex > span')!;
    expect(names.filter((n) => !kept.classList.contains(n))).toEqual([]);
  });
});

describe('elements that load URLs by themselves', () => {
  const remote = 'https://tracker.example/pixel';
  it('drops remote sources from audio, source and track, and any srcset', () => {
    const out = parse(
      sanitizeMessageHtml(
        `<audio src="${remote}.mp3" autoplay></audio>` +
          `<video><source src="${remote}.webm"><track src="${remote}.vtt"></video>` +
          `<picture><source srcset="${remote}.png 2x"><img src="/user_uploads/1/ab/c/d.png" srcset="${remote}.png 2x"></picture>`,
        'acct-1',
      ),
    );
    expect(out.innerHTML).not.toContain('tracker.example');
    const audio = out.querySelector('audio');
    expect(audio?.hasAttribute('autoplay')).toBe(false);
  });

  it('keeps no href on an SVG image and no template element', () => {
    const out = parse(
      sanitizeMessageHtml(
        `<svg><image href="${remote}.svg"></image><image xlink:href="${remote}.svg"></image></svg>` +
          `<template><img src="${remote}.png"></template><p>after</p>`,
        'acct-1',
      ),
    );
    expect(out.innerHTML).not.toContain('tracker.example');
    expect(out.querySelector('template')).toBeNull();
    expect(out.textContent).toContain('after');
  });
});
