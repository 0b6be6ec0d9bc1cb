// A poll's state from its submessages, with the public web app's semantics (its poll_data.ts):
// options are keyed "<sender>,<idx>" ("canned,<i>" for those in the /poll text); an option whose
// text is already present is dropped; a new_option with a key already in use replaces that option
// (and its votes) in place; a vote of 1 or -1 sets or clears the sender's vote, and a vote for an
// unknown key is ignored; only the message's sender may change the question, and the last change
// wins. Malformed or unknown events are skipped, as the web app skips them after logging.

/** Any one user adds at most this many options (the server refuses larger idx). */
export const MAX_IDX = 1000;

export type WidgetSender = number | 'canned';

export interface PollOption {
  key: string;
  option: string;
  /** Who added it ('canned' for the options given in the /poll message). */
  addedBy: WidgetSender;
  /** Voters' ids in the order they voted. */
  voters: number[];
}

export interface PollState {
  widgetType: 'poll';
  /** The message's sender: the only one who may change the question. */
  authorId: number;
  question: string;
  options: PollOption[];
  /** The highest option idx each user has added, for choosing the next one's idx. */
  lastIdxBySender: Readonly<Record<string, number>>;
}

export type PollEvent =
  | { type: 'vote'; key: string; vote: 1 | -1 }
  | { type: 'new_option'; idx: number; option: string }
  | { type: 'question'; question: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The poll as the /poll message set it up, or null when its extra_data is not a poll's. */
export function createPoll(authorId: number, extraData: unknown): PollState | null {
  if (extraData !== null && !isRecord(extraData)) return null;
  const question = extraData?.question ?? '';
  const options = extraData?.options ?? [];
  if (typeof question !== 'string') return null;
  if (!Array.isArray(options) || !options.every((o) => typeof o === 'string')) return null;
  let poll: PollState = {
    widgetType: 'poll',
    authorId,
    question,
    options: [],
    lastIdxBySender: {},
  };
  options.forEach((option: string, idx) => {
    poll = addOption(poll, 'canned', idx, option);
  });
  return poll;
}

function addOption(poll: PollState, sender: WidgetSender, idx: number, option: string): PollState {
  if (poll.options.some((o) => o.option === option)) return poll;
  if (idx < 0 || idx > MAX_IDX) return poll;
  const key = `${sender},${idx}`;
  const added: PollOption = { key, option, addedBy: sender, voters: [] };
  const at = poll.options.findIndex((o) => o.key === key);
  const options =
    at < 0 ? [...poll.options, added] : poll.options.map((o, i) => (i === at ? added : o));
  const last = poll.lastIdxBySender[sender] ?? -1;
  return {
    ...poll,
    options,
    lastIdxBySender: idx > last ? { ...poll.lastIdxBySender, [sender]: idx } : poll.lastIdxBySender,
  };
}

function vote(poll: PollState, sender: number, key: string, value: unknown): PollState {
  if (value !== 1 && value !== -1) return poll;
  const at = poll.options.findIndex((o) => o.key === key);
  if (at < 0) return poll;
  const option = poll.options[at];
  const has = option.voters.includes(sender);
  if ((value === 1) === has) return poll;
  const voters =
    value === 1 ? [...option.voters, sender] : option.voters.filter((v) => v !== sender);
  return { ...poll, options: poll.options.map((o, i) => (i === at ? { ...o, voters } : o)) };
}

/** The poll after one submessage's data from `sender`. */
export function applyPollEvent(poll: PollState, sender: number, data: unknown): PollState {
  if (!isRecord(data)) return poll;
  switch (data.type) {
    case 'new_option':
      if (typeof data.option !== 'string' || typeof data.idx !== 'number') return poll;
      return addOption(poll, sender, data.idx, data.option);
    case 'vote':
      if (typeof data.key !== 'string') return poll;
      return vote(poll, sender, data.key, data.vote);
    case 'question':
      if (typeof data.question !== 'string' || sender !== poll.authorId) return poll;
      return { ...poll, question: data.question };
    default:
      return poll;
  }
}

/** What `me` sends to toggle their vote on an option (web app: vote, or take it back). */
export function pollVoteEvent(poll: PollState, me: number, key: string): PollEvent {
  const option = poll.options.find((o) => o.key === key);
  return { type: 'vote', key, vote: option?.voters.includes(me) ? -1 : 1 };
}

/** What `me` sends to add an option; null when the text is empty or already an option. */
export function pollNewOptionEvent(poll: PollState, me: number, text: string): PollEvent | null {
  const option = text.trim();
  if (option === '' || poll.options.some((o) => o.option === option)) return null;
  // The web app starts each user's own options at idx 1 and goes on after the highest seen.
  const idx = Math.max(1, (poll.lastIdxBySender[me] ?? 0) + 1);
  return { type: 'new_option', idx, option };
}

/** What the author sends to change the question; null for anyone else or an empty question. */
export function pollQuestionEvent(poll: PollState, me: number, text: string): PollEvent | null {
  const question = text.trim();
  if (me !== poll.authorId || question === '') return null;
  return { type: 'question', question };
}
