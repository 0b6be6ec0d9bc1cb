// The name a realm gives an upload: the local server (server/uploads/storage.ts) applies it, as the
// public server's `sanitize_name` does. Shared so a client can tell, before uploading, whether a
// file will arrive under another name than the one it has (a meeting's files are found by name).

/** The name an upload whose name cleans to nothing gets. */
export const FALLBACK_UPLOAD_NAME = 'uploaded-file';
const MAX_NAME_CHARS = 150;

/**
 * A file name safe as one URL path segment and one file name on every OS: letters, digits, '_',
 * '-', '.' (Unicode letters kept, NFKC-normalised), spaces become '-', no leading dot, at most
 * MAX_NAME_CHARS characters with the extension kept.
 */
export function sanitizeFileName(name: string): string {
  const base = name.normalize('NFKC').split(/[/\\]/).pop() ?? '';
  let clean = base
    .replace(/[^\p{L}\p{N}\p{M}_.\- ]/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+/, '');
  if (clean === '' || /^\.+$/.test(clean)) return FALLBACK_UPLOAD_NAME;
  const chars = [...clean];
  if (chars.length > MAX_NAME_CHARS) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 ? [...clean.slice(dot)].slice(0, 16).join('') : '';
    clean = chars.slice(0, MAX_NAME_CHARS - [...ext].length).join('') + ext;
  }
  return clean;
}
