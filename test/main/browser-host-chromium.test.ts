// The browser-mode host as Debian's Chromium sees it: the exact CSP header (inline scripts refused but
// the page's early script, allowed by its hash),
// and the /media cookie set by the bridge handshake: sent with /media requests, invisible to page
// scripts (HttpOnly), SameSite=Strict. Skipped where /usr/bin/chromium is missing.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileVault } from '../../electron/accounts/vault';
import { startBrowserHost, type BrowserHost } from '../../electron/host/host';
import { contentSecurityPolicy, earlyScriptHashes } from '../../electron/host/csp';
import { MEDIA_COOKIE } from '../../shared/ipc/wire';

const CHROMIUM = '/usr/bin/chromium';

// The probe page: an own script (allowed), an inline one (must be refused by the CSP).
const PROBE_JS = `
window.probe = async () => {
  const secret = new URLSearchParams(location.hash.slice(1)).get('secret');
  const before = (await fetch('/media/nobody/user_uploads/1/x.png')).status;
  await new Promise((resolve, reject) => {
    const ws = new WebSocket('ws://' + location.host + '/bridge?secret=' + encodeURIComponent(secret));
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const after = (await fetch('/media/nobody/user_uploads/1/x.png')).status;
  return {
    before,
    after,
    cookie: document.cookie,
    inlineRan: window.inlineRan === true,
    earlyRan: window.earlyRan === true,
  };
};
`;

// The early script inline, as vite.config.ts writes it, and an unmarked inline script.
const PAGE =
  '<!doctype html><script data-first-screen>window.earlyRan = true</script>' +
  '<script src="/probe.js"></script><script>window.inlineRan = true</script>';

describe.skipIf(!existsSync(CHROMIUM))('browser-mode host in Chromium', () => {
  let dataDir: string;
  let host: BrowserHost;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tributary-chromium-'));
    const rendererDir = join(dataDir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), PAGE);
    writeFileSync(join(rendererDir, 'probe.js'), PROBE_JS);
    host = await startBrowserHost({ dataDir, vault: new FileVault(dataDir), rendererDir });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the exact CSP, and the /media cookie comes HttpOnly and SameSite=Strict from the bridge', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(host.url);
    expect(response!.headers()['content-security-policy']).toBe(
      contentSecurityPolicy({
        connect: [`ws://127.0.0.1:${host.port}`, `ws://localhost:${host.port}`],
        scripts: earlyScriptHashes(PAGE),
      }),
    );
    expect(earlyScriptHashes(PAGE)).toHaveLength(1);
    const result = (await page.evaluate('window.probe()')) as {
      before: number;
      after: number;
      cookie: string;
      inlineRan: boolean;
      earlyRan: boolean;
    };
    expect(result.earlyRan).toBe(true);
    expect(result.inlineRan).toBe(false);
    expect(result.before).toBe(401); // no cookie yet
    expect(result.after).toBe(404); // cookie accepted; there is no such account
    expect(result.cookie).not.toContain(MEDIA_COOKIE);
    const cookie = (await context.cookies()).find((c) => c.name === MEDIA_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/media' });
    // Its own token, never the bridge secret: with it a page elsewhere cannot open the bridge.
    expect(decodeURIComponent(cookie.value)).not.toBe(host.secret);
    expect(decodeURIComponent(cookie.value)).not.toContain(host.secret);
    await context.close();
  });
});
