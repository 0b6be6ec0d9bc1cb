// The widget's heading (a poll's question, a list's title) with the web app's author-only pencil:
// editing opens an input with a check and a cancel button; Enter saves, Escape cancels.
import { useState, type KeyboardEvent } from 'react';

export function EditableHeading({
  text,
  placeholder,
  canEdit,
  startEditing,
  onSave,
  editLabel,
}: {
  text: string;
  placeholder: string;
  canEdit: boolean;
  /** Open in edit mode (the author's poll without a question yet). */
  startEditing: boolean;
  onSave: (text: string) => void;
  editLabel: string;
}) {
  const [draft, setDraft] = useState<string | null>(startEditing ? text : null);
  const save = () => {
    if (draft === null) return;
    const next = draft.trim();
    setDraft(null);
    if (next !== '' && next !== text) onSave(next);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // The message list's own keys (Esc = back) must not see the widget's.
    e.stopPropagation();
    if (e.key === 'Enter') save();
    else if (e.key === 'Escape') setDraft(null);
  };
  if (canEdit && draft !== null) {
    return (
      <div className="widget-heading-bar">
        <input
          type="text"
          className="widget-heading-input"
          placeholder={placeholder}
          aria-label={placeholder}
          value={draft}
          // Opened by a click on the pencil: the input takes the caret at once.
          autoFocus={!startEditing}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {text !== '' ? (
          <button
            type="button"
            className="widget-icon"
            aria-label="Cancel"
            onClick={() => setDraft(null)}
          >
            ✕
          </button>
        ) : null}
        <button
          type="button"
          className="widget-icon widget-check"
          aria-label="Save"
          disabled={draft.trim() === ''}
          onClick={save}
        >
          ✓
        </button>
      </div>
    );
  }
  return (
    <div className="widget-heading-bar">
      <h4 className="widget-heading">{text}</h4>
      {canEdit ? (
        <button
          type="button"
          className="widget-icon widget-edit"
          aria-label={editLabel}
          title={editLabel}
          onClick={() => setDraft(text)}
        >
          ✎
        </button>
      ) : null}
    </div>
  );
}
