// A to-do list's state from its submessages, with the public web app's semantics (its
// todo_widget.ts): tasks are keyed "<idx>,<sender>" ("<i>,canned" for those in the /todo text);
// a task whose name is already on the list is dropped; a strike toggles a task's completion and
// a strike of an unknown key is ignored; only the message's sender may rename the list, the last
// rename winning. Malformed or unknown events are skipped.
import { MAX_IDX, type WidgetSender } from './poll';

export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
  addedBy: WidgetSender;
}

export interface TodoState {
  widgetType: 'todo';
  authorId: number;
  /** As sent; the web app shows "Task list" while it is empty. */
  title: string;
  tasks: TodoTask[];
  /** The web app's next-index counter per user (see todoNewTaskEvent). */
  idxBySender: Readonly<Record<string, number>>;
}

export type TodoEvent =
  | { type: 'new_task'; key: number; task: string; desc: string; completed: boolean }
  | { type: 'strike'; key: string }
  | { type: 'new_task_list_title'; title: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const isTask = (v: unknown): v is { task: string; desc: string } =>
  isRecord(v) && typeof v.task === 'string' && typeof v.desc === 'string';

/** The list as the /todo message set it up, or null when its extra_data is not a list's. */
export function createTodo(authorId: number, extraData: unknown): TodoState | null {
  if (extraData !== null && !isRecord(extraData)) return null;
  const title = extraData?.task_list_title ?? '';
  const tasks = extraData?.tasks ?? [];
  if (typeof title !== 'string' || !Array.isArray(tasks) || !tasks.every(isTask)) return null;
  let todo: TodoState = { widgetType: 'todo', authorId, title, tasks: [], idxBySender: {} };
  tasks.forEach((t, idx) => {
    todo = addTask(todo, 'canned', { key: idx, task: t.task, desc: t.desc, completed: false });
  });
  return todo;
}

function addTask(
  todo: TodoState,
  sender: WidgetSender,
  data: { key: number; task: string; desc: string; completed: boolean },
): TodoState {
  const key = `${data.key},${sender}`;
  let tasks = todo.tasks;
  if (!tasks.some((t) => t.task === data.task)) {
    const added: TodoTask = {
      key,
      task: data.task,
      desc: data.desc,
      completed: data.completed,
      addedBy: sender,
    };
    const at = tasks.findIndex((t) => t.key === key);
    tasks = at < 0 ? [...tasks, added] : tasks.map((t, i) => (i === at ? added : t));
  }
  // Counted even for a dropped duplicate, as the web app does.
  const next = todo.idxBySender[sender] ?? 1;
  const idxBySender =
    next <= data.key ? { ...todo.idxBySender, [sender]: data.key + 1 } : todo.idxBySender;
  return tasks === todo.tasks && idxBySender === todo.idxBySender
    ? todo
    : { ...todo, tasks, idxBySender };
}

/** The list after one submessage's data from `sender`. */
export function applyTodoEvent(todo: TodoState, sender: number, data: unknown): TodoState {
  if (!isRecord(data)) return todo;
  switch (data.type) {
    case 'new_task': {
      const { key, task, desc, completed } = data;
      if (typeof key !== 'number' || !Number.isInteger(key) || key < 0 || key > MAX_IDX)
        return todo;
      if (typeof task !== 'string' || typeof desc !== 'string' || typeof completed !== 'boolean') {
        return todo;
      }
      return addTask(todo, sender, { key, task, desc, completed });
    }
    case 'strike': {
      const at = todo.tasks.findIndex((t) => t.key === data.key);
      if (at < 0) return todo;
      return {
        ...todo,
        tasks: todo.tasks.map((t, i) => (i === at ? { ...t, completed: !t.completed } : t)),
      };
    }
    case 'new_task_list_title':
      if (typeof data.title !== 'string' || sender !== todo.authorId) return todo;
      return { ...todo, title: data.title };
    default:
      return todo;
  }
}

/** What `me` sends to add a task; null when the name is empty or already on the list. */
export function todoNewTaskEvent(
  todo: TodoState,
  me: number,
  task: string,
  desc: string,
): TodoEvent | null {
  const name = task.trim();
  if (name === '' || todo.tasks.some((t) => t.task === name)) return null;
  // The web app bumps its counter before sending, so a user's first task has key 2.
  return {
    type: 'new_task',
    key: (todo.idxBySender[me] ?? 1) + 1,
    task: name,
    desc: desc.trim(),
    completed: false,
  };
}

/** What anyone sends to check or uncheck a task. */
export function todoStrikeEvent(key: string): TodoEvent {
  return { type: 'strike', key };
}

/** What the author sends to rename the list; null for anyone else or an empty title. */
export function todoTitleEvent(todo: TodoState, me: number, text: string): TodoEvent | null {
  const title = text.trim();
  if (me !== todo.authorId || title === '') return null;
  return { type: 'new_task_list_title', title };
}
