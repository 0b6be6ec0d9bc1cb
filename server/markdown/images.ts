// Previews for links to images and videos, placed as the public server places them: links are
// visited breadth-first, each URL previews once, links inside quotes never preview. A preview of
// a link in a paragraph goes right after that paragraph (after earlier previews of it), and
// replaces the paragraph when the bare link was all it held; in a tight list item it goes at the
// end of the item; anywhere else at the end of the message. External media go through the camo
// proxy when one is configured; uploads (/user_uploads/) preview as the thumbnail the lookup
// describes, or as the file itself when the lookup knows nothing about thumbnails.
import { createHmac } from 'node:crypto';
import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import type { CamoConfig, MentionEnv, UploadImage } from './mentions';
import { escapeAttribute } from './escape';

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
const VIDEO_EXTENSIONS = ['.mp4', '.webm'];
const UPLOAD = '/user_uploads/';

export interface PreviewEnv extends MentionEnv {
  realmUrl?: string;
  camo?: CamoConfig;
  imageCount: number;
}

export function camoUrl(url: string, camo: CamoConfig): string {
  const digest = createHmac('sha1', camo.key).update(url).digest('hex');
  return `${camo.url}${digest}/${Buffer.from(url, 'utf8').toString('hex')}`;
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://relative.invalid').pathname.toLowerCase();
  } catch {
    return '';
  }
}

/** Relative URLs and this realm's own never go through the proxy. */
function isLocal(url: string, realmUrl: string | undefined): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) && !url.startsWith('//')) return true;
  return !!realmUrl && url.startsWith(`${realmUrl.replace(/\/$/, '')}/`);
}

interface FoundLink {
  url: string;
  text: string | null;
  inline: Token;
  /** Index of the link_open in inline.children. */
  index: number;
  depth: number;
  order: number;
  /** The element holding the link: a shown paragraph, a tight list item, or something else. */
  parent: 'p' | 'li' | 'other';
  /** The paragraph_close of a 'p' parent. */
  close?: Token;
  /** The link is the whole content of its parent and shows its URL. */
  alone: boolean;
}

function findLinks(tokens: Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  let quoteDepth = 0;
  let order = 0;
  tokens.forEach((block, b) => {
    if (block.type === 'blockquote_open') quoteDepth++;
    if (block.type === 'blockquote_close') quoteDepth--;
    if (block.type !== 'inline' || !block.children || quoteDepth > 0) return;
    const opener = tokens[b - 1];
    const isParagraph = opener?.type === 'paragraph_open';
    const hidden = isParagraph && opener.hidden;
    const children = block.children;
    let nesting = 0;
    children.forEach((child, i) => {
      if (child.type === 'link_open') {
        const next = children[i + 1];
        const text = next?.type === 'text' ? next.content : null;
        const url = String(child.attrGet('href') ?? '');
        const direct = nesting === 0;
        const parent = !direct || !isParagraph ? 'other' : hidden ? 'li' : 'p';
        found.push({
          url,
          text,
          inline: block,
          index: i,
          depth: block.level - (hidden ? 1 : 0) + nesting,
          order: order++,
          parent,
          close: parent === 'p' ? tokens[b + 1] : undefined,
          alone:
            children.length === 3 &&
            i === 0 &&
            children[2].type === 'link_close' &&
            (text === null || text === url),
        });
      }
      if (child.nesting === 1) nesting++;
      if (child.nesting === -1) nesting--;
    });
  });
  // Breadth-first: shallower elements first, then in document order.
  return found.sort((a, b) => a.depth - b.depth || a.order - b.order);
}

function mediaKind(url: string, env: PreviewEnv): 'image' | 'video' | 'upload' | null {
  const path = pathOf(url);
  if (VIDEO_EXTENSIONS.some((ext) => path.endsWith(ext))) return 'video';
  if (url.startsWith(UPLOAD)) {
    if (env.lookup?.uploadImage) return 'upload';
  }
  if (!IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext))) return null;
  try {
    if (new URL(url, 'http://relative.invalid').hostname === 'pasteboard.co') return null;
  } catch {
    return null;
  }
  return 'image';
}

function proxied(url: string, env: PreviewEnv): string {
  return env.camo && !isLocal(url, env.realmUrl) ? camoUrl(url, env.camo) : url;
}

function uploadImg(data: UploadImage): string {
  const dimensions = `${data.width}x${data.height}`;
  if (!data.thumbnailUrl) {
    return `<img class="image-loading-placeholder" data-original-dimensions="${dimensions}" src="/static/images/loading/loader-black.svg">`;
  }
  const animated = data.animated ? ' data-animated="true"' : '';
  return `<img data-original-dimensions="${dimensions}" src="${escapeAttribute(data.thumbnailUrl)}" data-original-content-type="${escapeAttribute(data.contentType)}"${animated}>`;
}

function previewHtml(
  link: FoundLink,
  kind: 'image' | 'video' | 'upload',
  env: PreviewEnv,
): string | null {
  const title =
    link.text === null || link.text === link.url ? '' : ` title="${escapeAttribute(link.text)}"`;
  const href = escapeAttribute(link.url);
  if (kind === 'video') {
    return `<div class="message_inline_image message_inline_video"><a href="${href}"${title}><video preload="metadata" src="${escapeAttribute(proxied(link.url, env))}"></video></a></div>`;
  }
  let img: string;
  if (kind === 'upload') {
    const data = env.lookup?.uploadImage?.(decodePath(link.url.slice(UPLOAD.length)));
    if (!data) return null;
    img = uploadImg(data);
  } else {
    img = `<img src="${escapeAttribute(proxied(link.url, env))}">`;
  }
  env.imageCount++;
  return `<div class="message_inline_image"><a href="${href}"${title}>${img}</a></div>`;
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

// Above this many distinct previewable URLs the public server previews none.
const PREVIEW_LIMIT = 24;

function previewRule(state: StateCore): void {
  const env = state.env as unknown as PreviewEnv;
  const links = findLinks(state.tokens);
  if (new Set(links.map((l) => l.url)).size > PREVIEW_LIMIT) return;
  const seen = new Set<string>();
  const afterParagraph = new Map<Token, Token[]>();
  const atEnd: Token[] = [];
  const removed = new Set<Token>();
  for (const link of links) {
    if (seen.has(link.url)) continue;
    seen.add(link.url);
    const kind = mediaKind(link.url, env);
    if (!kind) continue;
    const html = previewHtml(link, kind, env);
    if (html === null) continue;
    const token = new state.Token('chat_html', '', 0);
    token.content = html;
    token.block = true;
    if (link.parent === 'p' && link.close) {
      const list = afterParagraph.get(link.close) ?? [];
      list.push(token);
      afterParagraph.set(link.close, list);
      if (link.alone) removed.add(link.inline);
    } else if (link.parent === 'li') {
      if (link.alone) link.inline.children!.splice(0, 3);
      link.inline.children!.push(token);
    } else {
      atEnd.push(token);
    }
  }
  if (afterParagraph.size === 0 && atEnd.length === 0) return;
  const out: Token[] = [];
  state.tokens.forEach((token, i) => {
    const isRemoved =
      removed.has(token) ||
      (token.type === 'paragraph_open' && removed.has(state.tokens[i + 1])) ||
      (token.type === 'paragraph_close' && removed.has(state.tokens[i - 1]));
    if (!isRemoved) out.push(token);
    const previews = afterParagraph.get(token);
    if (previews) out.push(...previews);
  });
  out.push(...atEnd);
  state.tokens = out;
}

export const imagesPlugin = (md: MarkdownIt): void => {
  md.core.ruler.push('chat_previews', previewRule);
};
