// The page's side of the first screen: the copy of #root handed to main (what it drops, what it
// records), which launches it is for, and the hand-over rule that removes the overlay.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyOfScreen, launchKeys } from '../../../renderer/features/first-screen/capture';
import { relabelFirstScreenTimes } from '../../../renderer/lib/first-screen-times';
import { dayLabel, formatTime, lastActiveLabel, formatDate } from '../../../renderer/lib/format';
import { channelNarrow } from '../../../shared/narrow';

describe('the copy of the screen', () => {
  it('drops test ids, element ids, typed text and menus; keeps the chosen option and scroll offsets', () => {
    const root = document.createElement('div');
    root.innerHTML =
      '<div class="app"><div class="message-list"><div data-testid="message" id="m1">a medlar</div></div>' +
      '<input aria-label="Search" value="typed words"><textarea>a draft</textarea>' +
      '<select><option>#general</option><option>#design</option></select>' +
      '<div role="menu">Copy link</div></div>';
    root.querySelector('select')!.selectedIndex = 1;
    Object.defineProperty(root.querySelector('.message-list')!, 'scrollTop', { value: 480.4 });
    const html = copyOfScreen(root)!;
    expect(html).toContain('a medlar');
    expect(html).not.toContain('data-testid');
    expect(html).not.toContain('id="m1"');
    expect(html).not.toContain('typed words');
    expect(html).not.toContain('a draft');
    expect(html).not.toContain('Copy link');
    expect(html).toContain('class="message-list" data-first-screen-scroll-top="480"');
    expect(html).toMatch(/<option selected="">#design<\/option>/);
    // The live screen is untouched.
    expect(root.querySelector('[data-testid="message"]')).not.toBeNull();
    expect(root.querySelector('input')!.value).toBe('typed words');
  });

  it('is skipped when it is too large', () => {
    const root = document.createElement('div');
    root.textContent = 'x'.repeat(1_600_000);
    expect(copyOfScreen(root)).toBeNull();
  });

  it('is for its own view’s launch URL, and a plain launch when it is the home view', () => {
    expect(launchKeys({ kind: 'inbox' }, 'inbox')).toEqual(['view=inbox', '']);
    expect(launchKeys({ kind: 'inbox' }, undefined)).toEqual(['view=inbox', '']);
    expect(launchKeys({ kind: 'recent' }, 'inbox')).toEqual(['view=recent']);
    expect(launchKeys({ kind: 'narrow', narrow: [] }, 'all_messages')).toEqual(['view=all', '']);
    expect(launchKeys({ kind: 'narrow', narrow: [] }, 'recent')).toEqual(['view=all']);
    // A conversation: main adds the plain launch when it is the one it reopens.
    expect(launchKeys({ kind: 'narrow', narrow: channelNarrow(7) }, 'inbox')).toEqual([]);
    expect(launchKeys({ kind: 'settings' }, 'inbox')).toEqual([]);
  });
});

describe("the copy's times", () => {
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();
  /** A message row, a recipient bar, a date line and a Recent row, as the app draws them. */
  function screenAt(t: number): HTMLElement {
    const root = document.createElement('div');
    root.innerHTML =
      `<div class="message-row"><time class="recipient-date" datetime="${at(t)}">Today</time>` +
      `<div class="date-separator"><time aria-hidden="true" datetime="${at(t)}">Today</time></div>` +
      `<div class="sender-line"><button>Emma</button><time datetime="${at(t)}">9:00 AM</time></div>` +
      // Written by the sender in a message: the message's words, not the app's label.
      `<div class="content"><time datetime="${at(t)}">the sender's words</time></div></div>` +
      `<span class="recent-time"><time datetime="${at(t)}">Just now</time></span>`;
    return root;
  }

  it('are marked with how the app labels them, and labelled again as of the moment shown', () => {
    const taken = Math.floor(Date.UTC(2026, 0, 5, 12) / 1000);
    const html = copyOfScreen(screenAt(taken), true)!;
    expect(html.match(/data-first-screen-time="day"/g)).toHaveLength(2);
    expect(html).toContain('data-first-screen-time="time24"');
    expect(html).toContain('data-first-screen-time="ago"');
    expect(copyOfScreen(screenAt(taken), false)).toContain('data-first-screen-time="time12"');

    const shown = document.createElement('template');
    shown.innerHTML = html;
    const now = (taken + 3 * 86_400 + 7_200) * 1000;
    relabelFirstScreenTimes(shown.content, now);
    const texts = [...shown.content.querySelectorAll('time')].map((t) => t.textContent);
    expect(texts).toEqual([
      dayLabel(taken, now),
      dayLabel(taken, now),
      formatTime(taken, true),
      "the sender's words",
      lastActiveLabel(taken, now, formatDate),
    ]);
    expect(texts[0]).not.toBe('Today');
  });

  /** A screen as the app draws it at `nowMs`: each time with the app's own label then. */
  function screenLabelledAt(t: number, nowMs: number): HTMLElement {
    const root = document.createElement('div');
    root.innerHTML =
      `<div class="message-row"><time class="recipient-date" datetime="${at(t)}">${dayLabel(t, nowMs)}</time>` +
      `<div class="sender-line"><button>Emma</button><time datetime="${at(t)}">${formatTime(t, true)}</time></div></div>` +
      `<span class="recent-time"><time datetime="${at(t)}">${lastActiveLabel(t, nowMs, formatDate)}</time></span>`;
    return root;
  }

  /** Counts the Intl date formatters made from now on (each a long task in a fresh page). */
  function countFormatters(): { made: number } {
    const Real = Intl.DateTimeFormat;
    const count = { made: 0 };
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      locales?: string | string[],
      options?: Intl.DateTimeFormatOptions,
    ) {
      count.made += 1;
      return new Real(locales, options);
    } as typeof Intl.DateTimeFormat);
    return count;
  }

  /** The early script's copy of the module: its own formatters, none made yet (a fresh page). */
  async function freshTimes() {
    vi.resetModules();
    return import('../../../renderer/lib/first-screen-times');
  }

  describe('without Intl where the copy holds', () => {
    const taken = Math.floor(Date.UTC(2026, 0, 5, 12) / 1000);
    // Three days before: a weekday on the recipient bar and a date in Recent, both formats.
    const sent = taken - 3 * 86_400;
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(taken * 1000);
    });
    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    it('keeps the texts the capture vouched for, and makes no formatter, shown the same day', async () => {
      const html = copyOfScreen(screenLabelledAt(sent, taken * 1000), true)!;
      expect(html.match(/data-first-screen-formatted=/g)).toHaveLength(3);
      const times = await freshTimes();
      const formatters = countFormatters();
      const shown = document.createElement('template');
      shown.innerHTML = html;
      const now = (taken + 2 * 3_600) * 1000;
      times.relabelFirstScreenTimes(shown.content, now);
      expect(formatters.made).toBe(0);
      expect([...shown.content.querySelectorAll('time')].map((t) => t.textContent)).toEqual([
        dayLabel(sent, now),
        formatTime(sent, true),
        lastActiveLabel(sent, now, formatDate),
      ]);
    });

    it('formats what changed: a day label that moved on, moments the copy moved', async () => {
      const html = copyOfScreen(screenLabelledAt(taken - 3_600, taken * 1000), true)!;
      const times = await freshTimes();
      const formatters = countFormatters();
      const shown = document.createElement('template');
      // As main moves a first launch's copy (sanitize-screen.ts shiftFirstScreenTimes).
      shown.innerHTML = html.replaceAll(at(taken - 3_600), at(sent + 1_800));
      const now = (taken + 4 * 86_400) * 1000;
      times.relabelFirstScreenTimes(shown.content, now);
      expect(formatters.made).toBeGreaterThan(0);
      expect([...shown.content.querySelectorAll('time')].map((t) => t.textContent)).toEqual([
        dayLabel(sent + 1_800, now),
        formatTime(sent + 1_800, true),
        lastActiveLabel(sent + 1_800, now, formatDate),
      ]);
    });

    it('vouches for no text the app drew before its moment changed format', () => {
      // Drawn "Yesterday" before midnight; taken after it, when it is a weekday.
      const root = screenLabelledAt(sent, (sent + 86_400) * 1000);
      expect(copyOfScreen(root, true)).not.toMatch(/class="recipient-date"[^>]*formatted/);
    });
  });
});

describe('the hand-over', () => {
  let handoff: typeof import('../../../renderer/lib/first-screen-handoff');
  const overlay = () => document.getElementById('first-screen');

  beforeEach(async () => {
    vi.resetModules();
    handoff = await import('../../../renderer/lib/first-screen-handoff');
    delete document.documentElement.dataset.firstScreen;
    const shown = document.createElement('div');
    shown.id = 'first-screen';
    shown.dataset.view = 'inbox';
    document.body.append(shown);
  });
  afterEach(() => overlay()?.remove());

  it('keeps the overlay while the app shows its view, and removes it once that view is rendered', async () => {
    handoff.appScreenShown('inbox');
    expect(overlay()).not.toBeNull();
    handoff.chatScreenRendered();
    expect(overlay()).not.toBeNull(); // a frame later, not in the same task
    await vi.waitFor(() => expect(overlay()).toBeNull());
    expect(document.documentElement.dataset.firstScreen).toBe('done');
  });

  it('removes it at once when the app shows something else', () => {
    handoff.appScreenShown('narrow:[]');
    expect(overlay()).toBeNull();
    expect(document.documentElement.dataset.firstScreen).toBe('done');
  });

  it('removes it at once for a screen outside the chat', () => {
    handoff.appScreenShown(null);
    expect(overlay()).toBeNull();
  });
});
