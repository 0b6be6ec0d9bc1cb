// Image uploads as the public server treats them: on upload, read the image's dimensions (as shown,
// after EXIF rotation) and frame count, and write its thumbnails to DIR/uploads/thumbnail/<path_id>/
// <format name>; serve them at /user_uploads/thumbnail/<path_id>/<format> (routes in
// resources/uploads/uploads.ts, with the upload's own access rules); announce the formats in register's
// `server_thumbnail_formats`. Thumbnails are made before the upload request answers, so a message
// sent with the link always finds them (the public server makes them in a worker and re-renders the
// message; we never need its loading placeholder, though an image whose thumbnailing failed simply
// gets no preview, as there). Decoding is libvips through `sharp`, on its own thread pool.
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Metadata } from 'sharp';
import { loadSharp } from './sharp';
import type { Db } from '../db';
import { isWellFormedPathId } from './storage';

export interface ThumbnailFormat {
  name: string;
  max_width: number;
  max_height: number;
  format: 'webp';
  animated: boolean;
}

/**
 * The formats generated, as register lists them. The first still and the first animated one are
 * what rendered messages link; clients may ask for any other by name.
 */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
  { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
];

/** Types whose bytes we parse at all (the declared type gates it, as on the public server). */
const THUMBNAILED_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
]);

/** Decompression bombs: the public server's limits (about a quarter GiB of 24-bit pixels). */
const MAX_PIXELS = 90_000_000;
const MAX_ANIMATED_PIXELS = MAX_PIXELS / 3;

/** What the Markdown renderer needs to write an uploaded image's preview. */
export interface UploadImagePreview {
  width: number;
  height: number;
  contentType: string;
  /** Realm-relative URL of the default thumbnail (`/user_uploads/thumbnail/<path_id>/<name>`). */
  thumbnailUrl: string;
  animated: boolean;
}

interface ImageRow {
  path_id: string;
  width: number;
  height: number;
  frames: number;
  content_type: string;
}

function imageRow(db: Db, pathId: string): ImageRow | undefined {
  return db
    .prepare<[string], ImageRow>('SELECT * FROM image_attachments WHERE path_id = ?')
    .get(pathId);
}

/** The format a rendered message links for an image: the first of the matching kind. */
function defaultFormat(animated: boolean): ThumbnailFormat {
  return THUMBNAIL_FORMATS.find((f) => f.animated === animated) ?? THUMBNAIL_FORMATS[0];
}

/** The formats made for an image: animated ones only for animated sources. */
function formatsFor(row: ImageRow): ThumbnailFormat[] {
  return THUMBNAIL_FORMATS.filter((f) => row.frames > 1 || !f.animated);
}

export function thumbnailUrl(pathId: string, format: ThumbnailFormat): string {
  const segments = [...pathId.split('/'), format.name].map(encodeURIComponent);
  return `/user_uploads/thumbnail/${segments.join('/')}`;
}

/**
 * For the Markdown renderer (its `uploadImage(pathId)` lookup): an uploaded image's dimensions,
 * type and default thumbnail, or undefined for anything that is not a thumbnailed image.
 */
export function uploadImagePreview(db: Db, pathId: string): UploadImagePreview | undefined {
  const row = imageRow(db, pathId);
  if (!row) return undefined;
  const animated = row.frames > 1;
  return {
    width: row.width,
    height: row.height,
    contentType: row.content_type,
    thumbnailUrl: thumbnailUrl(pathId, defaultFormat(animated)),
    animated,
  };
}

export class UploadThumbnails {
  private readonly root: string;
  /** One generation per image at a time (an upload and a first request may race). */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    uploadsRoot: string,
  ) {
    this.root = resolve(uploadsRoot, 'thumbnail');
  }

  /**
   * After a file is stored: if it declares a thumbnailed type and its header decodes within the
   * limits, records its dimensions and writes every thumbnail. Anything else is left as a plain
   * file (never an error for the upload itself).
   */
  async processUpload(pathId: string, contentType: string, filePath: string): Promise<boolean> {
    if (!THUMBNAILED_TYPES.has(contentType)) return false;
    let meta: Metadata;
    try {
      const sharp = await loadSharp();
      meta = await sharp(filePath, { limitInputPixels: MAX_PIXELS }).metadata();
    } catch {
      return false;
    }
    const frames = meta.pages ?? 1;
    const pageHeight = meta.pageHeight ?? meta.height;
    if (!meta.width || !pageHeight) return false;
    if (frames > 1 && meta.width * pageHeight * Math.min(3, frames) > MAX_ANIMATED_PIXELS)
      return false;
    // EXIF orientations 5-8 turn the picture a quarter: the shown width is the stored height.
    const turned = (meta.orientation ?? 1) >= 5;
    const row: ImageRow = {
      path_id: pathId,
      width: turned ? pageHeight : meta.width,
      height: turned ? meta.width : pageHeight,
      frames,
      content_type: contentType,
    };
    try {
      await this.generate(row, filePath);
    } catch {
      await this.removeFiles(pathId);
      return false;
    }
    this.db
      .prepare(
        `INSERT OR REPLACE INTO image_attachments (path_id, width, height, frames, content_type)
         VALUES (@path_id, @width, @height, @frames, @content_type)`,
      )
      .run(row);
    return true;
  }

  /**
   * The file to serve for `/user_uploads/thumbnail/<path_id>/<name>`: the named format if it is
   * one of ours, made now if it is missing (formats added since the upload); an animated name for a
   * still image gets the still one. Null when the image has no thumbnails or the name is unknown.
   */
  async thumbnailFile(
    pathId: string,
    name: string,
    originalPath: string,
  ): Promise<{ path: string; name: string } | null> {
    const row = imageRow(this.db, pathId);
    if (!row) return null;
    let format = THUMBNAIL_FORMATS.find((f) => f.name === name);
    if (!format) return null;
    if (format.animated && row.frames === 1) format = defaultFormat(false);
    const path = this.formatPath(pathId, format);
    if (!path) return null;
    if (!(await stat(path).catch(() => null))) await this.generate(row, originalPath);
    return { path, name: format.name };
  }

  /** Deletes an image's thumbnails and its record (the upload itself is deleted by the caller). */
  async remove(pathId: string): Promise<void> {
    this.db.prepare('DELETE FROM image_attachments WHERE path_id = ?').run(pathId);
    await this.removeFiles(pathId);
  }

  private async removeFiles(pathId: string): Promise<void> {
    const folder = this.folder(pathId);
    if (folder) await rm(folder, { recursive: true, force: true });
  }

  private generate(row: ImageRow, source: string): Promise<void> {
    const running = this.pending.get(row.path_id);
    if (running) return running;
    const work = this.writeFormats(row, source).finally(() => this.pending.delete(row.path_id));
    this.pending.set(row.path_id, work);
    return work;
  }

  private async writeFormats(row: ImageRow, source: string): Promise<void> {
    const sharp = await loadSharp();
    for (const format of formatsFor(row)) {
      const target = this.formatPath(row.path_id, format);
      if (!target) throw new Error(`invalid path_id ${row.path_id}`);
      await mkdir(dirname(target), { recursive: true });
      await sharp(source, { animated: format.animated, limitInputPixels: MAX_PIXELS })
        .rotate()
        .resize({
          width: format.max_width,
          height: format.max_height,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp()
        .toFile(target);
    }
  }

  /** DIR/uploads/thumbnail/<path_id>, or null for a path_id that is not one. */
  private folder(pathId: string): string | null {
    if (!isWellFormedPathId(pathId)) return null;
    const full = resolve(this.root, pathId);
    const rel = relative(this.root, full);
    return rel === '' || rel.startsWith('..') || rel.startsWith(sep) ? null : full;
  }

  private formatPath(pathId: string, format: ThumbnailFormat): string | null {
    const folder = this.folder(pathId);
    return folder ? join(folder, format.name) : null;
  }
}
