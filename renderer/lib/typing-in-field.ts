// Whether a key event's target is a place the person types (a text field, a select, an editable
// element): the app's single-letter keys leave those alone.
export function typingInField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}
