// Replaying one queued action at the server, deciding what its answer means. Each check below makes a
// second attempt (after a lost answer or a crash) land on the same state as the first, and reads the
// public server's answers (400 with these codes and texts, the same from the local server):
// - a flag change or topic policy sets a state: sending it again is harmless. A flag change naming a
//   message deleted meanwhile ("Invalid message(s)", which refuses the whole call) is made again
//   for the messages still there;
// - a reaction already there (REACTION_ALREADY_EXISTS) or already gone (REACTION_DOES_NOT_EXIST, or
//   its message gone) is done, as on the public server since feature level 193 (older ones say so
//   only in the text, with code BAD_REQUEST);
// - deleting a message that is gone ("Invalid message(s)") is done;
// - an edit first reads the message: text and topic already as wanted is done; a message changed
//   by someone else since the person last saw it is a conflict (their edit becomes a draft), and so
//   is one deleted meanwhile. From feature level 379 the edit itself carries prev_content_sha256
//   of the text it was checked against, so a change in between is refused by the server and also
//   ends as a conflict; below it, a change in the moment between the read and the edit is not seen.
// Anything else the server refuses for good (an emoji the organization removed, "You don't have
// permission to edit this message") is undone on screen and explained; no answer at all (a network
// error, a 5xx, a rate limit) throws, and the action stays queued.
import { createHash } from 'node:crypto';
import { endpoints } from '../../shared/api/endpoints';
import type { ServerEvent } from '../../shared/api/events';
import type { MessageWithFlags } from '../../shared/api/types';
import type { DraftBody } from '../../shared/ipc/drafts';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { callAction, updateWholeNarrow, type CallContext } from './action-calls';
import { restoreMessageEvents } from './action-events';
import type { ActionOutcome, OfflineAction, QueuedAction } from './action-queue';

export interface ReplayContext extends CallContext {
  selfUserId: number;
}

export async function performAction(
  entry: QueuedAction,
  ctx: ReplayContext,
): Promise<ActionOutcome> {
  const { action } = entry;
  try {
    switch (action.kind) {
      case 'updateFlagsForNarrow':
        await updateWholeNarrow(ctx.client, action.payload);
        return { status: 'done' };
      case 'updateFlags':
        await updateFlags(ctx, action);
        return { status: 'done' };
      case 'editMessage':
        return await replayEdit(entry, action, ctx);
      default:
        await callAction(ctx, action);
        return { status: 'done' };
    }
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (alreadyDone(action, error)) return { status: 'done' };
    const reason = `${describe(action)} was refused: ${error.message}`;
    if (action.kind === 'deleteMessage') {
      return { status: 'refused', reason, undo: await restoreFromServer(entry, ctx) };
    }
    return { status: 'refused', reason };
  }
}

/** A definite answer from the server that it will not do this (a 4xx with a body). */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.kind === 'server' && !error.ambiguous;
}

/**
 * The public server's answer (400 BAD_REQUEST) for a message that is gone or that the person can no
 * longer read, to a delete, a flag change, a reaction or a read of it.
 */
function messageGone(error: ApiError): boolean {
  return error.message.toLowerCase().includes('invalid message');
}

function alreadyDone(action: OfflineAction, error: ApiError): boolean {
  const text = error.message.toLowerCase();
  switch (action.kind) {
    case 'addReaction':
      return error.code === 'REACTION_ALREADY_EXISTS' || text.includes('reaction already exists');
    case 'removeReaction':
      // Gone with its message is gone too.
      return (
        error.code === 'REACTION_DOES_NOT_EXIST' ||
        text.includes("reaction doesn't exist") ||
        messageGone(error)
      );
    case 'deleteMessage':
      return messageGone(error);
    default:
      return false;
  }
}

/**
 * A flag change names messages; the server refuses the whole call when one of them is gone
 * ("Invalid message(s)"). A message deleted meanwhile has no flag to set, so the call is made again
 * for the messages the server still has.
 */
async function updateFlags(
  ctx: ReplayContext,
  action: Extract<OfflineAction, { kind: 'updateFlags' }>,
): Promise<void> {
  try {
    await callAction(ctx, action);
  } catch (error) {
    if (!isRefusal(error) || !messageGone(error)) throw error;
    const kept: number[] = [];
    for (const id of action.payload.messages) {
      const readable = await ctx.client
        .call(endpoints.getMessage, { message_id: id, apply_markdown: false })
        .then(
          () => true,
          (failure: unknown) => {
            if (isRefusal(failure) && messageGone(failure)) return false;
            throw failure;
          },
        );
      if (readable) kept.push(id);
    }
    if (kept.length === 0) return; // every message is gone: nothing left to flag
    if (kept.length === action.payload.messages.length) throw error; // refused for another reason
    await callAction(ctx, { ...action, payload: { ...action.payload, messages: kept } });
  }
}

async function replayEdit(
  entry: QueuedAction,
  action: Extract<OfflineAction, { kind: 'editMessage' }>,
  ctx: ReplayContext,
): Promise<ActionOutcome> {
  const { messageId, content, topic, streamId, prevContentSha256 } = action.payload;
  const source = await readSource(ctx.client, messageId).catch((error: unknown) => {
    if (!isRefusal(error)) throw error;
    return null; // deleted meanwhile, or no longer readable
  });
  if (!source) {
    const reason = 'The message you edited offline was deleted meanwhile.';
    // Its text is kept as a draft; a move of it has nothing to keep.
    return content === undefined
      ? { status: 'refused', reason }
      : { status: 'conflict', reason, draft: { type: '', to: [], topic: '', content } };
  }
  const { message, raw } = source;
  const contentDone = content === undefined || sameText(raw, content);
  const topicDone = topic === undefined || (message.type === 'stream' && message.subject === topic);
  const channelDone =
    streamId === undefined || (message.type === 'stream' && message.stream_id === streamId);
  if (contentDone && topicDone && channelDone) return { status: 'done' };

  const conflict = async (): Promise<ActionOutcome> => ({
    status: 'conflict',
    reason:
      'A message you edited offline was changed elsewhere meanwhile; your version is kept as a draft.',
    draft: content === undefined ? null : draftOf(message, content, ctx.selfUserId),
    undo: await restoreFromServer(entry, ctx),
  });
  if (!contentDone) {
    const changed =
      prevContentSha256 !== undefined
        ? sha256(raw) !== prevContentSha256
        : (message.last_edit_timestamp ?? 0) * 1000 > entry.seenUntil;
    if (changed) return conflict();
  }
  try {
    await callAction(ctx, {
      kind: 'editMessage',
      payload: {
        ...action.payload,
        // Checked against the text read just now: a change in between is refused.
        prevContentSha256: contentDone ? undefined : sha256(raw),
        content: contentDone ? undefined : content,
      },
    });
    return { status: 'done' };
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const now = await readSource(ctx.client, messageId).catch(() => null);
    if (now && !contentDone && now.raw !== raw) return conflict();
    return {
      status: 'refused',
      reason: `Your offline edit was refused: ${error.message}`,
      undo: await restoreFromServer(entry, ctx),
    };
  }
}

async function readSource(
  client: ApiClient,
  messageId: number,
): Promise<{ message: MessageWithFlags; raw: string }> {
  const answer = await client.call(endpoints.getMessage, {
    message_id: messageId,
    apply_markdown: false,
  });
  return { message: answer.message, raw: answer.raw_content ?? answer.message.content };
}

/** The events that show the message as the server has it again (rendered), or none if unreadable. */
async function restoreFromServer(entry: QueuedAction, ctx: ReplayContext): Promise<ServerEvent[]> {
  const messageId = 'messageId' in entry.action.payload ? entry.action.payload.messageId : null;
  if (messageId === null) return [];
  try {
    const { message } = await ctx.client.call(endpoints.getMessage, {
      message_id: messageId,
      apply_markdown: true,
    });
    return restoreMessageEvents(
      message,
      entry.shown,
      Math.floor(Date.now() / 1000),
    ) as ServerEvent[];
  } catch {
    return []; // the next registration or fetch shows the server's state
  }
}

/** The server keeps a message without its trailing whitespace. */
function sameText(stored: string, wanted: string): boolean {
  return stored.trimEnd() === wanted.trimEnd();
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function draftOf(message: MessageWithFlags, content: string, selfUserId: number): DraftBody {
  if (message.type === 'stream') {
    return { type: 'stream', to: [message.stream_id], topic: message.subject, content };
  }
  const others = message.display_recipient.map((r) => r.id).filter((id) => id !== selfUserId);
  return { type: 'private', to: others.length > 0 ? others : [selfUserId], topic: '', content };
}

function describe(action: OfflineAction): string {
  switch (action.kind) {
    case 'markAllAsRead':
      return 'Marking all messages as read offline';
    case 'updateFlags':
    case 'updateFlagsForNarrow':
      return `Marking messages (${action.payload.op === 'add' ? '' : 'un'}${action.payload.flag}) offline`;
    case 'addReaction':
      return `Your reaction :${action.payload.emojiName}:`;
    case 'removeReaction':
      return `Removing your reaction :${action.payload.emojiName}:`;
    case 'deleteMessage':
      return 'Deleting a message offline';
    case 'setUserTopic':
      return `Changing how you follow “${action.payload.topic}”`;
    case 'editMessage':
      return 'Your offline edit';
  }
}
