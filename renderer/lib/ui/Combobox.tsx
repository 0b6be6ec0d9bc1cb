// Typeaheads on downshift's useCombobox (the ARIA 1.2 combobox: roles, ids, aria-activedescendant,
// aria-expanded, the highlight moved by arrows and the pointer, the highlighted option scrolled
// into view, a click outside) and Floating UI (the list placed beside its field, flipped or shifted
// to stay inside the window), so no typeahead in the app writes its own.
//
// The caller owns what is typed and when there is something to offer (`open`); this hook owns the
// list and its keys while it shows: ArrowUp/ArrowDown (round the ends) and PageUp/PageDown move,
// Enter or Tab pick the highlighted option (and `pickKeys`, say `>` after a channel), Esc closes
// the list and stops there (the next Esc reaches what is around it). With the list closed every
// key is the field's own (`onKeyDown`), so a text area keeps its arrows for its lines.
import {
  useCallback,
  useRef,
  useState,
  type AllHTMLAttributes,
  type ChangeEvent,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  type ComponentProps,
  type Ref,
} from 'react';
import { useCombobox } from 'downshift';
import {
  autoUpdate,
  flip,
  offset,
  shift,
  size,
  useFloating,
  type Placement,
} from '@floating-ui/react-dom';

export interface ComboboxListOptions<T> {
  /** What the list offers now. */
  items: readonly T[];
  /** Whether the caller has something to offer; the list shows while this holds and items exist. */
  open: boolean;
  /** The list's accessible name ("People", "Topics"). */
  label: string;
  itemKey: (item: T) => string;
  /** The option's words, as a screen reader's status and downshift's own bookkeeping use them. */
  itemText: (item: T) => string;
  /** The option's face (defaults to its words). */
  renderItem?: (item: T) => ReactNode;
  /** How it was picked: a search bar searches on Enter or a click, and only completes on Tab. */
  onPick: (item: T, via: PickedBy) => void;
  /** The list was closed from inside: Esc, or the focus left the field (a click elsewhere). */
  onDismiss: (reason: 'escape' | 'blur') => void;
  /** Keys that pick the highlighted option besides Enter and Tab. */
  pickKeys?: (event: KeyboardEvent<HTMLElement>) => boolean;
  /** Where the list goes beside the field; it flips to the other side when there is no room. */
  placement?: Placement;
  /** A list that stays in the page's flow (a dialog that is the list), not floating. */
  inline?: boolean;
  /** The list's class: "autocomplete" floats as every typeahead list looks. */
  className?: string;
  /**
   * The field is a text area: ARIA's combobox is one line, so it stays a textbox that names its
   * list (aria-autocomplete, aria-controls, aria-activedescendant), as a multi-line field may.
   */
  multiline?: boolean;
  /** The list is placed beside what `setAnchor` is given (a search bar with pills), not the field. */
  ownAnchor?: boolean;
  /**
   * False: nothing is highlighted until an arrow key moves, so Enter is the field's (a search bar
   * searches for what is typed) and Tab takes the first option. Default true: the first option is.
   */
  highlightFirst?: boolean;
}

export type PickedBy = 'enter' | 'tab' | 'click' | 'key';

type FieldElement = HTMLInputElement | HTMLTextAreaElement;

/** What the field passes on: its own handlers run for every key the open list does not take. */
export interface FieldProps<E extends FieldElement> {
  ref?: Ref<E>;
  onKeyDown?: (event: KeyboardEvent<E>) => void;
  onChange?: (event: ChangeEvent<E>) => void;
  onBlur?: (event: FocusEvent<E>) => void;
  [attribute: string]: unknown;
}

/** Keys downshift moves the highlight with; the rest of its keys are settled here or the field's. */
const MOVE_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp']);

/** Tells downshift to leave this event alone (its documented escape hatch). */
function leaveToField(event: KeyboardEvent<HTMLElement>) {
  (
    event.nativeEvent as KeyboardEvent['nativeEvent'] & { preventDownshiftDefault?: boolean }
  ).preventDownshiftDefault = true;
}

export function useComboboxList<T>({
  items,
  open,
  label,
  itemKey,
  itemText,
  renderItem,
  onPick,
  onDismiss,
  pickKeys,
  placement = 'bottom-start',
  inline = false,
  className = 'autocomplete',
  ownAnchor = false,
  multiline = false,
  highlightFirst = true,
}: ComboboxListOptions<T>) {
  const isOpen = open && items.length > 0;
  const none = highlightFirst ? 0 : -1;
  const [highlight, setHighlight] = useState(none);
  // While the list shows, one option is highlighted (the first after each change of text), or
  // with highlightFirst false none until the arrows move.
  const highlightedIndex = !isOpen
    ? -1
    : highlight >= 0 && highlight < items.length
      ? highlight
      : none;

  const floating = useFloating<Element>({
    placement,
    strategy: 'fixed',
    open: isOpen && !inline,
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(4),
      flip({ padding: 8 }),
      shift({ padding: 8 }),
      size({
        padding: 8,
        apply({ availableHeight, elements, rects }) {
          elements.floating.style.maxHeight = `${Math.max(96, Math.floor(availableHeight))}px`;
          // For lists at least as wide as their field (the search bar's), in CSS.
          elements.floating.style.setProperty('--anchor-width', `${rects.reference.width}px`);
        },
      }),
    ],
  });

  const combobox = useCombobox<T>({
    items: items as T[],
    isOpen,
    highlightedIndex,
    // Nothing stays chosen: a pick goes into the field's text, the field's own business.
    selectedItem: null,
    defaultHighlightedIndex: none,
    itemToString: (item) => (item === null ? '' : itemText(item)),
    itemToKey: (item: T | null) => (item === null ? null : itemKey(item)),
    onHighlightedIndexChange: ({ highlightedIndex: next }) => setHighlight(next ?? none),
    onStateChange: ({ type, selectedItem }) => {
      if (type === useCombobox.stateChangeTypes.ItemClick && selectedItem != null)
        onPick(selectedItem, 'click');
      else if (type === useCombobox.stateChangeTypes.InputBlur) onDismiss('blur');
    },
  });

  const pickHighlighted = (via: PickedBy) => {
    // Tab with nothing highlighted completes the first option.
    const item = items[via === 'tab' ? Math.max(0, highlightedIndex) : highlightedIndex];
    if (item !== undefined) onPick(item, via);
  };

  /** The list's own keys; true when the key was one. */
  const listKey = (e: KeyboardEvent<HTMLElement>): boolean => {
    const composing = e.nativeEvent.isComposing;
    if (e.key === 'Escape') {
      e.preventDefault();
      // The innermost open thing is this list: Esc goes no further (not to the dialog or app).
      e.stopPropagation();
      onDismiss('escape');
      return true;
    }
    // Nothing highlighted: Enter is the field's (its form's submit).
    const enter = e.key === 'Enter' && !e.shiftKey && !composing && highlightedIndex >= 0;
    const via: PickedBy | null =
      e.key === 'Tab' && !e.shiftKey
        ? 'tab'
        : enter
          ? 'enter'
          : highlightedIndex >= 0 && (pickKeys?.(e) ?? false)
            ? 'key'
            : null;
    if (via === null) return false;
    e.preventDefault();
    pickHighlighted(via);
    return true;
  };

  // The field's ref is one function for the field's life. Downshift composes a new one on every
  // render, and React detaches and attaches a changed ref on each commit: Floating UI's reference
  // went to null and back each time, a state change that rendered the whole typeahead again on
  // every keystroke. Downshift's and the caller's refs are objects set once, so the latest composed
  // ref, called when the field mounts and unmounts, sets them all.
  const composedFieldRef = useRef<Ref<FieldElement> | undefined>(undefined);
  const fieldRef = useCallback((node: FieldElement | null) => {
    const ref = composedFieldRef.current;
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  }, []);

  /** Props for the field (an input or a text area), around its own. */
  function getFieldProps<E extends FieldElement>({
    ref,
    onKeyDown,
    onChange,
    onBlur,
    ...rest
  }: FieldProps<E>): AllHTMLAttributes<E> & { ref: Ref<E> } {
    const props = combobox.getInputProps(
      {
        ...rest,
        ref: (node: E | null) => {
          if (!inline && !ownAnchor) floating.refs.setReference(node);
          if (typeof ref === 'function') ref(node);
          else if (ref) ref.current = node;
        },
        onKeyDown: (e: KeyboardEvent<E>) => {
          if (isOpen && MOVE_KEYS.has(e.key)) return; // downshift moves the highlight
          leaveToField(e);
          if (isOpen && listKey(e)) return;
          onKeyDown?.(e);
        },
        onChange,
        onBlur,
        ...(multiline
          ? { role: 'textbox', 'aria-multiline': true, 'aria-expanded': undefined }
          : {}),
        // Closed lists are not rendered: downshift's check that the list got its ref is for lists
        // always in the page.
      } as Parameters<typeof combobox.getInputProps>[0],
      { suppressRefError: true },
    ) as AllHTMLAttributes<E> & { ref: Ref<E> };
    composedFieldRef.current = props.ref as Ref<FieldElement>;
    return { ...props, ref: fieldRef as Ref<E> };
  }

  const list: ReactNode = isOpen ? (
    <ul
      {...combobox.getMenuProps(
        {
          'aria-label': label,
          className,
          ref: inline ? undefined : floating.refs.setFloating,
          style: inline ? undefined : floating.floatingStyles,
        },
        { suppressRefError: true },
      )}
    >
      {items.map((item, index) => (
        <li key={itemKey(item)} {...combobox.getItemProps({ item, index })}>
          {renderItem ? renderItem(item) : itemText(item)}
        </li>
      ))}
    </ul>
  ) : null;

  return {
    isOpen,
    highlightedIndex,
    getFieldProps,
    list,
    /** For a list placed beside something larger than the field (a search bar with its pills). */
    setAnchor: floating.refs.setReference,
  };
}

/** What a field needs of useComboboxList. */
interface ComboboxHandle {
  getFieldProps: <E extends FieldElement>(
    props: FieldProps<E>,
  ) => AllHTMLAttributes<E> & { ref: Ref<E> };
}

/** A one-line field with its list (role combobox); its own props and handlers as an input's. */
export function ComboboxInput({
  combobox,
  ...props
}: ComponentProps<'input'> & { combobox: ComboboxHandle }) {
  return (
    <input {...combobox.getFieldProps<HTMLInputElement>(props as FieldProps<HTMLInputElement>)} />
  );
}

/** A text area with its list (useComboboxList with `multiline`); its own props as a text area's. */
export function ComboboxTextArea({
  combobox,
  ...props
}: ComponentProps<'textarea'> & { combobox: ComboboxHandle }) {
  return (
    <textarea
      {...combobox.getFieldProps<HTMLTextAreaElement>(props as FieldProps<HTMLTextAreaElement>)}
    />
  );
}
