// Esc closes the innermost open menu before anything else. Menus are owned by their components
// (the message actions, the sidebar's channel and topic menus); they all follow the ARIA menu
// button pattern: a button with aria-expanded="true" whose menu (role="menu") sits beside it and
// which closes the menu when pressed again. So this module needs no registry: it finds that button,
// presses it, and returns focus to it.

/** The trigger of an open menu inside `scope`: the one around the focus first, else the last. */
function openMenuTrigger(scope: ParentNode): HTMLElement | null {
  const triggers = [...scope.querySelectorAll<HTMLElement>('button[aria-expanded="true"]')].filter(
    (b) => b.parentElement?.querySelector('[role="menu"]'),
  );
  const focused = document.activeElement;
  return (
    triggers.find((b) => focused && b.parentElement?.contains(focused)) ?? triggers.at(-1) ?? null
  );
}

/** Closes the innermost open menu inside `scope` and focuses its button; false if none is open. */
export function closeOpenMenu(scope: ParentNode = document): boolean {
  const trigger = openMenuTrigger(scope);
  if (!trigger) return false;
  trigger.click();
  trigger.focus();
  return true;
}
