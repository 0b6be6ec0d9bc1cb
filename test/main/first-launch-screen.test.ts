// A first launch's first screen (docs/first-screen.md, "A first launch from the build's seed"): the
// build made the demo's screens from the real app (scripts/demo-first-screens.ts); a first launch
// that takes the build's seed gives them to the new account, sealed with its key, before the page
// can ask, with their times moved as the realm copy moves its dates. Against the real build's
// template and the real realm process's plan. Not for a template of another stamp or another page,
// nor with --no-cache.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalRealm } from '../../electron/local-realm';
import type { MainServices } from '../../electron/services';
import { demoSeedForPlan } from '../../electron/cache/account-seed';
import { firstScreenPath } from '../../electron/first-screen/first-screen-store';
import { shiftFirstScreenTimes } from '../../electron/first-screen/sanitize-screen';
import { buildAll } from '../../scripts/build';
import { planFirstRealm } from '../../server/process/fork-realm.mjs';
import { DEMO_TEMPLATE_DIR, REALM_PROCESS_BUNDLE } from '../../server/process/supervisor';
import { readTemplateStamp } from '../../server/seed/template-stamp';
import { DEMO_FIRST_SCREENS_FILE, type DemoFirstScreens } from '../../shared/demo-seed';
import { bareMainServices } from './support/harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const templateDir = join(root, DEMO_TEMPLATE_DIR);

/** Each marked time's moment in a screen's markup, in order. */
const markedTimes = (html: string) =>
  [...html.matchAll(/<time[^>]*datetime="([^"]+)"[^>]*data-first-screen-time=/g)].map((m) =>
    Date.parse(m[1]!),
  );

describe("a first launch's first screen from the build", () => {
  const dirs: string[] = [];
  let realm: LocalRealm | null = null;
  let services: MainServices | null = null;
  let made: DemoFirstScreens;

  beforeAll(async () => {
    await buildAll();
    made = JSON.parse(readFileSync(join(templateDir, DEMO_FIRST_SCREENS_FILE), 'utf8'));
  }, 300_000);
  afterEach(async () => {
    await services?.stop();
    await realm?.stop();
    services = realm = null;
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function firstLaunch(options: { noCache?: boolean } = {}) {
    const dataDir = mkdtempSync(join(tmpdir(), 'tributary-first-screen-'));
    dirs.push(dataDir);
    return async () => {
      const plan = await planFirstRealm();
      realm = new LocalRealm({ dataDir, root, seed: 'demo', firstRealm: plan });
      services = bareMainServices(dataDir, { localRealm: realm, noCache: options.noCache });
      services.start();
      await realm.signInWhenRunning(services);
      return { dataDir, plan, account: services.accounts.list()[0]! };
    };
  }

  it('was made by the build for the plain launch and All messages, at the bench window', () => {
    expect(made.skipped).toBeUndefined();
    expect(made.stamp).toEqual(readTemplateStamp(templateDir));
    expect(made.screens.map((s) => s.keys)).toEqual([['', 'view=inbox'], ['view=all']]);
    for (const { screen } of made.screens) expect(screen.width).toBe(1280);
    // The Inbox shows no times; All messages' are marked for the first launch to move.
    expect(markedTimes(made.screens[1]!.screen.html).length).toBeGreaterThan(0);
  });

  it("is the new account's, sealed, its times moved by the copy's shift, before the page asks", async () => {
    const { dataDir, plan, account } = await firstLaunch()();
    // Signed in from the seed before the realm process listens: the page has not asked yet.
    expect(realm!.status()).toEqual({ state: 'starting' });
    const shift = plan.copyAt - made.stamp.seededAt;
    const home = services!.firstScreens.take('')!;
    expect(home.view).toBe('inbox');
    expect(services!.firstScreens.take('view=inbox')).toEqual(home);
    const all = services!.firstScreens.take('view=all')!;
    expect(all.view).toBe('narrow:[]');
    expect(services!.firstScreens.take('view=recent')).toBeNull();
    const built = markedTimes(made.screens[1]!.screen.html);
    expect(markedTimes(all.html)).toEqual(built.map((t) => t + shift * 1000));
    // Sealed with the account's key, as a kept screen is.
    const file = readFileSync(firstScreenPath(dataDir, account.id), 'utf8');
    expect(file).not.toContain('recipient-date');
  });

  it('is not given with --no-cache', async () => {
    const { dataDir, account } = await firstLaunch({ noCache: true })();
    expect(account).toBeDefined();
    expect(services!.firstScreens.take('')).toBeNull();
    expect(existsSync(firstScreenPath(dataDir, account.id))).toBe(false);
  });

  it('is given only with a template of its own stamp and the page it was made with', () => {
    const copy = mkdtempSync(join(tmpdir(), 'tributary-first-screen-build-'));
    dirs.push(copy);
    const template = {
      dir: join(copy, DEMO_TEMPLATE_DIR),
      bundle: join(root, REALM_PROCESS_BUNDLE),
    };
    const page = join(copy, 'dist/renderer/index.html');
    cpSync(templateDir, template.dir, { recursive: true, preserveTimestamps: true });
    cpSync(join(root, 'dist/renderer/index.html'), page);
    // The copied page's own time (a copy keeps it only to the millisecond or so).
    const { size, mtimeMs } = statSync(page);
    const own = { ...made, renderer: { size, mtimeMs } };
    const screens = join(template.dir, DEMO_FIRST_SCREENS_FILE);
    writeFileSync(screens, JSON.stringify(own));
    const plan = { copyAt: made.stamp.seededAt + 60 };
    const site = 'http://127.0.0.1:9';
    expect(demoSeedForPlan(template, plan, site)?.firstScreens?.screens).toHaveLength(2);

    writeFileSync(
      screens,
      JSON.stringify({ ...own, stamp: { ...made.stamp, seededAt: made.stamp.seededAt - 1 } }),
    );
    const seed = demoSeedForPlan(template, plan, site);
    expect(seed).not.toBeNull();
    expect(seed!.firstScreens).toBeUndefined();

    writeFileSync(screens, JSON.stringify(own));
    const later = new Date(Date.now() + 60_000);
    utimesSync(page, later, later);
    expect(demoSeedForPlan(template, plan, site)!.firstScreens).toBeUndefined();
  });
});

describe("moving a screen's times", () => {
  it('moves the times the app labels, not those a message says', () => {
    const html =
      '<time class="recipient-date" datetime="2026-01-05T12:00:00.000Z" data-first-screen-time="day">Monday</time>' +
      '<div class="content"><time datetime="2026-01-05T12:00:00.000Z">noon</time></div>';
    const moved = shiftFirstScreenTimes(html, 86_400 + 30);
    expect(moved).toContain('datetime="2026-01-06T12:00:30.000Z" data-first-screen-time="day"');
    expect(moved).toContain('<time datetime="2026-01-05T12:00:00.000Z">noon</time>');
  });
});
