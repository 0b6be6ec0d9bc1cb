// People, search and reactions against the real local realm server through the real bridge and
// main process (live-realm.ts): the profile with the realm's custom profile fields from register,
// `sender:me` accepted by the server, and an emoji whose datasource code carries FE0F (heart)
// added and then removed by picking it twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { UserPopover } from '../../../renderer/features/people/UserPopover';
import { UserProfile } from '../../../renderer/features/people/UserProfile';
import { searchNarrow } from '../../../renderer/features/search/search-narrow';
import { useUi } from '../../../renderer/store/ui-store';
import { Providers, resetUi } from './harness';
import { startLiveAccount, type LiveAccount } from './live-realm';

let live: LiveAccount;
beforeAll(async () => {
  live = await startLiveAccount('owner');
}, 60_000);
afterAll(async () => {
  await live?.close();
});
afterEach(cleanup);

/** The overlays as the app shell shows them: the user card, then the profile. */
function Overlays() {
  const overlay = useUi((s) => s.overlay);
  if (overlay?.kind === 'user')
    return <UserPopover userId={overlay.userId} anchor={overlay.anchor} />;
  if (overlay?.kind === 'profile')
    return <UserProfile accountId={live.accountId} userId={overlay.userId} />;
  return null;
}

async function sendAs(who: string, content: string): Promise<number> {
  const general = live.register.subscriptions.find((s) => s.name === 'general')!.stream_id;
  const res = await live.realm
    .client(who)
    .post('/messages', { type: 'stream', to: general, topic: 'people', content });
  return res.body.id as number;
}

describe('profile with custom profile fields', () => {
  it('stores the realm fields from register and shows them by name, in order, typed', async () => {
    const fields = live.store.getState().accounts[live.accountId].settings.customProfileFields;
    expect(fields.map((f) => f.name)).toEqual([
      'Pronouns',
      'Title',
      'About me',
      'Team',
      'Mentor',
      'GitHub',
    ]);

    // View profile from a sender's card, as in the app (this crashed with React error #185).
    const id = await sendAs('emma', 'Hello from Emma');
    await live.storeMessage(id);
    resetUi(live.accountId);
    render(
      <Providers store={live.store}>
        <MessageRow accountId={live.accountId} id={id} prevId={undefined} selected={false} />
        <Overlays />
      </Providers>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Emma Member' }));
    fireEvent.click(screen.getByRole('button', { name: 'View profile' }));
    const profile = screen.getByRole('dialog', { name: 'Profile of Emma Member' });
    const terms = [...profile.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms).toEqual(['Email', 'Local time', 'About me', 'Team']);
    const valueOf = (term: string) =>
      [...profile.querySelectorAll('dt')].find((dt) => dt.textContent === term)!
        .nextElementSibling!;
    // A select field shows its option's text; markdown fields their sanitized rendering.
    expect(valueOf('Team').textContent).toBe('Design');
    expect(valueOf('About me').querySelector('strong')?.textContent).toBe('things');
    expect(profile.textContent).not.toMatch(/Field \d/);
  });

  it("shows a users field as the people's names", async () => {
    const dev = live.realm.users.dev.user_id;
    resetUi(live.accountId);
    render(
      <Providers store={live.store}>
        <UserProfile accountId={live.accountId} userId={dev} />
      </Providers>,
    );
    const profile = screen.getByRole('dialog', { name: /^Profile of / });
    const mentor = [...profile.querySelectorAll('dt')].find((dt) => dt.textContent === 'Mentor');
    expect(mentor?.nextElementSibling?.textContent).toBe('Olivia Owner');
  });
});

describe('search', () => {
  it('sender:me reaches the server as the own user id and finds only own messages', async () => {
    await sendAs('owner', 'a message of my own');
    const account = live.store.getState().accounts[live.accountId];
    const narrow = searchNarrow('sender:me', account);
    expect(narrow).toEqual([{ operator: 'sender', operand: account.selfUserId }]);
    const res = await live.api.getMessages({
      accountId: live.accountId,
      anchor: 'newest',
      numBefore: 50,
      numAfter: 0,
      narrow,
    });
    expect(res.messages.length).toBeGreaterThan(0);
    expect(res.messages.every((m) => m.sender_id === account.selfUserId)).toBe(true);
  });
});

describe('reactions from the emoji picker', () => {
  async function pickHeart(row: HTMLElement) {
    fireEvent.pointerEnter(row);
    fireEvent.click(within(row).getByRole('button', { name: 'Add reaction' }));
    // A popover, portalled out of the row (the message list clips what it contains).
    const picker = screen.getByRole('dialog', { name: 'Emoji picker' });
    fireEvent.change(within(picker).getByRole('searchbox', { name: 'Search emoji' }), {
      target: { value: 'heart' },
    });
    fireEvent.click(await within(picker).findByRole('button', { name: 'heart' }));
  }

  it('picking heart twice adds it, then removes it, and it shows as a picture', async () => {
    const id = await sendAs('owner', 'react to me');
    await live.storeMessage(id);
    resetUi(live.accountId);
    const { container } = render(
      <Providers store={live.store}>
        <MessageRow accountId={live.accountId} id={id} prevId={undefined} selected={false} />
      </Providers>,
    );
    const row = container.querySelector<HTMLElement>('[data-testid=message]')!;

    await pickHeart(row);
    await waitFor(async () => expect((await live.storeMessage(id)).reactions).toHaveLength(1));
    const [reaction] = (await live.storeMessage(id)).reactions;
    expect(reaction).toMatchObject({ emoji_name: 'heart', emoji_code: '2764' });
    const chip = await within(row).findByRole('button', { name: /^heart: 1/ });
    // A cell of the bundled sprite sheet, not a glyph left to the system's fonts.
    expect(chip.querySelector('span.emoji[aria-hidden]')?.className).toBe('emoji emoji-2764');

    await pickHeart(row);
    await waitFor(async () => expect((await live.storeMessage(id)).reactions).toHaveLength(0));
    expect(within(row).queryByRole('alert')).toBeNull();
  });
});
