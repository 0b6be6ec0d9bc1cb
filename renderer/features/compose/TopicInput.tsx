// The topic field with completion from the channel's topics (the server's list), as the public
// app's topic typeahead: arrows move, Tab or Enter picks, Esc closes, a click picks.
import { useState, type RefObject } from 'react';
import { matchTopics } from './autocomplete';
import { useChannelTopics } from './use-completion';

export function TopicInput({
  accountId,
  streamId,
  value,
  maxLength,
  onChange,
  inputRef,
  onDone,
}: {
  accountId: string;
  streamId: number | null;
  value: string;
  maxLength: number;
  onChange: (topic: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  /** Enter with nothing to pick: on to the message. */
  onDone: () => void;
}) {
  const topics = useChannelTopics(accountId, streamId);
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState(0);
  // Only existing topics: what is typed is already the field's value.
  const options = open && value ? matchTopics(topics, value, { channelLink: false }) : [];
  const shown = options.filter((o) => !o.isNew && o.topic !== value);
  const pick = (topic: string) => {
    onChange(topic);
    setOpen(false);
  };
  return (
    <div className="topic-input">
      <input
        ref={inputRef}
        aria-label="Topic"
        placeholder="Topic"
        value={value}
        maxLength={maxLength}
        aria-controls="topic-options"
        aria-autocomplete="list"
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setChoice(0);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (shown.length > 0) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const delta = e.key === 'ArrowDown' ? 1 : -1;
              setChoice((c) => (c + delta + shown.length) % shown.length);
              return;
            }
            if (e.key === 'Tab' || e.key === 'Enter') {
              e.preventDefault();
              pick(shown[Math.min(choice, shown.length - 1)].topic!);
              return;
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
              return;
            }
          }
          if (e.key === 'Enter') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      {shown.length > 0 ? (
        <ul id="topic-options" className="autocomplete" role="listbox" aria-label="Topics">
          {shown.map((o, i) => (
            <li
              key={o.topic}
              role="option"
              aria-selected={i === choice}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o.topic!);
              }}
            >
              {o.topic}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
