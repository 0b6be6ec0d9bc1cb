// The browser-mode page's /media cookie, as the host issues it: on a bridge handshake made with the
// bridge secret from our own origin (electron/host/media-credential.ts). Returns the Cookie header
// value, for requests that then pass as the app's own page.
import WebSocket from 'ws';
import { MEDIA_COOKIE } from '../../../shared/ipc/wire';

export function mediaCookie(port: number, secret: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}/bridge?secret=${encodeURIComponent(secret)}`,
      { origin: `http://127.0.0.1:${port}` },
    );
    socket.on('upgrade', (res) => {
      const header = [res.headers['set-cookie'] ?? []].flat().join(';');
      socket.close();
      const token = new RegExp(`${MEDIA_COOKIE}=([^;]+)`).exec(header)?.[1];
      if (token) resolve(`${MEDIA_COOKIE}=${token}`);
      else reject(new Error('the handshake set no media cookie'));
    });
    socket.on('error', reject);
  });
}

/** Headers of a request the browser marks as coming from the app's own page. */
export const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' } as const;
