// The edit form of the Scheduled messages view, for a scheduled message (text and time) and for a
// reminder (time only).
import { useState } from 'react';
import { fromDatetimeLocal, toDatetimeLocal } from '../compose/schedule-times';

/**
 * A new time (and, when `content` is given, new text) for something the server does later: a
 * scheduled message here, a reminder in Reminders.tsx.
 */
export function EditScheduled({
  label,
  timeLabel,
  content: initialContent,
  at,
  onSave,
  onCancel,
}: {
  label: string;
  timeLabel: string;
  content?: string;
  at: number;
  onSave: (content: string, deliverAt: number) => void;
  onCancel: () => void;
}) {
  const [content, setContent] = useState(initialContent ?? '');
  const [when, setWhen] = useState(toDatetimeLocal(at));
  const deliverAt = fromDatetimeLocal(when);
  const ready = deliverAt !== null && (initialContent === undefined || !!content.trim());
  return (
    <form
      className="edit-scheduled"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onSave(content, deliverAt);
      }}
    >
      {initialContent !== undefined ? (
        <textarea
          aria-label="Message"
          value={content}
          rows={3}
          onChange={(e) => setContent(e.target.value)}
        />
      ) : null}
      <label>
        <span>{timeLabel}</span>
        <input
          type="datetime-local"
          aria-label={timeLabel}
          value={when}
          onChange={(e) => setWhen(e.target.value)}
        />
      </label>
      <div className="scheduled-actions">
        <button type="submit" disabled={!ready}>
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
