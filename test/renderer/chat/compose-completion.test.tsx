// Compose's typeahead in the compose box: each trigger (@, @_, @*group*, wildcards, #channel then
// its topics, :emoji) completed by keyboard (arrows, Tab, Enter, Esc) and by click, the people of
// the current conversation ranked first, and the topic field completed from the channel's topics.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { openCompose } from '../support/compose';
import { Compose } from '../../../renderer/features/compose/Compose';
import type { Destination } from '../../../renderer/features/compose/drafts';
import type { RegisterResponse, UserGroup } from '../../../shared/api/types';
import {
  channelMessage,
  EMMA,
  FARID,
  GENERAL,
  messageEvent,
  register,
  SELF,
  setupStore,
} from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;

beforeEach(() => {
  resetUi('a');
  api = installFakeApi({
    getStreamTopics: () => ({
      result: 'success',
      msg: '',
      topics: [
        { name: 'plans', max_id: 30 },
        { name: 'lunch plans', max_id: 20 },
        { name: 'release', max_id: 10 },
      ],
    }),
  });
});
afterEach(cleanup);

const designTeam: UserGroup = {
  id: 40,
  name: 'design-team',
  description: 'People who design',
  members: [EMMA, FARID],
  direct_subgroup_ids: [],
  creator_id: SELF,
  date_created: 1,
  is_system_group: false,
  deactivated: false,
  can_add_members_group: 8,
  can_join_group: 8,
  can_leave_group: 8,
  can_manage_group: 8,
  can_mention_group: { direct_members: [SELF], direct_subgroups: [] },
  can_remove_members_group: 8,
};

function renderCompose(
  destination: Destination = { type: 'stream', streamId: GENERAL, topic: 'plans' },
  overrides: Partial<RegisterResponse> = {},
) {
  const base = register();
  const setup = setupStore({
    realm_user_groups: [...(base.realm_user_groups ?? []), designTeam],
    ...overrides,
  });
  render(
    <Providers store={setup.store}>
      <Compose accountId="a" defaultDestination={destination} />
    </Providers>,
  );
  openCompose();
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  return { ...setup, box };
}

function type(box: HTMLTextAreaElement, value: string) {
  fireEvent.change(box, { target: { value, selectionStart: value.length } });
}

const options = (name: string) =>
  within(screen.getByRole('listbox', { name })).getAllByRole('option');
const selected = (name: string) =>
  within(screen.getByRole('listbox', { name }))
    .getAllByRole('option')
    .find((o) => o.getAttribute('aria-selected') === 'true')!;

describe('mention completion', () => {
  it('moves with the arrows and picks with Tab; Enter picks without sending', () => {
    const { box } = renderCompose();
    type(box, 'hi @member');
    const first = options('People')[0].textContent;
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    const second = selected('People').textContent!;
    expect(second).not.toBe(first);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(selected('People').textContent).toBe(first);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe(`hi @**${second.trim()}** `);
    // The cursor is after the completion as soon as it is in the box (not a frame later).
    expect(box.selectionStart).toBe(box.value.length);
    expect(screen.queryByRole('listbox')).toBeNull();

    type(box, 'and @emm');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('and @**Emma Member** ');
    expect(api.sendMessage).not.toHaveBeenCalled();
  });

  it('closes with Esc, leaving the text as typed', () => {
    const { box } = renderCompose();
    type(box, 'hi @emm');
    expect(screen.getByRole('listbox', { name: 'People' })).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('hi @emm');
  });

  it('writes silent mentions, group mentions and wildcards', () => {
    const { box } = renderCompose();
    type(box, '@_emm');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('@_**Emma Member** ');

    type(box, '@design');
    const group = within(screen.getByRole('listbox', { name: 'People' })).getByRole('option', {
      name: /design-team/,
    });
    fireEvent.click(group);
    expect(box.value).toBe('@*design-team* ');

    // #general has 8 subscribers: channel-wide wildcards are allowed there.
    type(box, '@al');
    expect(options('People')[0].textContent).toMatch(/^ ?all Notify all channel subscribers/);
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('@**all** ');
  });

  it('lists the people of the current conversation first', () => {
    const { box, apply } = renderCompose();
    apply(messageEvent(channelMessage(301, GENERAL, 'plans', { sender: FARID })));
    type(box, '@member');
    // Dev, Emma and Farid are all "… Member"; Farid wrote in this topic.
    expect(options('People')[0].textContent).toContain('Farid Member');
  });

  it('makes a mention of the other person of a one-to-one conversation silent', () => {
    const { box } = renderCompose({ type: 'private', to: [EMMA] });
    type(box, '@emm');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('@_**Emma Member** ');
  });
});

describe('channel and topic completion', () => {
  it("completes #channel, then offers the channel's topics", async () => {
    const { box } = renderCompose();
    type(box, 'see #gen');
    expect(options('Channels')[0].textContent).toContain('#general');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('see #**general>');
    // The channel itself first, then its topics from the server.
    await waitFor(() => expect(options('Topics')).toHaveLength(4));
    expect(options('Topics')[0].textContent).toContain('(link to channel)');
    expect(api.getStreamTopics).toHaveBeenCalledWith({ accountId: 'a', streamId: GENERAL });
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('see #**general** ');

    type(box, 'see #**general>lun');
    // What was typed comes first, as a new topic; then the topic it starts a word of.
    await waitFor(() => expect(options('Topics')[1].textContent).toContain('lunch plans'));
    expect(options('Topics')[0].textContent).toContain('New');
    fireEvent.click(options('Topics')[1]);
    expect(box.value).toBe('see #**general>lunch plans** ');
  });

  it('goes from a channel to its topics on >, and back to a channel link on Esc', async () => {
    const { box } = renderCompose();
    type(box, '#gen');
    fireEvent.keyDown(box, { key: '>' });
    expect(box.value).toBe('#**general>');
    type(box, '#**general>new idea');
    await waitFor(() => expect(options('Topics')[0].textContent).toContain('New'));
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('#**general** new idea');
  });

  it("asks main for the channel's topics only once the topic field is used", () => {
    renderCompose({ type: 'stream', streamId: GENERAL, topic: '' });
    expect(api.getStreamTopics).not.toHaveBeenCalled();
    fireEvent.focus(screen.getByRole('combobox', { name: 'Topic' }));
    expect(api.getStreamTopics).toHaveBeenCalledWith({ accountId: 'a', streamId: GENERAL });
  });

  it("completes the topic field from the channel's topics", async () => {
    renderCompose({ type: 'stream', streamId: GENERAL, topic: '' });
    const topic = screen.getByRole('combobox', { name: 'Topic' }) as HTMLInputElement;
    fireEvent.change(topic, { target: { value: 'pla' } });
    await waitFor(() => expect(options('Topics')).toHaveLength(2));
    expect(options('Topics').map((o) => o.textContent)).toEqual(['plans', 'lunch plans']);
    fireEvent.keyDown(topic, { key: 'ArrowDown' });
    fireEvent.keyDown(topic, { key: 'Enter' });
    expect(topic.value).toBe('lunch plans');
    expect(screen.queryByRole('listbox', { name: 'Topics' })).toBeNull();
  });
});

describe('emoji completion', () => {
  it('completes :emoji by keyboard', async () => {
    const { box } = renderCompose();
    type(box, 'lunch :tada');
    // The emoji table loads on first use: slow on a busy machine.
    await waitFor(() => expect(options('Emoji')[0].textContent).toContain(':tada:'), {
      timeout: 10_000,
    });
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('lunch :tada: ');
  });
});
