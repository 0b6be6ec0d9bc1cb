// Meetings shared in chat, end to end in Chromium against browser mode and the real realm: another
// user uploads a manifest with its recording and transcripts over REST (POST /user_uploads) and posts
// a message linking them; the reader sees a meeting card, opens it in the viewer (main downloads and
// checks it), it plays only when verified, and the card then shows the verdict. The page itself
// never sends a request to the chat server: every request it makes is recorded and checked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEEKLY_SHARED_FILES, REENCODED, WEEKLY } from '../manifest/support/fixtures';
import { appSession, realmClient } from './support/app';
import { openTopic } from './support/ui';

/** The files beside the manifest (weekly-planning and its variants). */
const PAYLOADS = WEEKLY_SHARED_FILES.slice(1);

const session = appSession('owner');
/** Every URL the page requested. */
const requested: string[] = [];

/** Uploads a file as dev over REST; its `/user_uploads/…` path. */
async function upload(name: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  const res = await fetch(`${session.realm.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: realmClient(session.realm, 'dev').authHeader! },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

/** Posts a message as dev in #general linking the files (names from the folder) under `topic`. */
async function postMeeting(topic: string, folder: string, names: string[]): Promise<void> {
  const links: string[] = [];
  for (const name of names) {
    const path = await upload(name, readFileSync(join(folder, name)));
    links.push(`[${name}](${path})`);
  }
  const res = await realmClient(session.realm, 'dev').post('/messages', {
    type: 'stream',
    to: 'general',
    topic,
    content: `Recording of today's meeting:\n${links.join('\n')}`,
  });
  expect(res.status).toBe(200);
}

const card = (page: Page) => page.getByTestId('meeting-card');

/** Back from the viewer when a failed test left it open, then the topic. */
async function showTopic(page: Page, topic: string): Promise<void> {
  const back = page.locator('.screen-bar').getByRole('button', { name: 'Back' });
  if (await back.count()) await back.click();
  await openTopic(page, 'general', topic);
}

beforeAll(() => {
  session.page.on('request', (request) => requested.push(request.url()));
});

describe('a meeting shared in a message', () => {
  it('shows a card, opens verified in the viewer with its recording loaded; the card then shows the verdict', async () => {
    await postMeeting('weekly planning', WEEKLY, ['manifest.json', ...PAYLOADS]);
    const { page } = session;
    await showTopic(page, 'weekly planning');
    await card(page).waitFor();
    await expect(card(page).getByText('Weekly planning', { exact: true }).count()).resolves.toBe(1);
    const text = await card(page).textContent();
    expect(text).toContain('Ana, Ben');
    expect(text).toContain('en, es');
    expect(text).toContain('0:20');
    await expect(page.getByTestId('meeting-card-verdict').textContent()).resolves.toMatch(
      /^Not checked yet/,
    );

    await card(page).getByRole('button', { name: 'Open in meeting viewer' }).click();
    const audio = page.getByTestId('manifest-audio');
    await audio.waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('playback-refused').count()).resolves.toBe(0);
    // The element loads the verified stream from main: its length is the recording's 20.45 s.
    await expect
      .poll(() => audio.evaluate((element: unknown) => (element as { duration: number }).duration))
      .toBeGreaterThan(20);

    await page.getByRole('button', { name: 'Back' }).click();
    await expect
      .poll(() => page.getByTestId('meeting-card-verdict').textContent())
      .toBe('Verified recording');
  });

  it('a re-encoded recording opens without playback, and its card says the audio does not belong', async () => {
    await postMeeting('re-encoded', REENCODED, ['manifest.json', ...PAYLOADS]);
    const { page } = session;
    await showTopic(page, 're-encoded');
    await card(page).getByRole('button', { name: 'Open in meeting viewer' }).click();
    await page.getByTestId('playback-refused').waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('manifest-audio').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect
      .poll(() => page.getByTestId('meeting-card-verdict').textContent())
      .toBe('Audio does not belong to this manifest');
  });

  it('says which referenced files the message does not link', async () => {
    await postMeeting('manifest alone', WEEKLY, ['manifest.json', 'transcript.raw.vtt']);
    const { page } = session;
    await showTopic(page, 'manifest alone');
    await expect
      .poll(() => page.getByTestId('meeting-card-missing').textContent())
      .toBe(
        'Not linked in this message: transcript.corrected.json, transcript.es.txt, transcript.readable.txt, recording.opus',
      );
  });

  it('the page made no request to the chat server', () => {
    const realmOrigin = new URL(session.realm.url).origin;
    const appOrigin = new URL(session.app.url).origin;
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => url.startsWith(realmOrigin))).toEqual([]);
    // Everything came from the app's own host (its page, bridge and media routes) or was inline.
    expect(
      requested.filter((url) => !url.startsWith(appOrigin) && !/^(data|blob):/.test(url)),
    ).toEqual([]);
  });
});
