// People screens on the demo snapshot with a recording bridge: the profile's custom profile fields
// (definitions from register, renamed by a custom_profile_fields event), the status editor with the
// emoji picker, and the typing indicator of the open conversation.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { UserProfile } from '../../../renderer/features/people/UserProfile';
import { StatusEditor } from '../../../renderer/features/people/StatusEditor';
import { TypingIndicator } from '../../../renderer/features/people/TypingIndicator';
import { createChatStore, type ChatStore } from '../../../renderer/store';
import { useShortcuts } from '../../../renderer/shell/shortcuts';
import { uiStore } from '../../../renderer/store/ui-store';
import type { CustomProfileField } from '../../../shared/api/types';
import type { ServerEvent } from '../../../shared/api/events';
import { EMMA, eventId, FARID, GENERAL, register, SELF, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi();
});
afterEach(cleanup);

const FIELDS: CustomProfileField[] = [
  {
    id: 4,
    name: 'Team',
    hint: '',
    type: 3,
    field_data: JSON.stringify({ eng: { text: 'Engineering', order: '1' } }),
    order: 2,
  },
  { id: 1, name: 'Pronouns', hint: '', type: 8, field_data: '', order: 1 },
  { id: 6, name: 'Mentor', hint: '', type: 6, field_data: '', order: 3 },
];

describe('UserProfile', () => {
  function renderProfile() {
    const demo = register();
    const ctx = setupStore({
      custom_profile_fields: FIELDS,
      realm_users: demo.realm_users.map((u) =>
        u.user_id === EMMA
          ? {
              ...u,
              profile_data: {
                '4': { value: 'eng' },
                '1': { value: 'she/her' },
                '6': { value: JSON.stringify([FARID, SELF]) },
                '9': { value: 'from a field not listed yet' },
              },
            }
          : u,
      ),
    });
    render(
      <Providers store={ctx.store}>
        <UserProfile accountId="a" userId={EMMA} />
      </Providers>,
    );
    return ctx;
  }
  const terms = () =>
    [...screen.getByRole('dialog', { name: 'Profile of Emma Member' }).querySelectorAll('dt')].map(
      (dt) => [dt.textContent, dt.nextElementSibling?.textContent],
    );

  it('shows custom fields by their names in the realm order, select and users values as text', () => {
    renderProfile();
    expect(terms()).toEqual([
      ['Email', 'emma@tributary.local'],
      ['Local time', expect.stringContaining('America/Los_Angeles')],
      ['Pronouns', 'she/her'],
      ['Team', 'Engineering'],
      ['Mentor', 'Farid Member, Olivia Owner'],
      ['Profile field', 'from a field not listed yet'],
    ]);
    // The snapshot carried the profile data: nothing to fetch.
    expect(api.getUser).not.toHaveBeenCalled();
  });

  it('follows a custom_profile_fields event', () => {
    const ctx = renderProfile();
    act(() =>
      ctx.apply({
        id: eventId(),
        type: 'custom_profile_fields',
        fields: [
          ...FIELDS,
          { id: 9, name: 'Office', hint: '', type: 1, field_data: '', order: 0 },
        ].map((f) => (f.id === 4 ? { ...f, name: 'Squad' } : f)),
      } as ServerEvent),
    );
    expect(terms().slice(2)).toEqual([
      ['Office', 'from a field not listed yet'],
      ['Pronouns', 'she/her'],
      ['Squad', 'Engineering'],
      ['Mentor', 'Farid Member, Olivia Owner'],
    ]);
  });

  it('asks the server for a user the snapshot does not hold', async () => {
    api.getUser.mockImplementation(async () => ({
      result: 'success',
      msg: '',
      user: {
        ...register().realm_users[0],
        user_id: 4242,
        full_name: 'Nora New',
        email: 'nora@x.test',
      },
    }));
    const ctx = setupStore();
    render(
      <Providers store={ctx.store}>
        <UserProfile accountId="a" userId={4242} />
      </Providers>,
    );
    expect(await screen.findByRole('dialog', { name: 'Profile of Nora New' })).toBeTruthy();
    expect(api.getUser).toHaveBeenCalledWith({
      accountId: 'a',
      userId: 4242,
      includeCustomProfileFields: true,
    });
  });
});

function Shortcuts({ store }: { store: ChatStore }) {
  useShortcuts(store, { current: null });
  return null;
}

describe('StatusEditor', () => {
  function renderEditor() {
    const ctx = setupStore({
      user_status: {
        [SELF]: {
          status_text: 'Lunch',
          emoji_name: 'heart',
          emoji_code: '2764',
          reaction_type: 'unicode_emoji',
        },
      },
    });
    act(() => uiStore.setState({ overlay: { kind: 'status' } }));
    render(
      <Providers store={ctx.store}>
        <Shortcuts store={ctx.store} />
        <StatusEditor accountId="a" />
      </Providers>,
    );
    return screen.getByRole('dialog', { name: 'Set status' });
  }

  it('starts from the current status and saves a new text and emoji picked by name', async () => {
    const dialog = renderEditor();
    expect((within(dialog).getByLabelText('Status text') as HTMLInputElement).value).toBe('Lunch');
    const emojiButton = within(dialog).getByRole('button', { name: 'Choose status emoji' });
    // The status emoji as a sprite cell of the bundled set (its name as hidden text).
    expect(emojiButton.querySelector('span.emoji')!.className).toBe('emoji emoji-2764');

    fireEvent.click(emojiButton);
    // A popover, portalled out of the dialog's markup (and part of its focus trap).
    const picker = screen.getByRole('dialog', { name: 'Emoji picker' });
    fireEvent.change(within(picker).getByRole('searchbox', { name: 'Search emoji' }), {
      target: { value: 'thumbs_up' },
    });
    fireEvent.click(await within(picker).findByRole('button', { name: '+1' }));
    expect(screen.queryByRole('dialog', { name: 'Emoji picker' })).toBeNull();
    expect(emojiButton.querySelector('span.emoji')!.className).toBe('emoji emoji-1f44d');

    fireEvent.change(within(dialog).getByLabelText('Status text'), {
      target: { value: 'In a meeting' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save status' }));
    await waitFor(() => expect(uiStore.getState().overlay).toBeNull());
    expect(api.setStatus).toHaveBeenCalledWith({
      accountId: 'a',
      statusText: 'In a meeting',
      emojiName: '+1',
      emojiCode: '1f44d',
      reactionType: 'unicode_emoji',
    });
  });

  it('fills a suggestion with its emoji and sends the chosen clear-after time', async () => {
    api.setStatus.mockResolvedValue({ result: 'success', msg: '' });
    const dialog = renderEditor();
    const suggestions = within(dialog).getByRole('list', { name: 'Suggested statuses' });
    fireEvent.click(within(suggestions).getByRole('button', { name: 'Out sick' }));
    expect((within(dialog).getByLabelText('Status text') as HTMLInputElement).value).toBe(
      'Out sick',
    );
    const emojiButton = within(dialog).getByRole('button', { name: 'Choose status emoji' });
    expect(emojiButton.querySelector('span.emoji')!.className).toBe('emoji emoji-1f915');
    fireEvent.change(within(dialog).getByLabelText('Automatically clear status'), {
      target: { value: '30m' },
    });
    const before = Math.floor(Date.now() / 1000);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save status' }));
    await waitFor(() => expect(uiStore.getState().overlay).toBeNull());
    const sent = api.setStatus.mock.calls[0][0] as { scheduledEndTime: number };
    expect(sent).toMatchObject({ statusText: 'Out sick', emojiName: 'hurt', emojiCode: '1f915' });
    expect(sent.scheduledEndTime - before).toBeGreaterThanOrEqual(1800);
    expect(sent.scheduledEndTime - before).toBeLessThan(1900);
  });

  it('says so when the server cannot clear statuses itself (the parameter ignored)', async () => {
    api.setStatus.mockResolvedValue({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['scheduled_end_time'],
    });
    const dialog = renderEditor();
    fireEvent.change(within(dialog).getByLabelText('Automatically clear status'), {
      target: { value: 'today' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save status' }));
    expect((await within(dialog).findByRole('status')).textContent).toMatch(
      /cannot clear statuses automatically/,
    );
    expect(uiStore.getState().overlay).toEqual({ kind: 'status' });
  });

  it('shows the error when the server refuses, and keeps the editor open', async () => {
    api.setStatus.mockRejectedValue(new Error('Status text too long'));
    const dialog = renderEditor();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear status' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/too long/);
    expect(api.setStatus).toHaveBeenCalledWith({
      accountId: 'a',
      statusText: '',
      emojiName: '',
      emojiCode: '',
      reactionType: 'unicode_emoji',
    });
    expect(uiStore.getState().overlay).toEqual({ kind: 'status' });
  });

  it('Esc closes the emoji picker first, then the editor', async () => {
    const dialog = renderEditor();
    const emojiButton = within(dialog).getByRole('button', { name: 'Choose status emoji' });
    emojiButton.focus();
    fireEvent.click(emojiButton);
    const search = await screen.findByRole('searchbox', { name: 'Search emoji' });
    expect(document.activeElement).toBe(search);
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Emoji picker' })).toBeNull();
    // The library gives the focus back once the picker is gone (a task later).
    await waitFor(() => expect(document.activeElement).toBe(emojiButton));
    expect(uiStore.getState().overlay).toEqual({ kind: 'status' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(uiStore.getState().overlay).toBeNull();
  });
});

describe('TypingIndicator', () => {
  // Typing entries expire by the wall clock the indicator reads.
  function typingStore() {
    const store = createChatStore({ now: () => Date.now() });
    store.getState().replaceSnapshot('a', register());
    const apply = (...events: ServerEvent[]) =>
      act(() => store.getState().applyEventBatch('a', events));
    return { store, apply };
  }
  const user = (id: number) => ({
    user_id: id,
    email: register().realm_users.find((u) => u.user_id === id)!.email,
  });
  const channelTyping = (op: 'start' | 'stop', sender: number, topic: string): ServerEvent => ({
    id: eventId(),
    type: 'typing',
    op,
    message_type: 'stream',
    sender: user(sender),
    stream_id: GENERAL,
    topic,
  });

  it('names who is typing in the open topic only, and forgets those who stopped', () => {
    const { store, apply } = typingStore();
    render(
      <Providers store={store}>
        <TypingIndicator accountId="a" streamId={GENERAL} topic="lunch" />
      </Providers>,
    );
    const line = () => document.querySelector('.typing')!.textContent;
    expect(line()).toBe('');
    apply(channelTyping('start', EMMA, 'lunch'));
    expect(line()).toBe('Emma Member is typing…');
    apply(channelTyping('start', FARID, 'lunch'), channelTyping('start', SELF, 'other topic'));
    expect(line()).toBe('Emma Member, Farid Member are typing…');
    apply(channelTyping('stop', EMMA, 'lunch'));
    expect(line()).toBe('Farid Member is typing…');
  });

  it('shows typing in a direct-message conversation', () => {
    const { store, apply } = typingStore();
    render(
      <Providers store={store}>
        <TypingIndicator accountId="a" dmUserIds={[EMMA]} />
      </Providers>,
    );
    apply({
      id: eventId(),
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: user(EMMA),
      recipients: [user(EMMA), user(SELF)],
    });
    expect(document.querySelector('.typing')!.textContent).toBe('Emma Member is typing…');
  });

  it('forgets a typer whose start was never renewed, after the server expiry period', async () => {
    vi.useFakeTimers({
      toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    try {
      const { store, apply } = typingStore();
      render(
        <Providers store={store}>
          <TypingIndicator accountId="a" streamId={GENERAL} topic="lunch" />
        </Providers>,
      );
      const line = () => document.querySelector('.typing')!.textContent;
      apply(channelTyping('start', EMMA, 'lunch'));
      expect(line()).toBe('Emma Member is typing…');
      const expiry = store.getState().accounts.a!.typing.startedExpiryMs;
      await act(async () => {
        vi.advanceTimersByTime(expiry - 5_000);
      });
      expect(line()).toBe('Emma Member is typing…');
      await act(async () => {
        vi.advanceTimersByTime(10_000);
      });
      expect(line()).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
