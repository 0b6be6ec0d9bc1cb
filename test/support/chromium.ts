// Debian's Chromium, driven by playwright-core (Playwright's own browser download is not reachable
// here). The flags keep a headless root run from reaching for the network or a sandbox it can't have;
// shared by the end-to-end tests and the browser benchmarks.
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium 15x's headless windows each load the omnibox's popups as WebUI pages in a renderer of
  // their own (chrome://omnibox-popup.top-chrome/), which headless never shows: about a second of
  // CPU per new browser context, taken from the page under test on a 2-core machine.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

export function launchChromium(
  extraArgs: string[] = [],
  options: LaunchOptions = {},
): Promise<Browser> {
  return chromium.launch({
    ...options,
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}
