// The move/rename form, as the public web app's "Move messages" dialog: the channel (only for
// people who may move between channels), the new topic name (read-only for people who may only
// move between channels), which messages (only this one, this and all following, all of the topic)
// when it is opened from a message, and whether the notification bot tells the new and the old
// topic. Used inline in a message's actions and in a dialog from the topic menus (TopicMenu); from
// a topic row the whole topic moves, as in the web app.
import { useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { PropagateMode } from './topic-actions';
import type { TopicPermissions } from './topic-permissions';

export interface MoveChoice {
  topic: string;
  streamId: number;
  propagateMode: PropagateMode;
  notifyOld: boolean;
  notifyNew: boolean;
}

export function MoveTopicForm({
  streamId,
  topic,
  scope,
  permissions,
  className = 'menu move-form',
  onMove,
  onCancel,
}: {
  streamId: number;
  topic: string;
  /** Offer the choice of which messages, starting with this one; without it, the whole topic moves. */
  scope?: PropagateMode;
  /** What the person may change: the channel, the topic name. */
  permissions: Pick<TopicPermissions, 'moveTopics' | 'moveChannels'>;
  className?: string;
  onMove: (choice: MoveChoice) => void;
  onCancel: () => void;
}) {
  const subscriptions = useChatStore((s) => selectActiveAccount(s)?.channels.subscriptions);
  const [newTopic, setNewTopic] = useState(topic);
  const [channel, setChannel] = useState(streamId);
  const [mode, setMode] = useState<PropagateMode>(scope ?? 'change_all');
  // The place of the message in its topic may be known only after the server has answered: the
  // choice follows it until the person picks one.
  const [picked, setPicked] = useState(false);
  const [shownScope, setShownScope] = useState(scope);
  if (scope !== shownScope) {
    setShownScope(scope);
    if (!picked && scope) setMode(scope);
  }
  // The public web app's defaults: tell the new topic, not the old one.
  const [notifyNew, setNotifyNew] = useState(true);
  const [notifyOld, setNotifyOld] = useState(false);
  const unchanged = newTopic.trim() === topic && channel === streamId;
  return (
    <form
      className={className}
      aria-label="Move messages"
      onSubmit={(e) => {
        e.preventDefault();
        if (unchanged) return;
        onMove({
          topic: newTopic.trim(),
          streamId: channel,
          propagateMode: mode,
          notifyOld,
          notifyNew,
        });
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // This form only: the window's Esc would go back a view.
        e.preventDefault();
        e.stopPropagation();
        onCancel();
      }}
    >
      {permissions.moveChannels ? (
        <label>
          Channel
          <select value={channel} onChange={(e) => setChannel(Number(e.target.value))}>
            {[...(subscriptions?.values() ?? [])].map((s) => (
              <option key={s.stream_id} value={s.stream_id}>
                #{s.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label>
        New topic
        <input
          value={newTopic}
          onChange={(e) => setNewTopic(e.target.value)}
          disabled={!permissions.moveTopics}
          autoFocus={permissions.moveTopics}
        />
      </label>
      {scope ? (
        <label>
          Which messages should be moved?
          <select
            value={mode}
            onChange={(e) => {
              setPicked(true);
              setMode(e.target.value as PropagateMode);
            }}
          >
            <option value="change_one">Move only this message</option>
            <option value="change_later">Move this and all following messages in this topic</option>
            <option value="change_all">Move all messages in this topic</option>
          </select>
        </label>
      ) : null}
      <NoticeChoice where="new" checked={notifyNew} onChange={setNotifyNew} />
      <NoticeChoice where="old" checked={notifyOld} onChange={setNotifyOld} />
      <div className="form-buttons">
        <button type="submit" disabled={unchanged}>
          Move
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One "Send automated notice to … topic" choice. */
function NoticeChoice({
  where,
  checked,
  onChange,
}: {
  where: 'new' | 'old';
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Send automated notice to {where} topic
    </label>
  );
}
