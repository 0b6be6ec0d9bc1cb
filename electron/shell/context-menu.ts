// The right-click menu of the page: spelling suggestions and "Add to Dictionary" on a misspelled word
// (Chromium's spell checker, `spellcheck: true` in window.ts), cut/copy/paste where they apply, and
// "Copy Link" on a web or mail link. Links inside the app (narrow links, app://) are not offered:
// they mean nothing outside it.
import type { ContextMenuParams, MenuItemConstructorOptions, WebContents } from 'electron';
import { isAllowedExternalUrl } from './external-urls';

type MenuParams = Pick<
  ContextMenuParams,
  'isEditable' | 'selectionText' | 'misspelledWord' | 'dictionarySuggestions' | 'linkURL'
> & { editFlags: Pick<ContextMenuParams['editFlags'], 'canCut' | 'canCopy' | 'canPaste'> };

export interface ContextMenuActions {
  replaceMisspelling(word: string): void;
  addToDictionary(word: string): void;
  copyText(text: string): void;
}

const MAX_SUGGESTIONS = 5;

export function contextMenuTemplate(
  params: MenuParams,
  actions: ContextMenuActions,
): MenuItemConstructorOptions[] {
  const groups: MenuItemConstructorOptions[][] = [];
  if (params.isEditable && params.misspelledWord) {
    const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
    groups.push([
      ...(suggestions.length > 0
        ? suggestions.map((word): MenuItemConstructorOptions => ({
            label: word,
            click: () => actions.replaceMisspelling(word),
          }))
        : [{ label: 'No Guesses Found', enabled: false }]),
      { type: 'separator' },
      {
        label: 'Add to Dictionary',
        click: () => actions.addToDictionary(params.misspelledWord),
      },
    ]);
  }
  if (params.linkURL && isAllowedExternalUrl(params.linkURL)) {
    const isMail = params.linkURL.toLowerCase().startsWith('mailto:');
    groups.push([
      {
        label: isMail ? 'Copy Email Address' : 'Copy Link',
        click: () => actions.copyText(isMail ? params.linkURL.slice(7) : params.linkURL),
      },
    ]);
  }
  const edit: MenuItemConstructorOptions[] = [];
  if (params.isEditable) edit.push({ role: 'cut', enabled: params.editFlags.canCut });
  if (params.isEditable || params.selectionText.trim()) {
    edit.push({ role: 'copy', enabled: params.editFlags.canCopy });
  }
  if (params.isEditable) {
    edit.push({ role: 'paste', enabled: params.editFlags.canPaste });
    edit.push({ role: 'selectAll' });
  }
  if (edit.length > 0) groups.push(edit);
  return groups.flatMap((group, i) =>
    i === 0 ? group : [{ type: 'separator' } as MenuItemConstructorOptions, ...group],
  );
}

/** Shows the menu on every right-click in `contents`; nothing when there is nothing to offer. */
export function installContextMenu(
  contents: Pick<WebContents, 'on' | 'replaceMisspelling' | 'session'>,
  popup: (template: MenuItemConstructorOptions[]) => void,
  copyText: (text: string) => void,
): void {
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, {
      replaceMisspelling: (word) => contents.replaceMisspelling(word),
      addToDictionary: (word) => contents.session.addWordToSpellCheckerDictionary(word),
      copyText,
    });
    if (template.length > 0) popup(template);
  });
}
