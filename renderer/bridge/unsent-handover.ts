// Browser mode keeps its promise about messages the page holds but has not handed to the app
// (unsent.ts: kept in this origin's localStorage, handed over when the app is reachable):
// - the window asks before it closes or reloads while it holds any (the browser's leave-page
//   prompt);
// - a sealed copy sits in cookies, which 127.0.0.1 shares across ports (localStorage does not), so
//   the next launch's host imports them even on another port (electron/host/unsent-handover.ts).
//   Sealed with a key from this launch's bridge secret, which the next host remembers
//   (launch-record.ts): other local pages can neither read nor forge them; scoped to one path, so
//   no other request carries them. Wire details: shared/ipc/wire.ts.
import {
  UNSENT_COOKIE_PREFIX,
  UNSENT_HANDOVER_PATH,
  UNSENT_KEY_LABEL,
} from '../../shared/ipc/wire';
import { listUnsent, mirrorUnsent, type UnsentMessage } from './unsent';

/** Cookie values are kept under 4 KB each, and few: every request to the path carries them all. */
const CHUNK_CHARS = 3800;
const MAX_CHUNKS = 2;
const KEEP_SECONDS = 30 * 24 * 3600;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function sealingKey(secret: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${UNSENT_KEY_LABEL}${secret}`),
  );
  return crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt']);
}

async function seal(key: CryptoKey, messages: UnsentMessage[]): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify({ v: 1, messages }));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  const bytes = new Uint8Array(iv.length + sealed.length);
  bytes.set(iv);
  bytes.set(sealed, iv.length);
  return base64url(bytes);
}

function setCookie(doc: Document, name: string, value: string, maxAge: number): void {
  doc.cookie = `${name}=${value}; path=${UNSENT_HANDOVER_PATH}; max-age=${maxAge}; samesite=strict`;
}

export function installUnsentHandover(win: Window, secret: string): void {
  win.addEventListener('beforeunload', (event) => {
    if (listUnsent().length === 0) return;
    // The browser's standard "Leave site?" prompt; its text is the browser's own.
    event.preventDefault();
  });

  // Derived when there is something to seal: a page's first use of WebCrypto costs milliseconds in
  // the task that runs the app's script, which the bridge's socket waits for.
  let key: Promise<CryptoKey> | undefined;
  const sealWithKey = async (messages: UnsentMessage[]) =>
    seal(await (key ??= sealingKey(secret)), messages);
  const prefix = `${UNSENT_COOKIE_PREFIX}${win.location.port || '80'}-`;
  let writing = Promise.resolve();
  const keepCopy = (list: UnsentMessage[]) => {
    writing = writing
      .then(async () => {
        // The oldest that fit: they are handed over oldest first.
        let kept = list;
        let value = kept.length ? await sealWithKey(kept) : '';
        while (value.length > CHUNK_CHARS * MAX_CHUNKS && kept.length > 0) {
          kept = kept.slice(0, -1);
          value = kept.length ? await sealWithKey(kept) : '';
        }
        for (let chunk = 0; chunk < MAX_CHUNKS; chunk += 1) {
          const part = value.slice(chunk * CHUNK_CHARS, (chunk + 1) * CHUNK_CHARS);
          setCookie(win.document, `${prefix}${chunk}`, part, part ? KEEP_SECONDS : 0);
        }
      })
      .catch(() => undefined);
  };
  // What a launch on another port left is imported first; then this page keeps its own copy.
  void win
    .fetch(UNSENT_HANDOVER_PATH, { method: 'POST', credentials: 'same-origin' })
    .catch(() => undefined)
    .finally(() => mirrorUnsent(keepCopy));
}
