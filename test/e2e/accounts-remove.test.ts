// Issue #19 part 1, as a person does it in Chromium against the real local server: two accounts on
// one organization are told apart in the account rail; Settings > Accounts lists them; removing one
// from the rail's ⋯ menu first shows what would be lost (a message the server refused, still in the
// outbox) and removes its files; the other account goes on hearing the server; removing the last
// (from the right-click menu, in an 800×600 window) lands on the sign-in screen.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSession, realmClient } from './support/app';
import { closeSettings, messageWithText, openSettings, type PageWindow } from './support/ui';

declare const window: PageWindow;

const session = appSession('owner');
const page = () => session.page;
const rail = () => page().getByRole('navigation', { name: 'Accounts' });

describe('removing accounts', () => {
  it('tells two accounts apart, asks before removing, and leaves the other running', async () => {
    const { realm, app } = session;
    const owner = realm.user('owner');
    const emma = realm.user('emma');
    const second = await app.host.services.addAccount({
      site: realm.url,
      email: emma.email,
      apiKey: emma.api_key,
      allowWeakEncryption: true,
    });
    const realmName = second.realmName;
    const ownerButton = rail().getByRole('button', {
      name: `${owner.full_name} at ${realmName}`,
      exact: true,
    });
    const emmaButton = rail().getByRole('button', {
      name: `${emma.full_name} at ${realmName}`,
      exact: true,
    });
    await ownerButton.waitFor();
    await emmaButton.waitFor();
    // One organization, one icon; the person on it differs.
    const badges = rail().locator('.account-avatar');
    await expect.poll(() => badges.count()).toBe(2);
    const looks = await badges.evaluateAll((els) =>
      els.map((el) => `${el.textContent}|${(el as HTMLElement).style.backgroundColor}`),
    );
    expect(new Set(looks).size).toBe(2);

    // Settings > Accounts lists both; Esc leaves the confirmation without removing anything.
    await openSettings(page(), 'Accounts');
    const list = page().getByRole('region', { name: 'Accounts', exact: true });
    await list
      .getByRole('listitem', { name: `${emma.full_name} at ${realmName}`, exact: true })
      .waitFor();
    await list
      .getByRole('listitem', { name: `${emma.full_name} at ${realmName}`, exact: true })
      .getByRole('button', { name: 'Sign out and remove…' })
      .click();
    const dialog = page().getByRole('alertdialog');
    await dialog
      .getByRole('heading', { name: `Sign out and remove ${emma.full_name} at ${realmName}?` })
      .waitFor();
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(app.host.services.listAccounts().accounts).toHaveLength(2);
    // Settings cover the window, the account rail too: closed, as a person would.
    await closeSettings(page());

    // A message the server refuses stays in the owner's outbox, failed: the removal lists it first.
    await page().evaluate(
      (accountId) =>
        window.tributary
          .sendMessage({
            accountId,
            message: {
              type: 'channel',
              to: 'no such channel',
              topic: 'x',
              content: 'Words to keep',
            },
          })
          .catch(() => null),
      app.accountId,
    );
    await expect
      .poll(
        async () =>
          (await app.host.services.handlers.getOutbox({ accountId: app.accountId })).length,
      )
      .toBe(1);

    await ownerButton.hover();
    await rail()
      .getByRole('button', { name: `Menu of ${owner.full_name} at ${realmName}` })
      .click();
    await page().getByRole('menuitem', { name: 'Sign out and remove…' }).click();
    const unsent = dialog.getByRole('list', { name: 'Unsent messages' });
    await unsent.getByText('Words to keep').waitFor();
    await dialog.getByRole('button', { name: 'Copy them' }).waitFor();
    await dialog.getByRole('button', { name: 'Remove and discard 1 message' }).click();
    await dialog.waitFor({ state: 'detached' });

    await ownerButton.waitFor({ state: 'detached' });
    expect(app.host.services.listAccounts()).toMatchObject({
      accounts: [{ id: second.id }],
      activeAccountId: second.id,
    });
    expect(existsSync(join(app.dataDir, 'accounts', app.accountId))).toBe(false);
    expect(existsSync(join(app.dataDir, 'accounts', second.id))).toBe(true);

    // Emma's account is shown now, has the focus, and still hears the server.
    await expect.poll(() => emmaButton.getAttribute('aria-current')).toBe('true');
    await expect
      .poll(() => emmaButton.evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    const sent = await realmClient(realm, 'farid').post('/messages', {
      type: 'direct',
      to: JSON.stringify([emma.user_id]),
      content: 'Emma, are you still there?',
    });
    expect(sent.status).toBe(200);
    // It reaches her live: the sidebar's conversation with Farid opens it.
    await page()
      .getByRole('region', { name: 'Direct messages' })
      .getByRole('button', { name: /^Farid Member/ })
      .click();
    await messageWithText(page(), 'Emma, are you still there?').waitFor();

    // The last account, from a right-click in a small window: the confirmation fits, and then the
    // sign-in screen is all there is.
    await page().setViewportSize({ width: 800, height: 600 });
    await emmaButton.click({ button: 'right' });
    await page().getByRole('menuitem', { name: 'Sign out and remove…' }).click();
    const remove = dialog.getByRole('button', { name: 'Sign out and remove' });
    await remove.waitFor();
    const box = (await remove.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(800);
    expect(box.y + box.height).toBeLessThanOrEqual(600);
    await remove.click();
    await page().getByRole('heading', { name: 'Sign in to a chat server' }).waitFor();
    expect(await rail().count()).toBe(0);
    expect(app.host.services.listAccounts()).toEqual({ accounts: [], activeAccountId: null });
    expect(existsSync(join(app.dataDir, 'accounts', second.id))).toBe(false);
  });
});
