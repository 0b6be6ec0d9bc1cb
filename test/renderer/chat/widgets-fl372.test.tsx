// The poll of the public server's feature-level-372 capture (a /poll message and a vote by Iago)
// in a message row: shown as a poll instead of its text, updated live by a submessage event, and
// a click sends the web app's vote submessage through main.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import { createChatStore } from '../../../renderer/store';
import { fl372Events, fl372Register } from '../store/fixtures/fl372';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

const POLL = 125;
const KING_HAMLET = 51;

let api: FakeApi;
beforeEach(() => {
  resetUi('z');
  api = installFakeApi({ sendSubmessage: () => ({ result: 'success', msg: '' }) });
});
afterEach(cleanup);

function showPoll() {
  const store = createChatStore({ now: () => 1_795_504_141_000 });
  store.getState().replaceSnapshot('z', fl372Register());
  store.getState().setActiveAccount('z');
  store.getState().applyEventBatch('z', fl372Events());
  const { container } = render(
    <Providers store={store}>
      <MessageRow accountId="z" id={POLL} prevId={undefined} selected={false} />
    </Providers>,
  );
  const row = container.querySelector<HTMLElement>('[data-testid=message]')!;
  return { store, row, poll: within(row).getByTestId('poll-widget') };
}

const optionRow = (poll: HTMLElement, name: string) =>
  within(poll).getByText(name, { exact: true }).closest('li')!;

describe('the FL372 poll in a message row', () => {
  it('shows the question, the options and who voted, not the /poll text', () => {
    const { row, poll } = showPoll();
    expect(row.textContent).not.toContain('/poll');
    expect(within(poll).getByRole('heading').textContent).toBe('Lunch?');
    expect(optionRow(poll, 'Salad').textContent).toBe('1Salad(Iago)');
    expect(optionRow(poll, 'Pizza').textContent).toBe('0Pizza');
    // King Hamlet did not write the poll: no pencil.
    expect(within(poll).queryByRole('button', { name: 'Edit question' })).toBeNull();
  });

  it("sends King Hamlet's vote as the web app does and shows it when its event arrives", () => {
    const { store, poll } = showPoll();
    fireEvent.click(within(optionRow(poll, 'Pizza')).getByRole('button'));
    expect(api.sendSubmessage).toHaveBeenCalledWith({
      accountId: 'z',
      messageId: POLL,
      msgType: 'widget',
      content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
    });
    act(() =>
      store.getState().applyEventBatch('z', [
        {
          id: 19,
          type: 'submessage',
          msg_type: 'widget',
          message_id: POLL,
          submessage_id: 3,
          sender_id: KING_HAMLET,
          content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
        },
      ]),
    );
    const pizza = optionRow(poll, 'Pizza');
    expect(pizza.textContent).toBe('1Pizza(King Hamlet)');
    expect(within(pizza).getByRole('button').getAttribute('aria-pressed')).toBe('true');
  });

  it('adds an option with the next idx of this user', () => {
    const { poll } = showPoll();
    fireEvent.change(within(poll).getByRole('textbox', { name: 'New option' }), {
      target: { value: 'Soup' },
    });
    fireEvent.click(within(poll).getByRole('button', { name: 'Add option' }));
    expect(api.sendSubmessage).toHaveBeenCalledWith(
      expect.objectContaining({
        content: JSON.stringify({ type: 'new_option', idx: 1, option: 'Soup' }),
      }),
    );
  });
});
