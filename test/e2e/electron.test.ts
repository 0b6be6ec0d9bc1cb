// The desktop app itself, where the Electron runtime is installed (node_modules/electron/dist):
// the built main process signs in to the real local realm server as the demo owner, shows history,
// sends a message, and never runs hostile message HTML. Skipped where the runtime is absent (as on
// the project's build machines, which cannot download it); the browser-mode tests cover the same
// renderer and main-process services there.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { ensureBuilt, startRealm, type Realm } from './support/app';
import { credentialsPath } from '../../server/seed/credentials';
import { messageWithText, openTopic, send, type PageWindow } from './support/ui';

declare const window: PageWindow;

const ELECTRON = join(process.cwd(), 'node_modules/electron/dist/electron');
const hasElectron = existsSync(ELECTRON);

describe.skipIf(!hasElectron)('desktop app (Electron) end to end', () => {
  let realm: Realm;
  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    await ensureBuilt();
    realm = await startRealm();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-e2e-electron-'));
    app = await _electron.launch({
      executablePath: ELECTRON,
      args: [
        join(process.cwd(), 'dist/electron/main.cjs'),
        '--no-sandbox',
        '--data',
        dataDir,
        '--local-realm',
        realm.url,
        '--local-realm-credentials',
        credentialsPath(realm.dir),
      ],
    });
    page = await app.firstWindow();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
  });

  afterAll(async () => {
    await app?.close();
    await realm?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows history and sends a message', async () => {
    // The app opens on the user's home view (Inbox by default): history is under All messages.
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^All messages/ })
      .click();
    await page.getByTestId('message').first().waitFor();
    await openTopic(page, 'general', 'electron e2e');
    await send(page, 'Sent from the desktop app');
    await messageWithText(page, 'Sent from the desktop app').waitFor();
  });

  it('never runs hostile message HTML', async () => {
    // A hostile server: an old message the app has not loaded yet gets a script-bearing rendering,
    // so opening its topic fetches it fresh.
    const old = realm.server.db
      .prepare(
        "SELECT m.id, m.topic FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = 'random' ORDER BY m.id LIMIT 1",
      )
      .get() as { id: number; topic: string };
    realm.server.db
      .prepare('UPDATE messages SET rendered_content = ? WHERE id = ?')
      .run(
        '<p>hostile <img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">click me</a></p>',
        old.id,
      );
    await openTopic(page, 'random', old.topic);
    const row = messageWithText(page, 'hostile');
    await row.waitFor();
    await row.getByText('click me').click();
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await row.innerHTML()).not.toMatch(/onerror|javascript:/i);
  });
});
