// A message's widget from its submessages, as the public web app activates one: submessages in id
// order, the first must come from the message's sender and name a known widget_type (otherwise the
// message is shown as text), and each later one is applied as that widget's event.
import { applyPollEvent, createPoll, type PollState } from './poll';
import { applyTodoEvent, createTodo, type TodoState } from './todo';

export type WidgetState = PollState | TodoState;

/** The submessage fields a widget needs (the API's Submessage has these and more). */
export interface WidgetSubmessage {
  id: number;
  sender_id: number;
  content: string;
}

function parse(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return undefined;
  }
}

function create(authorId: number, data: unknown): WidgetState | null {
  if (data === null || typeof data !== 'object') return null;
  const { widget_type: type, extra_data: extra } = data as Record<string, unknown>;
  if (type === 'poll') return createPoll(authorId, extra ?? null);
  if (type === 'todo') return createTodo(authorId, extra ?? null);
  return null;
}

/** The widget after one more submessage (one that came after those it was built from). */
export function applyWidgetSubmessage(widget: WidgetState, sub: WidgetSubmessage): WidgetState {
  const data = parse(sub.content);
  return widget.widgetType === 'poll'
    ? applyPollEvent(widget, sub.sender_id, data)
    : applyTodoEvent(widget, sub.sender_id, data);
}

/** The message's widget, or null when its submessages make none. */
export function widgetFromSubmessages(
  messageSenderId: number,
  submessages: readonly WidgetSubmessage[],
): WidgetState | null {
  if (submessages.length === 0) return null;
  const ordered = [...submessages].sort((a, b) => a.id - b.id);
  const [first, ...rest] = ordered;
  if (first.sender_id !== messageSenderId) return null;
  let widget = create(messageSenderId, parse(first.content));
  if (!widget) return null;
  for (const sub of rest) widget = applyWidgetSubmessage(widget, sub);
  return widget;
}
