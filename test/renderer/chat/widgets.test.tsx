// Widget screens beyond the FL372 poll: the author's poll without a question opens on the question
// input, another person's shows the web app's "please wait"; a to-do list without a title is the
// "Task list", its checkbox sends a strike and only the author may rename it; a message whose first
// submessage is not its sender's shows its text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MessageRow } from '../../../renderer/features/messages/MessageRow';
import type { Submessage } from '../../../shared/api/types';
import { channelMessage, messageEvent, setupStore, EMMA, GENERAL, SELF } from '../store/fixtures';
import { installFakeApi, Providers, resetUi, type FakeApi } from './harness';

let api: FakeApi;
beforeEach(() => {
  resetUi('a');
  api = installFakeApi({ sendSubmessage: () => ({ result: 'success', msg: '' }) });
});
afterEach(cleanup);

function showMessage(sender: number, widget: object, text: string, firstBy = sender) {
  const t = setupStore();
  const submessages: Submessage[] = [
    {
      id: 1,
      message_id: 7,
      sender_id: firstBy,
      msg_type: 'widget',
      content: JSON.stringify(widget),
    },
  ];
  t.apply(
    messageEvent({
      ...channelMessage(7, GENERAL, 'widgets', { sender, content: text }),
      submessages,
    }),
  );
  render(
    <Providers store={t.store}>
      <MessageRow accountId="a" id={7} prevId={undefined} selected={false} />
    </Providers>,
  );
  return screen.getByTestId('message');
}

const sent = () => api.sendSubmessage.mock.calls.map(([input]) => JSON.parse(input.content));
const emptyPoll = { widget_type: 'poll', extra_data: { question: '', options: ['A'] } };

describe('polls', () => {
  it("open the author's poll without a question on the question input", () => {
    const row = showMessage(SELF, emptyPoll, '/poll');
    const input = within(row).getByRole('textbox', { name: 'Add question' });
    fireEvent.change(input, { target: { value: ' Where? ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(sent()).toEqual([{ type: 'question', question: 'Where?' }]);
  });

  it('ask the others to wait for the question, without an input', () => {
    const row = showMessage(EMMA, emptyPoll, '/poll');
    expect(within(row).getByText(/Please wait for the question/)).toBeTruthy();
    expect(within(row).queryByRole('textbox', { name: 'Add question' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Edit question' })).toBeNull();
  });

  it('show the text when the first submessage is not the sender’s', () => {
    const row = showMessage(EMMA, emptyPoll, '/poll hijacked', SELF);
    expect(within(row).queryByTestId('poll-widget')).toBeNull();
    expect(row.textContent).toContain('/poll hijacked');
  });
});

describe('to-do lists', () => {
  const list = {
    widget_type: 'todo',
    extra_data: { task_list_title: '', tasks: [{ task: 'Milk', desc: '' }] },
  };

  it('are the "Task list" until named; a checkbox sends a strike', () => {
    const row = showMessage(EMMA, list, '/todo');
    expect(within(row).getByRole('heading').textContent).toBe('Task list');
    expect(within(row).queryByRole('button', { name: 'Edit task list title' })).toBeNull();
    fireEvent.click(within(row).getByRole('checkbox'));
    expect(sent()).toEqual([{ type: 'strike', key: '0,canned' }]);
  });

  it('let the author rename them and add tasks with a description', () => {
    const row = showMessage(SELF, list, '/todo');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit task list title' }));
    const title = within(row).getByRole('textbox', { name: 'Add list title' });
    fireEvent.change(title, { target: { value: 'Shopping' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    fireEvent.change(within(row).getByRole('textbox', { name: 'New task' }), {
      target: { value: 'Milk' },
    });
    expect(within(row).getByRole('button', { name: 'Add task' }).hasAttribute('disabled')).toBe(
      true,
    );
    fireEvent.change(within(row).getByRole('textbox', { name: 'New task' }), {
      target: { value: 'Eggs' },
    });
    fireEvent.change(within(row).getByRole('textbox', { name: 'Description' }), {
      target: { value: 'a dozen' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Add task' }));
    expect(sent()).toEqual([
      { type: 'new_task_list_title', title: 'Shopping' },
      { type: 'new_task', key: 2, task: 'Eggs', desc: 'a dozen', completed: false },
    ]);
  });
});
