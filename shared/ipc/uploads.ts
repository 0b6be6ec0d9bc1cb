// Uploads: the renderer only names files the user chose (a dialog, a drop, a paste); main reads them.
// A chosen file is identified by an opaque token minted by main (see electron/uploads/intake.ts).
import * as z from 'zod';
import { forAccount, payload } from './common';
import { method, push } from './define';

export interface ChosenFile {
  token: string;
  name: string;
  size: number;
}

export type UploadState = 'uploading' | 'done' | 'failed' | 'cancelled';

export interface UploadProgress {
  uploadId: string;
  accountId: string;
  name: string;
  /** Bytes the server has acknowledged or that were written to the connection; never decreases. */
  loaded: number;
  total: number;
  state: UploadState;
  method: 'multipart' | 'tus';
  /** Uploads that belong together (the files of one shared meeting) carry the same group. */
  group?: string;
  /** On done: the realm-relative URL and the stored file name. */
  url?: string;
  filename?: string;
  error?: { code: string; msg: string };
}

const token = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'not a file token');
const uploadId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not an upload id');

export const uploadsMethods = {
  /** Electron: shows the open dialog. Browser mode: UNSUPPORTED (use an <input type=file>). */
  chooseFiles: method<ChosenFile[]>()(payload({ multiple: z.boolean().optional() })),
  /** Refuses (FILE_TOO_LARGE) a file the account's server would not take, before any byte moves. */
  checkUpload: method<null>()(
    forAccount({ name: z.string().max(1024), size: z.number().int().nonnegative() }),
  ),
  startUpload: method<{ uploadId: string }>()(forAccount({ token })),
  cancelUpload: method<null>()(payload({ uploadId })),
  listUploads: method<UploadProgress[]>()(payload({})),
} as const;

export const uploadsPushes = {
  uploadProgress: push<UploadProgress>(),
} as const;
