// The IPC contract: every renderer-to-main call (with its zod payload schema and result type) and every
// main-to-renderer message, composed from one file per domain. See README.md in this folder for how to
// add a domain. Both transports (Electron ipcMain/contextBridge, browser-mode WebSocket) implement
// TributaryApi from this one definition, so the renderer cannot tell them apart.
import type { z } from 'zod';
import { accountsMethods, accountsPushes } from './accounts';
import { chatMethods, chatPushes } from './chat';
import { draftsMethods, draftsPushes } from './drafts';
import { uploadsMethods, uploadsPushes } from './uploads';
import { systemMethods, systemPushes } from './system';
import { manifestMethods, manifestPushes } from './manifest';
import { mediaMethods } from './media';
import { meetingsMethods, meetingsPushes } from './meetings';
import { scheduledMethods } from './scheduled';
import { peopleMethods, peoplePushes } from './people';
import { shellMethods, shellPushes } from './shell';
import { notificationsMethods, notificationsPushes } from './notifications';
import { adminExtrasMethods } from './admin-extras';
import { adminPeopleMethods } from './admin-people';
import { cacheMethods, cachePushes } from './cache';
import { personalMethods } from './personal';
import { composeDomains, type MethodDef, type PushDef } from './define';
import { adminRealmMethods } from './admin-realm';
import type { ChosenFile } from './uploads';
import { adminIconMethods } from './admin-icon';
import { firstScreenMethods } from './first-screen';

export const methods = composeDomains(
  accountsMethods,
  chatMethods,
  draftsMethods,
  uploadsMethods,
  systemMethods,
  manifestMethods,
  meetingsMethods,
  mediaMethods,
  scheduledMethods,
  peopleMethods,
  shellMethods,
  notificationsMethods,
  adminExtrasMethods,
  adminPeopleMethods,
  adminRealmMethods,
  cacheMethods,
  personalMethods,
  adminIconMethods,
  firstScreenMethods,
);

export const pushes = composeDomains(
  accountsPushes,
  chatPushes,
  draftsPushes,
  uploadsPushes,
  systemPushes,
  manifestPushes,
  meetingsPushes,
  peoplePushes,
  shellPushes,
  notificationsPushes,
  cachePushes,
);

export type Methods = typeof methods;
export type MethodName = keyof Methods & string;
export type Pushes = typeof pushes;
export type PushName = keyof Pushes & string;

export type MethodInput<K extends MethodName> = z.input<Methods[K]['input']>;
/** The payload after validation (defaults applied), as main-side handlers receive it. */
export type MethodPayload<K extends MethodName> = z.output<Methods[K]['input']>;
export type MethodOutput<K extends MethodName> =
  Methods[K] extends MethodDef<z.ZodType, infer O> ? O : never;
export type PushPayload<K extends PushName> = Pushes[K] extends PushDef<infer T> ? T : never;

export const methodNames = Object.keys(methods) as MethodName[];
export const pushNames = Object.keys(pushes) as PushName[];

export const isMethodName = (name: unknown): name is MethodName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
export const isPushName = (name: unknown): name is PushName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(pushes, name);

export type PushListener<K extends PushName> = (payload: PushPayload<K>) => void;

/**
 * What `window.tributary` is. `FileRef` is the runtime's file object (the DOM's File in the renderer);
 * shared/ has no DOM types, so the renderer instantiates it (renderer/bridge/tributary.d.ts).
 */
export type TributaryApi<FileRef = unknown> = {
  [K in MethodName]: (input: MethodInput<K>) => Promise<MethodOutput<K>>;
} & {
  /** Subscribes to a main-to-renderer message; returns the unsubscribe function. */
  on<K extends PushName>(channel: K, listener: PushListener<K>): () => void;
  /** Hands a dropped, pasted or picked file to main and starts uploading it. */
  uploadFile(accountId: string, file: FileRef): Promise<{ uploadId: string }>;
  /** Hands a dropped file to main without uploading it (e.g. a manifest to open); main keeps it by token. */
  intakeFile(file: FileRef): Promise<ChosenFile>;
};

/** Handler table the main process provides: one function per method, payloads already validated. */
export type MethodHandlers = {
  [K in MethodName]: (payload: MethodPayload<K>) => Promise<MethodOutput<K>> | MethodOutput<K>;
};

/** How main sends a message to the renderer (Electron webContents.send, or the WebSocket). */
export type PushSink = <K extends PushName>(channel: K, payload: PushPayload<K>) => void;
