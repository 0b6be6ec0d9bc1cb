// A poll as the web app shows it: the question (the author may edit it), one row per option with
// a vote button showing the count, the option and who voted, and a bar to add an option.
import { useShallow } from 'zustand/shallow';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { userName } from '../narrow-info';
import {
  pollNewOptionEvent,
  pollQuestionEvent,
  pollVoteEvent,
  type PollState,
} from '../../../../shared/widgets/poll';
import { EditableHeading } from './EditableHeading';
import { AddItemBar } from './AddItemBar';
import { useWidgetSender } from './send';

export function PollWidget({
  accountId,
  messageId,
  poll,
  selfUserId,
}: {
  accountId: string;
  messageId: number;
  poll: PollState;
  selfUserId: number;
}) {
  const { send, nextIdx, error } = useWidgetSender(accountId, messageId);
  // Voters' names, compared item by item so other store updates do not re-render the poll.
  const voterIds = poll.options.flatMap((o) => o.voters);
  const names = useChatStore(
    useShallow((s) => {
      const account = selectActiveAccount(s);
      return voterIds.map((id) => userName(account, id));
    }),
  );
  const nameOf = new Map(voterIds.map((id, i) => [id, names[i]]));
  const isAuthor = selfUserId === poll.authorId;
  return (
    <div className="widget poll-widget" data-testid="poll-widget">
      <EditableHeading
        text={poll.question}
        placeholder="Add question"
        editLabel="Edit question"
        canEdit={isAuthor}
        startEditing={isAuthor && poll.question === ''}
        onSave={(text) => send(pollQuestionEvent(poll, selfUserId, text))}
      />
      {!isAuthor && poll.question === '' ? (
        <p className="widget-wait">We are about to have a poll. Please wait for the question.</p>
      ) : null}
      <ul className="poll-options">
        {poll.options.map((o) => {
          const mine = o.voters.includes(selfUserId);
          const voters = o.voters.map((id) => nameOf.get(id)).join(', ');
          return (
            <li key={o.key} className="poll-option">
              <button
                type="button"
                className={`poll-vote${mine ? ' current-user-vote' : ''}`}
                aria-pressed={mine}
                aria-label={`${mine ? 'Remove your vote for' : 'Vote for'} ${o.option} (${o.voters.length})`}
                onClick={() => send(pollVoteEvent(poll, selfUserId, o.key))}
              >
                {o.voters.length}
              </button>
              <span className="poll-option-text">{o.option}</span>
              {voters ? <span className="poll-names">({voters})</span> : null}
            </li>
          );
        })}
      </ul>
      <AddItemBar
        placeholder="New option"
        buttonLabel="Add option"
        isTaken={(text) => poll.options.some((o) => o.option === text)}
        takenMessage="Option already present."
        onAdd={(text) => {
          const event = pollNewOptionEvent(poll, selfUserId, text);
          if (event?.type === 'new_option') send({ ...event, idx: nextIdx(event.idx) });
        }}
        error={error}
      />
    </div>
  );
}
