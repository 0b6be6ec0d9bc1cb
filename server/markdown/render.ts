// Message markdown -> HTML as the public server renders it, with markdown-it as the engine. The
// public server's own syntax rules replace CommonMark's where they differ: line passes before
// parsing (fences.ts: code, math, quote and spoiler fences, hanging lists), its inline rules
// (inline.ts, math.ts, time.ts, emoji.ts, mentions.ts), its links (links.ts) and previews
// (images.ts). Safety comes from the configuration: raw HTML is escaped (html: false) and links
// pass a scheme allow-list, so javascript:, data: and vbscript: URLs never become links. Besides
// HTML the renderer reports what the message contains (mentions, links, images, uploads).
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { mentionsPlugin, type MentionLookup } from './mentions';
import { linkifiersPlugin } from './linkifiers';
import { chatInlinePlugin } from './inline';
import { mathPlugin } from './math';
import { timePlugin } from './time';
import { emojiPlugin } from './emoji';
import { linksPlugin } from './links';
import { imagesPlugin, type PreviewEnv } from './images';
import { blocksPlugin } from './blocks';
import { renderCodeBlock } from './code';
import { escapeAttribute, escapeText } from './escape';
import { normalizeWhitespace, resolveFences, separateHangingLists } from './fences';
import { HtmlStash } from './placeholders';
import { extendQuotes, reindentLists } from './block-lines';

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
  /**
   * The text alert words are matched in: the source after the line passes, with fenced code and
   * math blocks stashed, as the public server's alert-word preprocessor sees it (so words inside
   * code spans and links count, those inside fenced blocks do not).
   */
  alertText: string;
}

const IMAGE_PATH = /\.(png|jpe?g|gif|webp|bmp|svg)$/i;
// Links to this realm's uploads are relative by now (links.ts relativeToRealm); an absolute URL
// with the same path on another host is someone else's file, never one of ours to claim.
const UPLOAD_PREFIX = /^\/?user_uploads\/(.+)$/;

interface RenderEnv extends PreviewEnv {
  links: string[];
}

function createRenderer() {
  const md = new MarkdownIt({ html: false, linkify: false, breaks: true, typographer: false });
  // The public server has no reference links, setext headings, backslash escapes, <…> autolinks
  // or image syntax ("![a](b)" is "!" and a link); fences are resolved before parsing.
  md.block.ruler.disable(['reference', 'lheading', 'fence', 'html_block']);
  md.inline.ruler.disable(['escape', 'autolink', 'html_inline', 'image', 'linkify']);
  md.use(chatInlinePlugin);
  md.use(mentionsPlugin);
  md.use(mathPlugin);
  md.use(timePlugin);
  md.use(emojiPlugin);
  md.use(linksPlugin);
  md.use(linkifiersPlugin);
  md.use(imagesPlugin);
  md.use(blocksPlugin);

  const rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeText(tokens[idx].content);
  rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx].content)}</code>`;
  rules.code_block = (tokens, idx) => `${renderCodeBlock(tokens[idx].content, undefined)}\n`;
  rules.link_open = (tokens: Token[], idx: number, _options, env) => {
    const href = String(tokens[idx].attrGet('href') ?? '');
    (env as unknown as RenderEnv).links.push(href);
    return `<a href="${escapeAttribute(href)}">`;
  };
  return md;
}

const renderer = createRenderer();

/**
 * Content the parser would render as one plain paragraph: it starts with a letter (no list,
 * heading, quote or indented code) and holds no character any rule reacts to (no markup, mention,
 * emoji, emoticon, math, time, link, address or line break; a dot only where no domain name can
 * go on, before a space, punctuation or the end). Realm linkifiers can match anything, so they
 * disable this path.
 */
const PLAIN_TEXT = /^[A-Za-z](?:[A-Za-z0-9 ,?!'"]|\.(?![A-Za-z0-9]))*$/;

/** The rendering of PLAIN_TEXT content, without running the parser (most chat lines). */
export function renderPlainText(content: string): string {
  return `<p>${escapeText(content)}</p>`;
}

function emptyResult(html: string, alertText: string): RenderedMessage {
  return {
    html,
    alertText,
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

export function renderMessage(content: string, lookup: MentionLookup): RenderedMessage {
  if (PLAIN_TEXT.test(content) && (lookup.linkifiers?.() ?? []).length === 0) {
    return emptyResult(renderPlainText(content), content);
  }
  const env: RenderEnv = {
    lookup,
    found: { userIds: new Set(), groupIds: new Set(), streamWildcard: false, topicWildcard: false },
    links: [],
    realmUrl: lookup.realmUrl?.(),
    camo: lookup.imageProxy?.(),
    imageCount: 0,
  };
  const stash = new HtmlStash();
  const lines = separateHangingLists(content.replace(/\r\n?/g, '\n').split('\n'));
  const normalized = normalizeWhitespace(lines.join('\n'));
  const fenced = resolveFences(normalized.split('\n'), stash);
  // Without the blank lines normalizeWhitespace appends: they never decide a match.
  const alertText = fenced.join('\n').replace(/\n+$/, '');
  const source = extendQuotes(reindentLists(fenced)).join('\n');
  const html = stash
    .restore(renderer.render(source, env as unknown as Record<string, unknown>))
    .trim();
  const uploadPathIds: string[] = [];
  for (const link of env.links) {
    const match = UPLOAD_PREFIX.exec(link);
    if (match) uploadPathIds.push(decodeURIComponentSafe(match[1]));
  }
  const hasImage =
    env.imageCount > 0 ||
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
    alertText,
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
