// The built renderer as the browser-mode host serves it. The page and what it loads first (its
// script, the chunk it preloads, its stylesheet, its icon) are read into memory before the host
// listens, so answering them is a write of bytes already in hand: no stat, open and stream per
// request while the launcher is also starting the accounts' sessions. Other files (lazy chunks,
// fonts, the emoji sheets) are read when first asked for. Vite names everything under assets/
// by its content's hash, so those answers may be kept by the browser for good; the page itself
// is revalidated (its ETag) at every launch, since a rebuild changes what it points at.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { EARLY_SCRIPT_ATTRIBUTE, earlyScriptHashes } from './csp';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Files named by their content's hash (Vite's assets/): never change under the same name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (the page, its icon): kept, but checked at every use. */
const REVALIDATE = 'no-cache';

export interface StaticFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
  /** A script the page names (its entry, the chunks it preloads): what it needs before it runs. */
  pageScript: boolean;
}

/** What `answer` says to send: a file, "not modified", or nothing we serve. */
export type StaticAnswer =
  { status: 200; file: StaticFile } | { status: 304; file: StaticFile } | { status: 404 };

export class StaticFiles {
  private readonly files = new Map<string, StaticFile>();
  /** How many scripts the page names. */
  readonly pageScripts: number = 0;
  /**
   * The CSP sources of the page's inline early script (csp.ts earlyScriptHashes): none when the
   * page has none, and so will not ask for a first screen.
   */
  readonly earlyScriptHashes: string[] = [];

  /** Reads the page and the files it references; the rest waits for a request. */
  constructor(private readonly root: string) {
    const index = this.load('index.html');
    if (!index) return;
    const html = index.body.toString('utf8');
    this.earlyScriptHashes = earlyScriptHashes(html);
    for (const path of referencedFiles(html)) {
      const file = this.load(path);
      if (file?.contentType.startsWith('text/javascript') && !file.pageScript) {
        file.pageScript = true;
        this.pageScripts += 1;
      }
    }
  }

  get hasIndex(): boolean {
    return this.files.has('index.html');
  }

  /**
   * The page with `element` put just before its early script (which reads it as it runs), or the
   * page as it is when it has none. Made per request: what it carries is the account's.
   */
  pageWith(element: string): Buffer {
    const page = this.files.get('index.html')!.body.toString('utf8');
    const at = page.search(new RegExp(`<script\\s[^>]*${EARLY_SCRIPT_ATTRIBUTE}`));
    if (at < 0) return Buffer.from(page);
    return Buffer.from(`${page.slice(0, at)}${element}${page.slice(at)}`);
  }

  /** The answer to GET/HEAD of `urlPath` (the URL's path, still percent-encoded). */
  async answer(urlPath: string, ifNoneMatch: string | undefined): Promise<StaticAnswer> {
    const relative = this.relativePath(urlPath);
    if (relative === null) return { status: 404 };
    const file = this.files.get(relative) ?? (await this.loadLater(relative));
    if (!file) return { status: 404 };
    if (ifNoneMatch !== undefined && ifNoneMatch.split(/\s*,\s*/).includes(file.etag)) {
      return { status: 304, file };
    }
    return { status: 200, file };
  }

  /** The file's path under the root, or null for anything outside it or hidden. */
  private relativePath(urlPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const relative = normalize(decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, ''));
    const parts = relative.split(sep);
    if (relative.startsWith('..') || parts.some((part) => part.startsWith('.'))) return null;
    return parts.join('/');
  }

  private load(relative: string): StaticFile | null {
    const path = join(this.root, relative);
    if (!existsSync(path)) return null;
    try {
      return this.keep(relative, readFileSync(path));
    } catch {
      return null; // a folder, or unreadable: not something we serve
    }
  }

  private async loadLater(relative: string): Promise<StaticFile | null> {
    try {
      return this.keep(relative, await readFile(join(this.root, relative)));
    } catch {
      return null;
    }
  }

  private keep(relative: string, body: Buffer): StaticFile {
    const hashedName = relative.startsWith('assets/');
    const file: StaticFile = {
      body,
      contentType: CONTENT_TYPES[extname(relative)] ?? 'application/octet-stream',
      cacheControl: hashedName ? IMMUTABLE : REVALIDATE,
      // A file under assets/ is named by its content's hash already: hashing it again (the emoji
      // sheets are 5 MB each, read per request) held up the page's first calls on main's thread.
      etag: hashedName
        ? `"${relative.slice('assets/'.length)}"`
        : `"${createHash('sha1').update(body).digest('base64url')}"`,
      pageScript: false,
    };
    // Only the page's own files are kept: the fonts and emoji sheets are read per request
    // (browsers keep them), so the host's memory does not grow with what a page once drew.
    if (!relative.startsWith('assets/') || /\.(js|css)$/.test(relative)) {
      this.files.set(relative, file);
    }
    return file;
  }
}

/** Same-origin files the page names in src= and href= (its script, preloads, styles, icon). */
function referencedFiles(html: string): string[] {
  const paths: string[] = [];
  for (const match of html.matchAll(/\s(?:src|href)="([^"]+)"/g)) {
    const reference = match[1];
    if (/^[a-z]+:|^\/\//i.test(reference)) continue; // another origin, or a data: URL
    paths.push(reference.replace(/^\.?\/+/, '').split(/[?#]/)[0]);
  }
  return paths;
}
