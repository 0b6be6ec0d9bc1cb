// Renders short markdown (channel descriptions, profile fields) to HTML. Raw HTML in the source is
// escaped (html: false), so the output is safe to embed. Message content has its own renderer
// (server/markdown/, owned by the messages engineer).
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

export function renderShortMarkdown(source: string): string {
  if (source.trim() === '') return '';
  return md.render(source).trim();
}
