// The topic field with completion from the channel's topics (the server's list), as the public
// app's topic typeahead on lib/ui/Combobox: arrows move, Tab or Enter picks, Esc closes, a click
// picks.
import { useState, type RefObject } from 'react';
import { matchTopics } from './autocomplete';
import { useChannelTopics } from './use-completion';
import { ComboboxInput, useComboboxList } from '../../lib/ui/Combobox';

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
  // Asked of main once the field is used, not whenever a compose box shows (every start).
  const [used, setUsed] = useState(false);
  const topics = useChannelTopics(accountId, used ? streamId : null);
  // Offered once the person types, until a pick, Esc or leaving the field.
  const [offering, setOffering] = useState(false);
  // Only existing topics: what is typed is already the field's value.
  const shown = offering && value ? matchTopics(topics, value, { channelLink: false }) : [];
  const options = shown.filter((o) => !o.isNew && o.topic !== value).map((o) => o.topic!);
  const combobox = useComboboxList({
    items: options,
    open: offering,
    label: 'Topics',
    itemKey: (topic) => topic,
    itemText: (topic) => topic,
    onPick: (topic) => {
      onChange(topic);
      setOffering(false);
    },
    onDismiss: () => setOffering(false),
  });
  return (
    <div className="topic-input">
      <ComboboxInput
        combobox={combobox}
        ref={inputRef}
        aria-label="Topic"
        placeholder="Topic"
        value={value}
        maxLength={maxLength}
        onFocus={() => setUsed(true)}
        onChange={(e) => {
          onChange(e.target.value);
          setUsed(true);
          setOffering(true);
        }}
        onBlur={() => setOffering(false)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      {combobox.list}
    </div>
  );
}
