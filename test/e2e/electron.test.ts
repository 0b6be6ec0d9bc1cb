// The desktop app itself, where the Electron runtime is installed (node_modules/electron/dist):
// the built main process signs in to the real local realm server as the demo owner, shows history,
// sends a message, and never runs hostile message HTML. Skipped where the runtime is absent (as on
// the project's build machines, which cannot download it); the browser-mode tests cover the same
// renderer and main-process services there.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { ensureBuilt, startRealm, type Realm } from './support/app';
import { credentialsPath } from '../../server/seed/credentials';
import { messageWithText, openTopic, send, type PageWindow } from './support/ui';
import { encodeHashComponent } from '../../shared/narrow/link';

declare const window: PageWindow;

const ELECTRON = join(process.cwd(), 'node_modules/electron/dist/electron');
const hasElectron = existsSync(ELECTRON);

/** The built main process on its own data folder, signed in to the local realm at first start. */
const mainArgs = (realm: Realm, dataDir: string) => [
  join(process.cwd(), 'dist/electron/main.cjs'),
  '--no-sandbox',
  '--data',
  dataDir,
  '--local-realm',
  realm.url,
  '--local-realm-credentials',
  credentialsPath(realm.dir),
];

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
      args: mainArgs(realm, dataDir),
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

// The desktop shell in the real app: a deep link given at launch and one a second launch hands over
// (single instance), the Help menu, and zoom from the View menu remembered in the preferences file.
describe.skipIf(!hasElectron)('desktop shell (Electron) end to end', () => {
  let realm: Realm;
  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;
  const firstOf = (channel: string) => {
    const row = realm.server.db
      .prepare(
        'SELECT m.id, m.topic, c.id AS channel_id FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = ? ORDER BY m.id LIMIT 1',
      )
      .get(channel) as { id: number; topic: string; channel_id: number };
    return {
      heading: `#${channel} > ${row.topic}`,
      link:
        `tributary://127.0.0.1:${realm.port}/#narrow/channel/${row.channel_id}-${channel}` +
        `/topic/${encodeHashComponent(row.topic)}/near/${row.id}`,
    };
  };

  beforeAll(async () => {
    await ensureBuilt();
    realm = await startRealm();
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-e2e-electron-shell-'));
    app = await _electron.launch({
      executablePath: ELECTRON,
      args: [...mainArgs(realm, dataDir), '--open', firstOf('random').link],
    });
    page = await app.firstWindow();
  });

  afterAll(async () => {
    await app?.close();
    await realm?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens a deep link given at launch', async () => {
    await page.getByRole('heading', { name: firstOf('random').heading }).waitFor();
  });

  it('a second launch hands its link to the running app and quits', async () => {
    const target = firstOf('general');
    const second = spawn(
      ELECTRON,
      [...mainArgs(realm, dataDir), target.link.replace('tributary:', 'zulip:')],
      {
        stdio: 'ignore',
      },
    );
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(0);
    await page.getByRole('heading', { name: target.heading }).waitFor();
  });

  it('has a Help menu, and View > Zoom In is remembered', async () => {
    const help = await app.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()
        ?.items.find((item) => item.role === 'help')
        ?.submenu?.items.map((item) => item.label),
    );
    expect(help).toEqual(expect.arrayContaining(['Keyboard Shortcuts', 'Report an Issue…']));
    await app.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()
        ?.items.find((item) => item.label === 'View')
        ?.submenu?.items.find((item) => item.label === 'Zoom In')
        ?.click(),
    );
    await expect
      .poll(() => {
        try {
          return JSON.parse(readFileSync(join(dataDir, 'desktop-preferences.json'), 'utf8'))
            .zoomFactor;
        } catch {
          return null;
        }
      })
      .toBe(1.1);
    expect(
      await app.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows()[0]!.webContents.getZoomFactor(),
      ),
    ).toBeCloseTo(1.1);
  });
});
