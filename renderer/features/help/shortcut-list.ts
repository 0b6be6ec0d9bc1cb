// Every keyboard shortcut the help overlay lists, in the public app's groups: the global keys from
// their handler's own table (shell/shortcuts.ts, handed in by the shell), and the keys handled where they act (the message
// list, menus, compose, the image viewer), named here beside the component that handles each.

/** A shortcut as the help overlay lists it, in the public app's groups. */
export interface ShortcutInfo {
  keys: string[];
  description: string;
  group: ShortcutGroup;
}
export type ShortcutGroup =
  | 'The basics'
  | 'Search'
  | 'Navigation'
  | 'Composing messages'
  | 'Message actions'
  | 'Menus'
  | 'Accounts'
  | 'Image viewer';

/** Keys handled inside one part of the app (the file that handles each is named beside it). */
export const LOCAL_SHORTCUTS: readonly ShortcutInfo[] = [
  // views/Inbox.tsx
  { keys: ['↑', '↓'], group: 'Navigation', description: 'In the Inbox: the previous or next row' },
  // views/Recent.tsx
  {
    keys: ['↑', '↓'],
    group: 'Navigation',
    description: 'In Recent conversations: the previous or next row (j, k too)',
  },
  {
    keys: ['←', '→'],
    group: 'Navigation',
    description: 'In Recent conversations: the row’s channel, topic, unread count and bell',
  },
  // messages/MessageList.tsx
  { keys: ['↑', '↓'], group: 'Navigation', description: 'Select the previous or next message' },
  { keys: ['Home', 'End'], group: 'Navigation', description: 'First or last message' },
  // messages/MessageActions.tsx
  { keys: ['i'], group: 'Message actions', description: 'Open the selected message’s actions' },
  { keys: ['e'], group: 'Message actions', description: 'Edit the selected message (your own)' },
  // compose/Compose.tsx, compose/use-completion.tsx
  { keys: ['Enter'], group: 'Composing messages', description: 'Send (or Ctrl+Enter, by setting)' },
  { keys: ['Shift+Enter'], group: 'Composing messages', description: 'New line' },
  { keys: ['Alt+P'], group: 'Composing messages', description: 'Preview or go on writing' },
  {
    keys: ['@', '#', ':'],
    group: 'Composing messages',
    description: 'Complete a person or group, a channel or topic, an emoji',
  },
  {
    keys: ['Tab', 'Enter'],
    group: 'Composing messages',
    description: 'Pick the highlighted suggestion',
  },
  { keys: ['Esc'], group: 'Composing messages', description: 'Close the suggestions' },
  {
    keys: ['Esc'],
    group: 'Composing messages',
    description: 'Close an empty compose box (one with text keeps it as a draft)',
  },
  // messages/MessageActions.tsx, views/ConversationSwitcher.tsx
  { keys: ['↑', '↓'], group: 'Menus', description: 'Move through a menu or list' },
  { keys: ['Enter'], group: 'Menus', description: 'Choose the highlighted item' },
  // messages/media/ImageViewer.tsx
  { keys: ['←', '→'], group: 'Image viewer', description: 'Previous or next image' },
  { keys: ['+', '-'], group: 'Image viewer', description: 'Zoom in or out' },
  { keys: ['0'], group: 'Image viewer', description: 'Fit to the window' },
  { keys: ['Esc'], group: 'Image viewer', description: 'Close the viewer' },
];

const GROUP_ORDER: readonly ShortcutGroup[] = [
  'The basics',
  'Search',
  'Navigation',
  'Composing messages',
  'Message actions',
  'Menus',
  'Accounts',
  'Image viewer',
];

/** The shortcuts by group, in the public app's order of groups. */
export function shortcutSections(
  global: readonly ShortcutInfo[],
): { group: ShortcutGroup; shortcuts: ShortcutInfo[] }[] {
  const all = [...global, ...LOCAL_SHORTCUTS];
  return GROUP_ORDER.map((group) => ({
    group,
    shortcuts: all.filter((s) => s.group === group),
  })).filter((section) => section.shortcuts.length > 0);
}
