// `npm run screenshots`: pictures of the main screens for the README and for looking at the layout.
// It starts what the end-to-end tests start (test/e2e/support/app.ts): a fresh demo realm and the
// browser-mode app in temporary folders, signed in as the demo owner, and drives Debian's Chromium
// to each screen at 800, 1,024 and 1,400 px wide, in the light and the dark theme (the browser's
// colour scheme, which the demo owner's "automatic" theme follows). Files:
// docs/screenshots/<screen>-<width>-<theme>.png; only the few the README shows are committed.
//
//   npm run screenshots -- [--only inbox,topic] [--widths 1400] [--themes light] [--out DIR]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import {
  launchChromium,
  openApp,
  startApp,
  startRealm,
  type App,
  type Realm,
} from '../test/e2e/support/app';
import { composeBox, messageWithText, openSettings, openTopic, send } from '../test/e2e/support/ui';
import { haveShared, sharedPath } from '../test/support/shared-fixtures';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Window sizes: the three widths the layout is judged at, each at a usual height for it. */
const WINDOWS = [
  { width: 800, height: 600 },
  { width: 1024, height: 768 },
  { width: 1400, height: 900 },
] as const;
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** The meeting the viewer shows: a manifest of the spec's fixtures, read in place (`../shared`). */
const MEETING = 'fixtures/manifests/weekly-planning/manifest.json';

interface Screen {
  name: string;
  /** Brings the freshly loaded app to the screen and waits until it shows. */
  show(page: Page, app: App, realm: Realm): Promise<void>;
  /** Puts back what showing it changed (the server it stopped), after the picture. */
  after?(page: Page, app: App, realm: Realm): Promise<void>;
}

/** The conversation sidebar, opened from its top-bar button where the window is too narrow for it. */
async function showSidebar(page: Page): Promise<void> {
  const toggle = page
    .getByRole('banner')
    .getByRole('button', { name: 'Conversations', exact: true });
  if (await toggle.count()) await toggle.click();
  await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
}

const SCREENS: Screen[] = [
  {
    name: 'inbox',
    async show(page, app) {
      await load(page, app, 'inbox');
      await page.getByRole('main').getByRole('heading', { name: 'Inbox' }).waitFor();
    },
  },
  {
    name: 'topic',
    async show(page) {
      await openTopic(page, 'design', 'dark mode');
      await page.getByTestId('message').first().waitFor();
    },
  },
  {
    // An administrator's "Delete topic" from the sidebar's topic menu: the confirm naming the topic.
    name: 'delete-topic',
    async show(page) {
      await openTopic(page, 'design', 'dark mode');
      await showSidebar(page);
      await page
        .getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Topic dark mode options' })
        .click();
      await page.getByRole('menuitem', { name: 'Delete topic' }).click();
      await page.getByRole('alertdialog', { name: 'Delete topic' }).waitFor();
    },
  },
  {
    // Editing in place: the row's content gives way to the edit box.
    name: 'edit-message',
    async show(page) {
      await openTopic(page, 'design', 'dark mode');
      await send(page, 'A message I am about to edit');
      const row = messageWithText(page, 'A message I am about to edit').last();
      await row.hover();
      await row.getByRole('button', { name: 'Message actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit message' }).click();
      await page.getByRole('textbox', { name: 'Edit message content' }).waitFor();
    },
  },
  {
    name: 'scheduled',
    async show(page) {
      await showSidebar(page);
      await page
        .getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Scheduled messages' })
        .click();
      await page.getByRole('region', { name: 'Reminders' }).waitFor();
    },
  },
  {
    name: 'recent',
    async show(page, app) {
      await load(page, app, 'recent');
      await page.getByRole('main').getByRole('heading', { name: 'Recent conversations' }).waitFor();
    },
  },
  {
    // A row's bell open (mute, default, follow), keyboard-focused as ←/→ leave it.
    name: 'recent-bell',
    async show(page, app) {
      await load(page, app, 'recent');
      const row = page.getByRole('grid', { name: 'Recent conversations' }).getByRole('row').nth(1);
      await row.getByRole('button', { name: /this topic/ }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'recent-topics-menu',
    async show(page, app) {
      await load(page, app, 'recent');
      await page.getByRole('button', { name: /^Topics shown:/ }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'search',
    async show(page) {
      const search = page.getByRole('combobox', { name: 'Search messages' });
      await search.fill('review');
      await search.press('Enter');
      await page.getByTestId('message').first().waitFor();
    },
  },
  {
    name: 'compose-preview',
    async show(page) {
      await openTopic(page, 'general', 'release 1.2');
      await (
        await composeBox(page)
      ).fill(
        'Release notes are up, @**Emma Member** :tada:\n\n' +
          '- **faster** start-up\n- `npm test` is green\n\n' +
          '```ts\nconst answer = 42;\n```\n\n$$e^{i\\pi} + 1 = 0$$',
      );
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.locator('.katex').first().waitFor();
    },
  },
  {
    name: 'user-card',
    async show(page) {
      await openTopic(page, 'design', 'dark mode');
      await page
        .getByTestId('message')
        .getByRole('button', { name: 'Emma Member', exact: true })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'User card: Emma Member' }).waitFor();
    },
  },
  {
    name: 'settings-personal',
    show: (page) => openSettings(page, 'Preferences'),
  },
  {
    name: 'settings-organization',
    show: (page) => openSettings(page, 'Users'),
  },
  {
    name: 'settings-offline',
    show: (page) => openSettings(page, 'Offline'),
  },
  {
    name: 'channel-browser',
    async show(page) {
      await showSidebar(page);
      await page
        .getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Browse channels' })
        .click();
      await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    },
  },
  {
    name: 'meeting-viewer',
    async show(page, app) {
      // As `npm start -- path/to/manifest.json` hands it over: a launch request the page takes.
      app.host.services.requestOpenManifest(sharedPath(MEETING));
      await page.reload();
      await page.getByRole('heading', { name: 'Weekly planning' }).waitFor();
    },
  },
  {
    name: 'emoji-picker',
    async show(page) {
      await openTopic(page, 'design', 'dark mode');
      const message = page.getByTestId('message').last();
      await message.hover();
      await message.getByRole('button', { name: 'Add reaction' }).click();
      await page.getByRole('dialog', { name: 'Emoji picker' }).waitFor();
    },
  },
  {
    name: 'status-editor',
    async show(page) {
      await page.getByRole('button', { name: 'Set status', exact: true }).click();
      await page.getByRole('dialog', { name: 'Set status' }).waitFor();
    },
  },
  {
    name: 'shortcut-help',
    async show(page) {
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    },
  },
  {
    name: 'switcher',
    async show(page) {
      await page.keyboard.press('Control+Shift+K');
      await page.getByPlaceholder('Go to a channel, topic or person').waitFor();
    },
  },
  {
    name: 'schedule-send',
    async show(page) {
      await openTopic(page, 'general', 'release 1.2');
      await (await composeBox(page)).fill('For tomorrow morning');
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.getByRole('dialog', { name: 'Schedule message' }).waitFor();
    },
  },
  {
    name: 'search-suggestions',
    async show(page) {
      await page.getByRole('combobox', { name: 'Search messages' }).fill('de');
      await page.getByRole('listbox', { name: 'Search suggestions' }).waitFor();
    },
  },
  {
    name: 'sign-in',
    async show(page) {
      await page.getByRole('button', { name: 'Add account' }).click();
      await page.getByRole('heading', { name: 'Sign in to a chat server' }).waitFor();
    },
  },
  {
    // Last: it stops the realm's server, and the app needs a moment to find it back.
    name: 'offline-pill',
    async show(page, _app, realm) {
      await realm.stop();
      await page.getByTestId('offline-indicator').waitFor({ timeout: 30_000 });
    },
    async after(page, _app, realm) {
      await realm.restart();
      await page.getByTestId('offline-indicator').waitFor({ state: 'detached', timeout: 60_000 });
    },
  },
];

/** Loads the app afresh (optionally on a view the launch URL names) and waits for the shell. */
async function load(page: Page, app: App, view?: 'inbox' | 'recent'): Promise<void> {
  await page.goto('about:blank');
  await page.goto(view ? `${app.url}&view=${view}` : app.url);
  await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
}

/** Lets the screen finish drawing: fonts, images that are loading, the next two frames. */
async function settle(page: Page): Promise<void> {
  // Bounded: a page the browser throttles may never run a frame, and then the picture is taken as is.
  await page.evaluate(async () => {
    const doc = (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } })
      .document;
    const drawn = (async () => {
      await doc.fonts.ready;
      for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
    })();
    await Promise.race([drawn, new Promise((done) => setTimeout(done, 3000))]);
  });
  await page.waitForTimeout(400); // transitions and the list's idle-time rows
}

/** A screenshot as a palette PNG: a third of the size, and the same picture for flat UI colours. */
async function save(page: Page, file: string): Promise<void> {
  await sharp(await page.screenshot())
    .png({ palette: true, quality: 90, effort: 8 })
    .toFile(file);
}

function list<T extends string>(value: string | undefined, all: readonly T[]): T[] {
  if (!value) return [...all];
  const chosen = value.split(',').map((v) => v.trim());
  const unknown = chosen.filter((v) => !all.includes(v as T));
  if (unknown.length)
    throw new Error(`unknown: ${unknown.join(', ')} (choose from ${all.join(', ')})`);
  return chosen as T[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      widths: { type: 'string' },
      themes: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      [
        'npm run screenshots -- [--only SCREEN,...] [--widths 800,1024,1400] [--themes light,dark] [--out DIR]',
        `screens: ${SCREENS.map((s) => s.name).join(', ')}`,
        `default folder: ${join(root, 'docs/screenshots')}`,
      ].join('\n'),
    );
    return;
  }
  const names = list(
    values.only,
    SCREENS.map((s) => s.name),
  );
  const widths = list(
    values.widths,
    WINDOWS.map((w) => String(w.width)),
  );
  const themes = list<Theme>(values.themes, THEMES);
  const out = values.out ?? join(root, 'docs/screenshots');
  mkdirSync(out, { recursive: true });
  const screens = SCREENS.filter((s) => names.includes(s.name)).filter(
    (s) => s.name !== 'meeting-viewer' || haveShared(MEETING),
  );

  let realm: Realm | undefined;
  let app: App | undefined;
  let browser: Browser | undefined;
  const failed: string[] = [];
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await realm?.close().catch(() => undefined);
  };
  // Ctrl+C still removes the temporary realm and app folders and stops their servers.
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    realm = await startRealm();
    app = await startApp(realm, 'owner');
    browser = await launchChromium();
    for (const window of WINDOWS.filter((w) => widths.includes(String(w.width)))) {
      for (const theme of themes) {
        const page = await openApp(browser, app, { viewport: window, colorScheme: theme });
        for (const screen of screens) {
          const file = join(out, `${screen.name}-${window.width}-${theme}.png`);
          try {
            await load(page, app);
            await screen.show(page, app, realm);
            await settle(page);
            await save(page, file);
            console.log(`wrote ${file}`);
            await screen.after?.(page, app, realm);
          } catch (error) {
            // Keep going: a screen that cannot be reached at one width is itself a finding.
            await save(page, file).catch(() => undefined);
            await screen.after?.(page, app, realm).catch(() => undefined);
            const reason = (error as Error).message.split('\n')[0];
            failed.push(`${screen.name} at ${window.width} px, ${theme}: ${reason}`);
            console.error(`could not show ${screen.name} (${window.width}, ${theme}): ${reason}`);
          }
        }
        await page.context().close();
      }
    }
  } finally {
    await stop();
  }
  if (failed.length) {
    console.error(`\n${failed.length} screen(s) not reached (their file shows where it stopped):`);
    for (const line of failed) console.error(`- ${line}`);
    process.exitCode = 1;
  }
}

await main();
