// lib/ui/Combobox, the one typeahead every completion list stands on: the ARIA combobox (roles,
// aria-expanded, aria-controls, aria-activedescendant), its keys (arrows round the ends, Enter and
// Tab pick, Esc closes the list and goes no further, keys of a closed list are the field's own),
// a click that picks, and a text area that stays a textbox naming its list.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState, type KeyboardEvent, type Ref } from 'react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import {
  ComboboxInput,
  ComboboxTextArea,
  useComboboxList,
} from '../../../renderer/lib/ui/Combobox';

afterEach(cleanup);

const FRUITS = ['apple', 'apricot', 'banana', 'blackberry', 'cherry'];

interface Spies {
  onPick: (fruit: string) => void;
  onFieldKey: (key: string) => void;
  onOuterKey: (key: string) => void;
}

function Fruits({
  spies,
  multiline = false,
  fieldRef,
}: {
  spies: Spies;
  multiline?: boolean;
  fieldRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
}) {
  const [text, setText] = useState('');
  const [dismissed, setDismissed] = useState(false);
  const combobox = useComboboxList({
    items: text ? FRUITS.filter((f) => f.startsWith(text)) : [],
    open: !dismissed,
    label: 'Fruits',
    itemKey: (f) => f,
    itemText: (f) => f,
    onPick: (f) => {
      spies.onPick(f);
      setText(f);
      setDismissed(true);
    },
    onDismiss: () => setDismissed(true),
    multiline,
  });
  const field = {
    combobox,
    ref: fieldRef,
    'aria-label': 'Fruit',
    value: text,
    onChange: (e: { target: { value: string } }) => {
      setText(e.target.value);
      setDismissed(false);
    },
    onKeyDown: (e: KeyboardEvent) => spies.onFieldKey(e.key),
  };
  return (
    // What is around the field (a dialog, the app's keys) sees only the keys the list leaves.
    <div onKeyDown={(e) => spies.onOuterKey(e.key)}>
      {multiline ? <ComboboxTextArea {...field} /> : <ComboboxInput {...field} />}
      {combobox.list}
    </div>
  );
}

function setup(multiline = false) {
  const spies = { onPick: vi.fn(), onFieldKey: vi.fn(), onOuterKey: vi.fn() };
  render(<Fruits spies={spies} multiline={multiline} />);
  const field = screen.getByRole(multiline ? 'textbox' : 'combobox', { name: 'Fruit' });
  const type = (value: string) => fireEvent.change(field, { target: { value } });
  const options = () =>
    within(screen.getByRole('listbox', { name: 'Fruits' })).getAllByRole('option');
  const highlighted = () => options().find((o) => o.getAttribute('aria-selected') === 'true');
  return { spies, field, type, options, highlighted };
}

describe('Combobox', () => {
  it('is an ARIA combobox whose active descendant is the highlighted option', () => {
    const { field, type, options, highlighted } = setup();
    expect(field.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();

    type('a');
    const list = screen.getByRole('listbox', { name: 'Fruits' });
    expect(field.getAttribute('aria-expanded')).toBe('true');
    expect(field.getAttribute('aria-autocomplete')).toBe('list');
    expect(field.getAttribute('aria-controls')).toBe(list.id);
    expect(options().map((o) => o.textContent)).toEqual(['apple', 'apricot']);
    // The first option is highlighted as the list opens, and the field says which it is.
    expect(highlighted()?.textContent).toBe('apple');
    expect(field.getAttribute('aria-activedescendant')).toBe(highlighted()!.id);
  });

  it('moves with the arrows round the ends and picks with Enter, not reaching the field', () => {
    const { spies, field, type, highlighted } = setup();
    type('b');
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(highlighted()?.textContent).toBe('blackberry');
    expect(field.getAttribute('aria-activedescendant')).toBe(highlighted()!.id);
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(highlighted()?.textContent).toBe('banana');
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    expect(highlighted()?.textContent).toBe('blackberry');
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(spies.onPick).toHaveBeenCalledWith('blackberry');
    expect(spies.onFieldKey).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field.getAttribute('aria-expanded')).toBe('false');
  });

  it('picks with Tab, and with a click', () => {
    const { spies, field, type, options } = setup();
    type('ch');
    const tab = fireEvent.keyDown(field, { key: 'Tab' });
    expect(tab).toBe(false); // the focus stays in the field
    expect(spies.onPick).toHaveBeenLastCalledWith('cherry');

    type('ap');
    fireEvent.click(options()[1]);
    expect(spies.onPick).toHaveBeenLastCalledWith('apricot');
  });

  it('closes on Esc and keeps it from what is around; the next Esc goes on', () => {
    const { spies, field, type } = setup();
    type('a');
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(spies.onOuterKey).not.toHaveBeenCalled();
    expect(spies.onPick).not.toHaveBeenCalled();
    expect((field as HTMLInputElement).value).toBe('a');

    fireEvent.keyDown(field, { key: 'Escape' });
    expect(spies.onFieldKey).toHaveBeenCalledWith('Escape');
    expect(spies.onOuterKey).toHaveBeenCalledWith('Escape');
  });

  it('leaves every key to the field while closed', () => {
    const { spies, field, type } = setup();
    type('zzz'); // nothing matches: no list
    expect(screen.queryByRole('listbox')).toBeNull();
    const arrow = fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(arrow).toBe(true); // not prevented: a text area's arrows move between its lines
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(spies.onFieldKey.mock.calls.map(([key]) => key)).toEqual(['ArrowDown', 'Enter']);
    expect(spies.onPick).not.toHaveBeenCalled();
  });

  it('keeps a text area a textbox that names its list', () => {
    const { spies, field, type, highlighted } = setup(true);
    expect(field.tagName).toBe('TEXTAREA');
    expect(screen.queryByRole('combobox')).toBeNull();
    type('ap');
    expect(field.getAttribute('aria-multiline')).toBe('true');
    expect(field.getAttribute('aria-controls')).toBe(
      screen.getByRole('listbox', { name: 'Fruits' }).id,
    );
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(field.getAttribute('aria-activedescendant')).toBe(highlighted()!.id);
    // Shift+Enter is the text area's (a new line), not a pick.
    fireEvent.keyDown(field, { key: 'Enter', shiftKey: true });
    expect(spies.onPick).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(spies.onPick).toHaveBeenCalledWith('apricot');
  });

  it('sets the field’s ref once, not again on every key', () => {
    // A ref set again on each render would take Floating UI's anchor away and back on every
    // keystroke, rendering the whole typeahead once more each time.
    const ref = vi.fn();
    const spies = { onPick: vi.fn(), onFieldKey: vi.fn(), onOuterKey: vi.fn() };
    render(<Fruits spies={spies} fieldRef={ref} />);
    const field = screen.getByRole('combobox', { name: 'Fruit' });
    for (const value of ['a', 'ap', 'apr', 'ap', 'b', 'bl'])
      fireEvent.change(field, { target: { value } });
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(screen.getAllByRole('option').length).toBeGreaterThan(0);
    expect(ref.mock.calls).toEqual([[field]]);
  });
});
