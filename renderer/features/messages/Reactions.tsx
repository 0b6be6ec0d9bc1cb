// Reactions under a message: one chip per emoji with its count and who reacted; clicking toggles
// the user's own reaction.
import type { MessageWithFlags, Reaction } from '../../../shared/api/types';
import { useShallow } from 'zustand/shallow';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api } from '../../bridge/api';
import { userName } from './narrow-info';
import { Emoji } from '../emoji/Emoji';

interface Group {
  key: string;
  sample: Reaction;
  userIds: number[];
}

export function groupReactions(reactions: readonly Reaction[]): Group[] {
  const groups = new Map<string, Group>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key);
    if (g) g.userIds.push(r.user_id);
    else groups.set(key, { key, sample: r, userIds: [r.user_id] });
  }
  return [...groups.values()];
}

export function toggleReaction(
  accountId: string,
  message: MessageWithFlags,
  emoji: { name: string; code: string; type: Reaction['reaction_type'] },
  selfUserId: number,
): Promise<unknown> {
  const mine = message.reactions.some(
    (r) =>
      r.user_id === selfUserId && r.emoji_code === emoji.code && r.reaction_type === emoji.type,
  );
  const input = {
    accountId,
    messageId: message.id,
    emojiName: emoji.name,
    emojiCode: emoji.code,
    reactionType: emoji.type,
  };
  return mine ? api().removeReaction(input) : api().addReaction(input);
}

export function Reactions({
  accountId,
  message,
}: {
  accountId: string;
  message: MessageWithFlags;
}) {
  const self = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  // The reactors' names, one per reaction: compared item by item, so other store updates (every
  // event batch) do not re-render the reactions of every visible row.
  const reactorNames = useChatStore(
    useShallow((s) => {
      const account = selectActiveAccount(s);
      return message.reactions.map((r) => userName(account, r.user_id));
    }),
  );
  if (message.reactions.length === 0) return null;
  const nameOf = new Map(message.reactions.map((r, i) => [r.user_id, reactorNames[i]]));
  return (
    <div className="reactions" role="group" aria-label="Reactions">
      {groupReactions(message.reactions).map((g) => {
        const names = g.userIds.map((id) => (id === self ? 'You' : nameOf.get(id)));
        const mine = g.userIds.includes(self);
        return (
          <button
            type="button"
            key={g.key}
            className={`reaction${mine ? ' mine' : ''}`}
            aria-pressed={mine}
            aria-label={`${g.sample.emoji_name}: ${g.userIds.length}, ${names.join(', ')}`}
            title={`${names.join(', ')} reacted with :${g.sample.emoji_name}:`}
            onClick={() =>
              void toggleReaction(
                accountId,
                message,
                {
                  name: g.sample.emoji_name,
                  code: g.sample.emoji_code,
                  type: g.sample.reaction_type,
                },
                self,
              ).catch(() => undefined)
            }
          >
            <Emoji
              accountId={accountId}
              name={g.sample.emoji_name}
              code={g.sample.emoji_code}
              type={g.sample.reaction_type}
            />{' '}
            {g.userIds.length}
          </button>
        );
      })}
    </div>
  );
}
