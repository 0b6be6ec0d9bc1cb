// Screens and dialogs of the shell that no launch shows first (the conversation switcher, the
// status editor, the shortcut list, Drafts and Scheduled messages): each loads when first opened,
// so the page parses and compiles less before its first messages. The host serves them from memory:
// a first opening waits a few milliseconds.
import { lazy, type ComponentType } from 'react';

/** A lazy component from a module's named export (React.lazy wants a default export). */
function lazyNamed<P extends object, M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

export const ConversationSwitcher = lazyNamed(
  () => import('../features/views/ConversationSwitcher'),
  (m) => m.ConversationSwitcher,
);
export const StatusEditor = lazyNamed(
  () => import('../features/people/StatusEditor'),
  (m) => m.StatusEditor,
);
export const ShortcutHelp = lazyNamed(
  () => import('../features/help/ShortcutHelp'),
  (m) => m.ShortcutHelp,
);
export const Drafts = lazyNamed(
  () => import('../features/views/Drafts'),
  (m) => m.Drafts,
);
export const ScheduledMessages = lazyNamed(
  () => import('../features/views/ScheduledMessages'),
  (m) => m.ScheduledMessages,
);
// Settings (every personal and organization screen) is a third of the app's code and nobody needs
// it to read messages.
export const SettingsView = lazyNamed(
  () => import('../features/settings/SettingsView'),
  (m) => m.SettingsView,
);
// The channel browser (with channel settings and the create form) likewise: opened, not read.
export const ChannelBrowser = lazyNamed(
  () => import('../features/channels/ChannelBrowser'),
  (m) => m.ChannelBrowser,
);
