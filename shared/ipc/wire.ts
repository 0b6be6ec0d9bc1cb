// Frames of the browser-mode WebSocket bridge (renderer/bridge <-> electron/host). JSON text frames
// for calls, results and pushes; binary frames for file bytes, each prefixed with a 4-byte file number.
import type { IpcResult } from './errors';

export type ClientFrame =
  | { t: 'call'; id: number; method: string; payload: unknown }
  | { t: 'file-begin'; id: number; file: number; name: string; size: number }
  | { t: 'file-end'; id: number; file: number }
  | { t: 'file-abort'; file: number };

export type HostFrame =
  | ({ t: 'result'; id: number } & IpcResult<unknown>)
  | { t: 'push'; channel: string; payload: unknown };

/** Bytes per binary file frame; the bridge waits for the socket to drain between frames. */
export const FILE_CHUNK_BYTES = 256 * 1024;
export const FILE_HEADER_BYTES = 4;
/** The WebSocket path; the per-launch secret rides in the query string as `secret`. */
export const BRIDGE_PATH = '/bridge';
/** Electron IPC channel names. */
export const IPC_INVOKE_PREFIX = 'tributary:';
export const IPC_PUSH_CHANNEL = 'tributary:push';
export const IPC_INTAKE_CHANNEL = 'tributary:intake-path';
/** Browser mode: cookie carrying the secret for /media requests, set by the host on the bridge
 * handshake (HttpOnly, SameSite=Strict, path /media). */
export const MEDIA_COOKIE = 'tributary_media';
/** How the renderer addresses a realm file: Electron's media protocol or browser mode's /media route. */
export const MEDIA_SCHEME = 'tributary-media';

/**
 * Browser mode: messages a page holds but has not handed to the app are also kept, sealed with a
 * key from the launch's bridge secret (AES-256-GCM, key = SHA-256(UNSENT_KEY_LABEL + secret)), in
 * cookies named UNSENT_COOKIE_PREFIX + `${port}-${chunk}`, scoped to UNSENT_HANDOVER_PATH. Cookies
 * are shared by every port of 127.0.0.1, so the next launch's host imports them (a page POSTs that
 * path when it starts) even when it listens on another port.
 */
export const UNSENT_HANDOVER_PATH = '/unsent-handover';
export const UNSENT_COOKIE_PREFIX = 'tributary_unsent_';
export const UNSENT_KEY_LABEL = 'tributary-unsent:';

/**
 * Browser mode: where the page's early script asks for the first screen (shared/ipc/first-screen.ts),
 * sending the launch's secret in this header (the fragment that carries it is never sent). The
 * script (renderer/first-screen.ts) imports nothing and spells both out.
 */
export const FIRST_SCREEN_PATH = '/first-screen';
export const FIRST_SCREEN_SECRET_HEADER = 'x-tributary-secret';
/**
 * Browser mode: the id of the non-executing element in which the host may put the active
 * account's first screens into the page itself (electron/host/first-screen-route.ts `inPage`),
 * before the early script, which reads it instead of asking.
 */
export const FIRST_SCREEN_ELEMENT_ID = 'first-screen-kept';
