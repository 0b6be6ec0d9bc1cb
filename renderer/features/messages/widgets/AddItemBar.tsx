// The input row under a widget for adding an option or a task: the button is off while the text is
// empty or already present, as in the web app; Enter adds. The server's refusal of the widget's
// last action is shown under it.
import { useState, type KeyboardEvent } from 'react';

function BarInput({
  label,
  value,
  onChange,
  onEnter,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onEnter: () => void;
}) {
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // The message list's own keys must not see the widget's.
    e.stopPropagation();
    if (e.key === 'Enter') onEnter();
  };
  return (
    <input
      type="text"
      placeholder={label}
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}

export function AddItemBar({
  placeholder,
  descPlaceholder,
  buttonLabel,
  isTaken,
  takenMessage,
  onAdd,
  error,
}: {
  placeholder: string;
  /** A second input (a task's description). */
  descPlaceholder?: string;
  buttonLabel: string;
  isTaken: (text: string) => boolean;
  takenMessage: string;
  onAdd: (text: string, desc: string) => void;
  error: string | null;
}) {
  const [text, setText] = useState('');
  const [desc, setDesc] = useState('');
  const trimmed = text.trim();
  const taken = trimmed !== '' && isTaken(trimmed);
  const add = () => {
    if (trimmed === '' || taken) return;
    onAdd(trimmed, desc.trim());
    setText('');
    setDesc('');
  };
  return (
    <>
      <div className="widget-add-bar">
        <BarInput label={placeholder} value={text} onChange={setText} onEnter={add} />
        {descPlaceholder ? (
          <BarInput label={descPlaceholder} value={desc} onChange={setDesc} onEnter={add} />
        ) : null}
        <button
          type="button"
          disabled={trimmed === '' || taken}
          title={taken ? takenMessage : undefined}
          onClick={add}
        >
          {buttonLabel}
        </button>
      </div>
      {error ? (
        <p className="widget-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
