// Message markdown -> HTML with markdown-it. Safety comes from the library configuration, not from
// post-filtering: raw HTML is escaped (html: false) and validateLink admits only http, https, mailto
// and realm-relative links, so javascript:, data: and vbscript: URLs never become links. The chat
// syntax (mentions, channel links, emoji) is a plugin (mentions.ts). Besides HTML the renderer
// reports what the message contains (mentions, links, images, uploads) for flags and narrows.
import MarkdownIt from 'markdown-it';
import { mentionsPlugin, type MentionEnv, type MentionLookup } from './mentions';
import { linkifiersPlugin } from './linkifiers';

export interface RenderedMessage {
  html: string;
  isMeMessage: boolean;
  mentionedUserIds: number[];
  mentionedGroupIds: number[];
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** path_ids of /user_uploads/ files the message links to (for attachment bookkeeping). */
  uploadPathIds: string[];
}

const ALLOWED_SCHEME = /^(https?:|mailto:)/i;
const IMAGE_PATH = /\.(png|jpe?g|gif|webp|bmp|svg)$/i;
const UPLOAD_PREFIX = /^(?:https?:\/\/[^/]+)?\/user_uploads\/(.+)$/;

function isSafeLink(url: string): boolean {
  const trimmed = url.trim();
  if (ALLOWED_SCHEME.test(trimmed)) return true;
  // Realm-relative links (uploads, narrows) carry no scheme; "//host" would be protocol-relative.
  return (trimmed.startsWith('/') && !trimmed.startsWith('//')) || trimmed.startsWith('#');
}

interface LinkEnv extends MentionEnv {
  links: string[];
  images: string[];
}

function createRenderer() {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
  md.validateLink = isSafeLink;
  md.use(mentionsPlugin);
  md.use(linkifiersPlugin);

  const rules = md.renderer.rules;
  const escape = md.utils.escapeHtml;

  rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const href = String(token.attrGet('href') ?? '');
    (env as unknown as LinkEnv).links.push(href);
    if (!href.startsWith('/') && !href.startsWith('#')) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    }
    return self.renderToken(tokens, idx, options);
  };

  // Images never load from arbitrary hosts: an uploaded image becomes a link in the text plus an
  // inline preview placed after the block that holds it (a <div> inside <p> is invalid HTML, and
  // the public server puts previews there too); anything else is only a link.
  rules.image = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    const src = String(token.attrGet('src') ?? '');
    const alt = token.content;
    (env as unknown as LinkEnv).links.push(src);
    if (UPLOAD_PREFIX.test(src)) {
      (env as unknown as LinkEnv).images.push(src);
      return `<a href="${escape(src)}">${escape(alt || src)}</a>`;
    }
    return `<a href="${escape(src)}" target="_blank" rel="noopener noreferrer">${escape(alt || src)}</a>`;
  };
  md.core.ruler.push('chat_image_previews', (state) => {
    const tokens = state.tokens;
    for (let i = tokens.length - 1; i >= 0; i--) {
      const inline = tokens[i];
      if (inline.type !== 'inline' || !inline.children) continue;
      const previews = inline.children
        .filter((child) => child.type === 'image')
        .map((child) => ({ src: String(child.attrGet('src') ?? ''), alt: child.content }))
        .filter((image) => UPLOAD_PREFIX.test(image.src));
      if (previews.length === 0) continue;
      // tokens[i + 1] closes the paragraph, heading or table cell holding the inline content:
      // previews go after a paragraph or heading, but inside a cell (a <tr> holds only cells).
      const closing = tokens[i + 1]?.type ?? '';
      const inCell = closing === 'td_close' || closing === 'th_close';
      const token = new state.Token('chat_image_previews', '', 0);
      token.meta = { previews };
      token.block = true;
      tokens.splice(inCell ? i + 1 : i + 2, 0, token);
    }
  });
  rules.chat_image_previews = (tokens, idx) =>
    (tokens[idx].meta as { previews: Array<{ src: string; alt: string }> }).previews
      .map(
        ({ src, alt }) =>
          `<div class="message_inline_image"><a href="${escape(src)}" title="${escape(alt)}"><img src="${escape(src)}" alt="${escape(alt)}"></a></div>\n`,
      )
      .join('');

  rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    const language = token.info.trim().split(/\s+/)[0] ?? '';
    const languageAttr = language ? ` data-code-language="${escape(language)}"` : '';
    return `<div class="codehilite"${languageAttr}><pre><span></span><code>${escape(token.content)}</code></pre></div>\n`;
  };
  rules.code_block = rules.fence;
  return md;
}

const renderer = createRenderer();

/**
 * Content that markdown-it would render as one plain paragraph: it starts with a letter (no
 * list, heading, quote or indented code) and has no character any inline rule, mention, emoji,
 * link or line break reacts to. Realm linkifiers can match anything, so they disable this path.
 */
const PLAIN_TEXT = /^[A-Za-z][A-Za-z0-9 ,.?!'"]*$/;

/** The rendering of PLAIN_TEXT content, without running the parser (most chat lines). */
export function renderPlainText(content: string): string {
  return `<p>${renderer.utils.escapeHtml(content.replace(/ +$/, ''))}</p>`;
}

export function renderMessage(content: string, lookup: MentionLookup): RenderedMessage {
  if (PLAIN_TEXT.test(content) && (lookup.linkifiers?.() ?? []).length === 0) {
    return {
      html: renderPlainText(content),
      isMeMessage: false,
      mentionedUserIds: [],
      mentionedGroupIds: [],
      streamWildcard: false,
      topicWildcard: false,
      hasLink: false,
      hasImage: false,
      hasAttachment: false,
      uploadPathIds: [],
    };
  }
  const env: LinkEnv = {
    lookup,
    found: { userIds: new Set(), groupIds: new Set(), streamWildcard: false, topicWildcard: false },
    links: [],
    images: [],
  };
  const html = renderer.render(content, env as unknown as Record<string, unknown>).trim();
  const uploadPathIds: string[] = [];
  for (const link of env.links) {
    const match = UPLOAD_PREFIX.exec(link);
    if (match) uploadPathIds.push(decodeURIComponentSafe(match[1]));
  }
  const hasImage =
    env.images.length > 0 ||
    env.links.some((link) => UPLOAD_PREFIX.test(link) && IMAGE_PATH.test(link));
  return {
    html,
    isMeMessage: /^\/me(\s|$)/.test(content),
    mentionedUserIds: [...env.found.userIds],
    mentionedGroupIds: [...env.found.groupIds],
    streamWildcard: env.found.streamWildcard,
    topicWildcard: env.found.topicWildcard,
    hasLink: env.links.length > 0,
    hasImage,
    hasAttachment: uploadPathIds.length > 0,
    uploadPathIds: [...new Set(uploadPathIds)],
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Escapes text for HTML (topics in search highlights). */
export function escapeHtml(text: string): string {
  return renderer.utils.escapeHtml(text);
}
