// The move/rename form, as the public web app's "Move messages" dialog: the channel, the new topic
// name, which messages (only this one, this and all following, all of the topic) when it is opened
// from a message, and whether the notification bot tells the new and the old topic. Used inline in
// a message's actions and in a dialog from the topic menus (TopicMenu).
import { useState } from 'react';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { PropagateMode } from './topic-actions';

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
  className = 'menu move-form',
  onMove,
  onCancel,
}: {
  streamId: number;
  topic: string;
  /** Offer the choice of which messages, starting at this one; without it, the whole topic moves. */
  scope?: PropagateMode;
  className?: string;
  onMove: (choice: MoveChoice) => void;
  onCancel: () => void;
}) {
  const subscriptions = useChatStore((s) => selectActiveAccount(s)?.channels.subscriptions);
  const [newTopic, setNewTopic] = useState(topic);
  const [channel, setChannel] = useState(streamId);
  const [mode, setMode] = useState<PropagateMode>(scope ?? 'change_all');
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
      <label>
        New topic
        <input value={newTopic} onChange={(e) => setNewTopic(e.target.value)} autoFocus />
      </label>
      {scope ? (
        <label>
          Which messages
          <select value={mode} onChange={(e) => setMode(e.target.value as PropagateMode)}>
            <option value="change_one">Only this message</option>
            <option value="change_later">This and all following messages</option>
            <option value="change_all">All messages in the topic</option>
          </select>
        </label>
      ) : null}
      <label className="check">
        <input
          type="checkbox"
          checked={notifyNew}
          onChange={(e) => setNotifyNew(e.target.checked)}
        />
        Send automated notice to new topic
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={notifyOld}
          onChange={(e) => setNotifyOld(e.target.checked)}
        />
        Send automated notice to old topic
      </label>
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
