// The uploads a message links, read from the server's HTML: what a meeting card is made of. Only
// links to the realm's own uploads count (`/user_uploads/<realm>/…`), not thumbnails or temporary
// download links; each once, in the order linked.

/** An upload link as the server writes it (relative, attribute double-quoted). */
const UPLOAD_HREF = /href="(\/user_uploads\/(?!thumbnail\/|temporary\/|download\/)[^"?#]+)"/g;

/** Whether a message may carry a meeting: a linked upload whose name ends in `.json`. Cheap. */
export function mayLinkMeeting(html: string): boolean {
  return html.includes('/user_uploads/') && /\.json"/i.test(html);
}

export function linkedUploadPaths(html: string): string[] {
  const paths = new Set<string>();
  for (const match of html.matchAll(UPLOAD_HREF)) paths.add(match[1]!.replace(/&amp;/g, '&'));
  return [...paths];
}
