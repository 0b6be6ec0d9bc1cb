// Electron's side of the audio stream, without Electron: the media protocol handler (given a stand-in
// for `protocol`) sends tributary-media://meeting-audio/<token> to the verified streams with their
// Range headers, and every other host to the realm media fetcher as before.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mediaUrlForToken } from '../../shared/ipc/manifest';
import { MEDIA_SCHEME } from '../../shared/ipc/wire';
import { registerMediaProtocol } from '../../electron/shell/app-protocol';
import { MeetingAudioStreams, serveMeetingAudioRequest } from '../../electron/manifest-service';
import { fileIdentity } from '../../electron/manifest';

const AUDIO = join(
  resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/fixtures/manifests'),
  'weekly-planning',
  'recording.opus',
);

function protocolHandler(streams: MeetingAudioStreams) {
  const realm: string[] = [];
  let handler: ((request: Request) => Promise<Response>) | null = null;
  registerMediaProtocol(
    {
      handle: (scheme: string, h: (request: Request) => Promise<Response>) => {
        expect(scheme).toBe(MEDIA_SCHEME);
        handler = h;
      },
    } as never,
    async (accountId, path) => {
      realm.push(`${accountId}:${path}`);
      return new Response('realm', { status: 200 });
    },
    (request) => serveMeetingAudioRequest(streams, request),
  );
  return { realm, handle: (request: Request) => handler!(request) };
}

describe('tributary-media://meeting-audio/<token>', () => {
  const streams = new MeetingAudioStreams();
  const token = streams.register({
    kind: 'file',
    path: AUDIO,
    identity: fileIdentity(statSync(AUDIO)),
  });
  const url = mediaUrlForToken(token, 'app:', MEDIA_SCHEME);

  it('builds the Electron URL from a token and the browser-mode path otherwise', () => {
    expect(url).toBe(`tributary-media://meeting-audio/${token}`);
    expect(mediaUrlForToken(token, 'http:', MEDIA_SCHEME)).toBe(`/media/meeting-audio/${token}`);
  });

  it('serves ranges of the verified file through the protocol handler', async () => {
    const { handle, realm } = protocolHandler(streams);
    const file = readFileSync(AUDIO);
    const response = await handle(new Request(url, { headers: { range: 'bytes=10-19' } }));
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 10-19/${file.length}`);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(file.subarray(10, 20));
    expect(realm).toEqual([]);
  });

  it('refuses unknown tokens and leaves other hosts to the realm media fetcher', async () => {
    const { handle, realm } = protocolHandler(streams);
    const unknown = await handle(new Request(`${MEDIA_SCHEME}://meeting-audio/${'x'.repeat(43)}`));
    expect(unknown.status).toBe(404);
    const other = await handle(new Request(`${MEDIA_SCHEME}://0123abcd/user_uploads/1/a.png`));
    expect(other.status).toBe(200);
    expect(realm).toEqual(['0123abcd:user_uploads/1/a.png']);
  });
});
