// The poll and to-do models (shared/widgets) against the public web app's semantics, including the
// real poll message and vote from a server at feature level 372.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MessageEvent, ServerEvent, SubmessageEvent } from '../../shared/api/events';
import { widgetFromSubmessages, type WidgetSubmessage } from '../../shared/widgets/widget';
import {
  pollNewOptionEvent,
  pollQuestionEvent,
  pollVoteEvent,
  type PollState,
} from '../../shared/widgets/poll';
import {
  todoNewTaskEvent,
  todoStrikeEvent,
  todoTitleEvent,
  type TodoState,
} from '../../shared/widgets/todo';

const AUTHOR = 10;
const READER = 20;
let nextId = 1;
const sub = (sender: number, data: unknown): WidgetSubmessage => ({
  id: nextId++,
  sender_id: sender,
  content: typeof data === 'string' ? data : JSON.stringify(data),
});
const pollOf = (question: string, options: string[], ...later: WidgetSubmessage[]) =>
  widgetFromSubmessages(AUTHOR, [
    // Id 0: the arguments' submessages were numbered before this one.
    { ...sub(AUTHOR, { widget_type: 'poll', extra_data: { question, options } }), id: 0 },
    ...later,
  ]) as PollState;
const todoOf = (title: string, tasks: string[], ...later: WidgetSubmessage[]) =>
  widgetFromSubmessages(AUTHOR, [
    {
      ...sub(AUTHOR, {
        widget_type: 'todo',
        extra_data: { task_list_title: title, tasks: tasks.map((task) => ({ task, desc: '' })) },
      }),
      id: 0,
    },
    ...later,
  ]) as TodoState;
const votes = (poll: PollState) => poll.options.map((o) => [o.option, o.voters]);

describe('activation', () => {
  it('builds the fixture poll (feature level 372) with its vote', () => {
    const events = JSON.parse(
      readFileSync('../shared/fixtures/zulip-server/events-fl372.json', 'utf8'),
    ).events as Array<ServerEvent>;
    const message = events.find(
      (e): e is MessageEvent => e.type === 'message' && e.message.submessages.length > 0,
    )!.message;
    const vote = events.find((e): e is SubmessageEvent => e.type === 'submessage')!;
    const poll = widgetFromSubmessages(message.sender_id, [
      ...message.submessages,
      { id: vote.submessage_id, sender_id: vote.sender_id, content: vote.content },
    ]) as PollState;
    expect(poll.question).toBe('Lunch?');
    expect(poll.options.map((o) => [o.key, o.option, o.voters])).toEqual([
      ['canned,0', 'Pizza', []],
      ['canned,1', 'Salad', [vote.sender_id]],
    ]);
  });

  it('applies submessages in id order whatever order they arrive in', () => {
    const widget = sub(AUTHOR, {
      widget_type: 'poll',
      extra_data: { question: 'Q', options: ['A'] },
    });
    const on = sub(READER, { type: 'vote', key: 'canned,0', vote: 1 });
    const off = sub(READER, { type: 'vote', key: 'canned,0', vote: -1 });
    expect(votes(widgetFromSubmessages(AUTHOR, [off, widget, on]) as PollState)).toEqual([
      ['A', []],
    ]);
  });

  it('makes no widget when the first submessage is not the sender’s, or names no known widget', () => {
    const poll = { widget_type: 'poll', extra_data: { question: 'Q', options: [] } };
    expect(widgetFromSubmessages(AUTHOR, [])).toBeNull();
    expect(widgetFromSubmessages(AUTHOR, [sub(READER, poll)])).toBeNull();
    expect(
      widgetFromSubmessages(AUTHOR, [sub(AUTHOR, { widget_type: 'zform', extra_data: {} })]),
    ).toBeNull();
    expect(widgetFromSubmessages(AUTHOR, [sub(AUTHOR, '{oops')])).toBeNull();
    expect(
      widgetFromSubmessages(AUTHOR, [
        sub(AUTHOR, { widget_type: 'poll', extra_data: { options: 'A' } }),
      ]),
    ).toBeNull();
    // extra_data may be null: an empty poll.
    expect(
      widgetFromSubmessages(AUTHOR, [sub(AUTHOR, { widget_type: 'poll', extra_data: null })]),
    ).toMatchObject({
      question: '',
      options: [],
    });
  });
});

describe('poll', () => {
  it('votes, takes votes back, and ignores bad votes and unknown keys', () => {
    const poll = pollOf(
      'Q',
      ['A', 'B'],
      sub(READER, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(AUTHOR, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(AUTHOR, { type: 'vote', key: 'canned,1', vote: 1 }),
      sub(AUTHOR, { type: 'vote', key: 'canned,1', vote: -1 }),
      sub(READER, { type: 'vote', key: 'canned,1', vote: 2 }),
      sub(READER, { type: 'vote', key: 'nobody,9', vote: 1 }),
      sub(READER, { type: 'vote', key: 'canned,0', vote: 1 }),
    );
    expect(votes(poll)).toEqual([
      ['A', [READER, AUTHOR]],
      ['B', []],
    ]);
  });

  it('adds options keyed by sender and idx, drops duplicates and out-of-range idx, replaces a reused key', () => {
    const poll = pollOf(
      'Q',
      ['A', 'A'],
      sub(READER, { type: 'new_option', idx: 1, option: 'B' }),
      sub(READER, { type: 'vote', key: `${READER},1`, vote: 1 }),
      sub(AUTHOR, { type: 'new_option', idx: 1, option: 'B' }),
      sub(AUTHOR, { type: 'new_option', idx: 1001, option: 'C' }),
      sub(READER, { type: 'new_option', idx: 1, option: 'B2' }),
    );
    expect(poll.options.map((o) => [o.key, o.option, o.voters])).toEqual([
      ['canned,0', 'A', []],
      [`${READER},1`, 'B2', []],
    ]);
  });

  it('lets only the author change the question; the last change wins', () => {
    const poll = pollOf(
      'Q',
      [],
      sub(AUTHOR, { type: 'question', question: 'Q2' }),
      sub(READER, { type: 'question', question: 'hijacked' }),
      sub(AUTHOR, { type: 'question', question: 'Q3' }),
      sub(AUTHOR, { type: 'unknown_op', question: 'x' }),
      sub(AUTHOR, '[1, 2]'),
    );
    expect(poll.question).toBe('Q3');
    expect(pollQuestionEvent(poll, READER, 'Mine')).toBeNull();
    expect(pollQuestionEvent(poll, AUTHOR, '  Q4 ')).toEqual({ type: 'question', question: 'Q4' });
  });

  it('makes outbound events as the web app does', () => {
    let poll = pollOf('Q', ['A'], sub(READER, { type: 'vote', key: 'canned,0', vote: 1 }));
    expect(pollVoteEvent(poll, READER, 'canned,0')).toEqual({
      type: 'vote',
      key: 'canned,0',
      vote: -1,
    });
    expect(pollVoteEvent(poll, AUTHOR, 'canned,0')).toEqual({
      type: 'vote',
      key: 'canned,0',
      vote: 1,
    });
    expect(pollNewOptionEvent(poll, READER, 'A')).toBeNull();
    expect(pollNewOptionEvent(poll, READER, ' ')).toBeNull();
    expect(pollNewOptionEvent(poll, READER, 'B')).toEqual({
      type: 'new_option',
      idx: 1,
      option: 'B',
    });
    poll = pollOf('Q', [], sub(READER, { type: 'new_option', idx: 4, option: 'B' }));
    expect(pollNewOptionEvent(poll, READER, 'C')).toMatchObject({ idx: 5 });
  });
});

describe('to-do list', () => {
  it('adds tasks keyed by idx and sender, drops duplicate names, toggles strikes', () => {
    const todo = todoOf(
      'Chores',
      ['Dishes', 'Dishes'],
      sub(READER, { type: 'new_task', key: 2, task: 'Laundry', desc: 'whites', completed: false }),
      sub(AUTHOR, { type: 'new_task', key: 2, task: 'Laundry', desc: '', completed: false }),
      sub(READER, { type: 'strike', key: '0,canned' }),
      sub(AUTHOR, { type: 'strike', key: `2,${READER}` }),
      sub(AUTHOR, { type: 'strike', key: `2,${READER}` }),
      sub(READER, { type: 'strike', key: '9,nobody' }),
      sub(READER, { type: 'new_task', key: 3, task: 'Bad' }),
    );
    expect(todo.tasks.map((t) => [t.key, t.task, t.desc, t.completed])).toEqual([
      ['0,canned', 'Dishes', '', true],
      [`2,${READER}`, 'Laundry', 'whites', false],
    ]);
  });

  it('lets only the author rename the list', () => {
    const todo = todoOf(
      '',
      [],
      sub(READER, { type: 'new_task_list_title', title: 'hijacked' }),
      sub(AUTHOR, { type: 'new_task_list_title', title: 'Trip' }),
    );
    expect(todo.title).toBe('Trip');
    expect(todoTitleEvent(todo, READER, 'x')).toBeNull();
    expect(todoTitleEvent(todo, AUTHOR, 'Home')).toEqual({
      type: 'new_task_list_title',
      title: 'Home',
    });
  });

  it('makes outbound events as the web app does (a user’s first task has key 2)', () => {
    let todo = todoOf('T', ['A']);
    expect(todoNewTaskEvent(todo, READER, 'A', '')).toBeNull();
    expect(todoNewTaskEvent(todo, READER, ' B ', ' d ')).toEqual({
      type: 'new_task',
      key: 2,
      task: 'B',
      desc: 'd',
      completed: false,
    });
    todo = todoOf(
      'T',
      [],
      sub(READER, { type: 'new_task', key: 2, task: 'B', desc: '', completed: false }),
    );
    expect(todoNewTaskEvent(todo, READER, 'C', '')).toMatchObject({ key: 4 });
    expect(todoStrikeEvent('2,20')).toEqual({ type: 'strike', key: '2,20' });
  });
});
