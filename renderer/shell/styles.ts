// The app's stylesheets in cascade order: KaTeX's, the app's own, then message content's. The entry
// (main.tsx) and the render benchmark's page import this, so the bench paints what the app paints.
// The emoji sheet's positions (generated at build time by scripts/vite-emoji-sprites.ts) load
// after the first render: lib/emoji-sheet.ts. Settings' own sheets (16 KB, scoped to settings' classes)
// come with the screens that use them (features/settings/SettingsView.tsx, channels/ChannelSettings.tsx):
// no launch's first screen shows them, and the first style pass would match against them all.
import 'katex-styles/dist/katex.min.css';
import '../styles/app.css';
import '../styles/channels.css';
import '../styles/recent.css';
import '../styles/topics.css';
import '../styles/menus.css';
import '../styles/message-content.css';
