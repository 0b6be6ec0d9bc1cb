// Media in messages that the page cannot load itself. Images and videos from other hosts are never
// loaded until the person asks: then main fetches the one URL (no credentials, http/https only,
// image and video types only, size-capped, few redirects) and hands the bytes to the page, whose CSP
// keeps blocking every remote load. And the original of an upload is saved through main.
import * as z from 'zod';
import { forAccount, payload } from './common';
import { method } from './define';

/** The largest external image or video main fetches for the page. */
export const EXTERNAL_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

export interface ExternalMedia {
  /** The answer's type (an image/* or video/* one main accepts), without parameters. */
  contentType: string;
  contentBase64: string;
}

export const mediaMethods = {
  /**
   * Fetches one image or video from another host, once the person clicked its placeholder. Refused
   * with EXTERNAL_MEDIA_REFUSED (another scheme, type, too large, too many redirects) or
   * EXTERNAL_MEDIA_FAILED (the host did not answer with the file).
   */
  fetchExternalMedia: method<ExternalMedia>()(payload({ url: z.string().min(1).max(8192) })),
  /**
   * Saves the original of an uploaded file (its `/user_uploads/<path_id>` link) where the person
   * chooses, through the native save dialog (Electron). Browser mode answers UNSUPPORTED: the page
   * downloads it from the media route instead.
   */
  saveUpload: method<{ savedTo: string } | null>()(
    forAccount({ path: z.string().min(1).max(4096) }),
  ),
} as const;
