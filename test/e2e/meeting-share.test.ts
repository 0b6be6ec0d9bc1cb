// The meeting viewer's verdict and "Share to a conversation…" in Chromium against browser mode and the
// real realm: an invalid manifest whose audio matches shows "Manifest has errors" with nothing green
// and plays only after "Play anyway"; a verified meeting is shared to a topic from the viewer, and
// another user downloads every upload of the message over REST and gets the same bytes. The page
// itself never requests the chat server.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSession, realmClient } from './support/app';
import { INVALID, WEEKLY, WEEKLY_SHARED_FILES } from '../manifest/support/fixtures';

/** Screenshots of what a person sees, for looking at (not compared). */
const SHOTS = join(tmpdir(), 'tributary-e2e-screenshots');

const s = appSession('owner');

describe('meeting viewer: one verdict, and sharing to a conversation', () => {
  it('an invalid manifest with matching audio: errors first, nothing green, "Play anyway"', async () => {
    const { page, app } = s;
    app.host.services.requestOpenManifest(join(INVALID, 'bad-patterns.json'));
    const verdict = page.getByTestId('manifest-verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-kind')).toBe('invalid');
    const text = (await verdict.textContent()) ?? '';
    expect(text).toContain('Manifest has errors');
    expect(text).toContain('/meeting/createdAtUtc');
    expect(text).toContain('/meeting/roomId');
    expect(await page.locator('.manifest-verdict-good, .manifest-integrity-verified').count()).toBe(
      0,
    );
    expect(await page.locator('audio').count()).toBe(0);

    await page.getByRole('button', { name: 'Play anyway' }).click();
    await page.getByTestId('manifest-audio').waitFor();
    await page.getByTestId('playing-anyway').waitFor();
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'meeting-invalid-verdict.png') });
  });

  it('shares a verified meeting to a topic; every uploaded byte matches', async () => {
    const { page, app, realm } = s;
    const chatServerRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).port === String(realm.port))
        chatServerRequests.push(request.url());
    });
    app.host.services.requestOpenManifest(join(WEEKLY, 'manifest.json'));
    await page.getByTestId('manifest-verdict').filter({ hasText: 'Verified recording' }).waitFor();

    await page.getByRole('button', { name: 'Share to a conversation…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share to a conversation' });
    const files = dialog.getByRole('list', { name: 'Files to share' }).getByRole('listitem');
    await files.first().waitFor();
    expect(await files.count()).toBe(6);
    await dialog.getByRole('combobox', { name: 'Channel' }).selectOption({ label: '#general' });
    await dialog.getByRole('textbox', { name: 'Topic' }).fill('planning recordings');
    await page.screenshot({ path: join(SHOTS, 'meeting-share-dialog.png') });
    await dialog.getByRole('button', { name: 'Share' }).click();
    await dialog.getByTestId('share-done').waitFor({ timeout: 60_000 });
    expect(await dialog.getByTestId('share-done').textContent()).toContain(
      '#general > planning recordings',
    );

    // Another user reads the one message over REST and downloads every linked upload.
    const emma = realmClient(realm, 'emma');
    const res = await emma.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      apply_markdown: false,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'planning recordings' },
      ]),
    });
    const messages = res.body.messages as Array<{ content: string }>;
    expect(messages).toHaveLength(1);
    const [summary, ...links] = messages[0].content.split('\n');
    expect(summary).toBe('Meeting recording: Weekly planning (20.5 s)');
    const linked = links.map((line) => /^\[([^\]]+)\]\((\/user_uploads\/[^)]+)\)$/.exec(line));
    expect(linked.map((m) => m?.[1])).toEqual(WEEKLY_SHARED_FILES);
    for (const match of linked) {
      const [, name, url] = match!;
      const download = await fetch(`${realm.url}${url}`, {
        headers: { authorization: emma.authHeader! },
      });
      expect(download.status, name).toBe(200);
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.equals(readFileSync(join(WEEKLY, name))), name).toBe(true);
    }
    expect(chatServerRequests).toEqual([]);
  });
});
