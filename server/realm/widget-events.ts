// Checks a POST /submessage payload against its message's widget, with the public server's rules
// and error texts (its validate_poll_data / validate_todo_data): every poll reader may vote and add
// options, only the author edits the question; every list reader may add and strike tasks, only
// the author renames the list. Messages without a widget take any JSON.
import type { WidgetType } from './widgets';

/** The public server's bound on option and task indexes (MAX_IDX in its widgets). */
const MAX_IDX = 1000;

type Check = (name: string, value: unknown) => string | null;

const isString: Check = (name, value) =>
  typeof value === 'string' ? null : `${name} is not a string`;

const isBool: Check = (name, value) =>
  typeof value === 'boolean' ? null : `${name} is not a boolean`;

const isInt: Check = (name, value) =>
  typeof value === 'number' && Number.isInteger(value) ? null : `${name} is not an integer`;

const intIn =
  (allowed: readonly number[]): Check =>
  (name, value) =>
    isInt(name, value) ?? (allowed.includes(value as number) ? null : `Invalid ${name}`);

const intRange =
  (low: number, high: number): Check =>
  (name, value) => {
    const notInt = isInt(name, value);
    if (notInt) return notInt;
    if ((value as number) < low) return `${name} is too small`;
    if ((value as number) > high) return `${name} is too large`;
    return null;
  };

/** Exactly these keys, each passing its check, in the public server's order of complaints. */
function dictOnly(name: string, data: Record<string, unknown>, keys: Array<[string, Check]>) {
  for (const [key, check] of keys) {
    if (!(key in data)) return `${key} key is missing from ${name}`;
    const error = check(`${name}["${key}"]`, data[key]);
    if (error) return error;
  }
  const extra = Object.keys(data).filter((k) => !keys.some(([key]) => key === k));
  return extra.length > 0 ? `Unexpected arguments: ${extra.join(', ')}` : null;
}

function pollError(data: Record<string, unknown>, isAuthor: boolean): string | null {
  const name = 'poll data';
  switch (data.type) {
    case 'vote':
      return dictOnly(name, data, [
        ['type', isString],
        ['key', isString],
        ['vote', intIn([1, -1])],
      ]);
    case 'question':
      if (!isAuthor) return "You can't edit a question unless you are the author.";
      return dictOnly(name, data, [
        ['type', isString],
        ['question', isString],
      ]);
    case 'new_option':
      return dictOnly(name, data, [
        ['type', isString],
        ['option', isString],
        ['idx', intRange(0, MAX_IDX)],
      ]);
    default:
      return `Unknown type for poll data: ${String(data.type)}`;
  }
}

function todoError(data: Record<string, unknown>, isAuthor: boolean): string | null {
  const name = 'todo data';
  switch (data.type) {
    case 'new_task':
      return dictOnly(name, data, [
        ['type', isString],
        ['key', intRange(0, MAX_IDX)],
        ['task', isString],
        ['desc', isString],
        ['completed', isBool],
      ]);
    case 'strike':
      return dictOnly(name, data, [
        ['type', isString],
        ['key', isString],
      ]);
    case 'new_task_list_title':
      if (!isAuthor) return "You can't edit the task list title unless you are the author.";
      return dictOnly(name, data, [
        ['type', isString],
        ['title', isString],
      ]);
    default:
      return `Unknown type for todo data: ${String(data.type)}`;
  }
}

/** The error the public server gives for this widget payload, or null when it is accepted. */
export function widgetEventError(
  widgetType: WidgetType | null,
  data: unknown,
  isAuthor: boolean,
): string | null {
  if (widgetType === null) return null;
  const name = `${widgetType} data`;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return `${name} is not a dict`;
  }
  const record = data as Record<string, unknown>;
  if (!('type' in record)) return `type key is missing from ${name}`;
  const typeError = isString(`${name}["type"]`, record.type);
  if (typeError) return typeError;
  return widgetType === 'poll' ? pollError(record, isAuthor) : todoError(record, isAuthor);
}
