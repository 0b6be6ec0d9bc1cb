// The app's own process dies while the page stays open (browser mode): what the person sends
// meanwhile is kept by the page, the screen says so (banner, no green account dot, "Waiting for
// Tributary"), and when the next launch comes up on the same port and secret the page reconnects
// and hands everything over: each message stored exactly once, shown as sent. A window holding such
// messages asks before it closes, and what it held reaches the next launch even on another port.
import { describe, expect, it } from 'vitest';
import { CHROMIUM, appSession, realmClient } from './support/app';
import { messageWithText, openTopic, send } from './support/ui';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const session = appSession('owner', { resumeLastLaunch: true });

const copies = async (topic: string, content: string) => {
  const res = await realmClient(session.realm, 'owner').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [{ operator: 'topic', operand: topic }],
    apply_markdown: false,
  });
  return (res.body.messages as Array<{ content: string }>).filter((m) => m.content === content)
    .length;
};

describe.skipIf(!existsSync(CHROMIUM))('the host dies with the page open', () => {
  it('keeps what is sent meanwhile and hands it over, once, to the next launch', async () => {
    const { app, page } = session;
    const topic = 'host restart';
    await openTopic(page, 'general', topic);
    await send(page, 'before the crash');
    await messageWithText(page, 'before the crash').waitFor();

    await app.stopHost();
    await expect
      .poll(() => page.getByTestId('connection-banner').textContent())
      .toContain('Tributary is not running');
    for (const text of ['typed while it was down', 'ok', 'ok']) await send(page, text);
    // Accepted and kept, and said so: nothing claims to have failed.
    await expect.poll(() => page.getByText('Waiting for Tributary to come back').count()).toBe(3);
    expect(await page.getByText(/Not sent/).count()).toBe(0);
    await expect(page.getByRole('textbox', { name: 'Message' }).inputValue()).resolves.toBe('');
    const kept = (await page.evaluate(() =>
      JSON.parse(localStorage.getItem('tributary.unsent.v1') ?? '[]'),
    )) as unknown[];
    expect(kept).toHaveLength(3);

    await app.startHost();
    await expect
      .poll(
        async () => (await copies(topic, 'typed while it was down')) + (await copies(topic, 'ok')),
        {
          timeout: 30_000,
        },
      )
      .toBe(3);
    await expect.poll(() => page.getByTestId('connection-banner').count()).toBe(0);
    await expect.poll(() => page.getByText('Waiting for Tributary').count()).toBe(0);
    await expect.poll(() => messageWithText(page, 'typed while it was down').count()).toBe(1);
    expect(await copies(topic, 'typed while it was down')).toBe(1);
    expect(await copies(topic, 'ok')).toBe(2);
    expect(await copies(topic, 'before the crash')).toBe(1);
    const left = (await page.evaluate(() => localStorage.getItem('tributary.unsent.v1'))) as
      string | null;
    expect(left).toBeNull();
  });

  it('asks before closing with messages held, and hands them to a launch on another port', async () => {
    const { app, page } = session;
    const topic = 'another port';
    await openTopic(page, 'general', topic);
    await send(page, 'sent before');
    await messageWithText(page, 'sent before').waitFor();
    const oldPort = app.host.port;

    await app.stopHost();
    await expect
      .poll(() => page.getByTestId('connection-banner').textContent())
      .toContain('Tributary is not running');
    for (const text of ['held across ports', 'held too']) await send(page, text);
    await expect.poll(() => page.getByText('Waiting for Tributary to come back').count()).toBe(2);

    // Closing asks first (the browser's leave-page prompt); staying keeps the window.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => asked).toEqual(['beforeunload']);
    expect(page.isClosed()).toBe(false);

    // The person closes it anyway, and the next launch cannot have the old port.
    const context = page.context();
    await page.close();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(oldPort, '127.0.0.1', resolve));
    try {
      await app.startHost();
      expect(app.host.port).not.toBe(oldPort);
      const next = await context.newPage();
      await next.goto(app.url);
      await next.getByRole('navigation', { name: 'Conversations' }).waitFor();
      await expect
        .poll(
          async () =>
            (await copies(topic, 'held across ports')) + (await copies(topic, 'held too')),
          {
            timeout: 30_000,
          },
        )
        .toBe(2);
      expect(await copies(topic, 'held across ports')).toBe(1);
      expect(await copies(topic, 'sent before')).toBe(1);
      // Handed over: nothing is left to import, and the new window has nothing to ask about.
      const again = (await next.evaluate(async () =>
        (await fetch('/unsent-handover', { method: 'POST' })).json(),
      )) as { handedOver: number };
      expect(again.handedOver).toBe(0);
      await next.close({ runBeforeUnload: true });
      await expect.poll(() => next.isClosed()).toBe(true);
    } finally {
      blocker.close();
    }
  });
});
