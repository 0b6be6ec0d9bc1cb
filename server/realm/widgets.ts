// Widget messages as the public server makes them: a message whose first word is /poll or /todo
// gets, at send time, a "widget" submessage whose content names the widget and carries what the
// message text pre-sets (the poll's question and options, the list's title and tasks). Later
// submessages (votes, new options, tasks, strikes) are checked against the widget's type.

export type WidgetType = 'poll' | 'todo';

export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TodoExtraData {
  task_list_title: string;
  tasks: Array<{ task: string; desc: string }>;
}

export interface WidgetContent {
  widget_type: WidgetType;
  extra_data: PollExtraData | TodoExtraData;
}

const WIDGET_TYPES: readonly string[] = ['poll', 'todo'];

// Python's str.splitlines() breaks on these; the public server splits the text with it.
// eslint-disable-next-line no-control-regex -- the file/group/record separators are line breaks there
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(LINE_BREAK);
  // splitlines() gives no empty last line for text that ends with a break.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A line with any list marker ("- ", "* ") removed, as the public server reads options and tasks. */
function listItem(line: string): string {
  return line.trim().replace(/^\s*[-*]?\s*/, '');
}

/** The first line is the heading unless it is empty; the rest are items. */
function headingAndItems(text: string): { heading: string; items: string[] } {
  const lines = splitLines(text);
  let heading = '';
  if (lines.length > 0 && lines[0] !== '') heading = lines.shift()!.trim();
  const items = lines.map(listItem).filter((item) => item.length > 0);
  return { heading, items };
}

function pollExtraData(text: string): PollExtraData {
  const { heading, items } = headingAndItems(text);
  return { question: heading, options: items };
}

function todoExtraData(text: string): TodoExtraData {
  const { heading, items } = headingAndItems(text);
  return {
    task_list_title: heading,
    tasks: items.map((item) => {
      const at = item.indexOf(': ');
      if (at < 0) return { task: item.trim(), desc: '' };
      return { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
    }),
  };
}

/** The widget a message's Markdown source asks for, or null. */
export function widgetContentFor(content: string): WidgetContent | null {
  if (!content.startsWith('/')) return null;
  const first = /^\S*/.exec(content)![0];
  const type = first.slice(1);
  if (!WIDGET_TYPES.includes(type)) return null;
  const rest = content.replace(first, '');
  return type === 'poll'
    ? { widget_type: 'poll', extra_data: pollExtraData(rest) }
    : { widget_type: 'todo', extra_data: todoExtraData(rest) };
}

/**
 * JSON as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped), so the
 * stored widget content is byte for byte what the public server stores.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`);
    return `{${members.join(', ')}}`;
  }
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
