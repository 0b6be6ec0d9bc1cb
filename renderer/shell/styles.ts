// The app's stylesheets in cascade order: KaTeX's, the emoji sheet positions (generated at build
// time by scripts/vite-emoji-sprites.ts), the app's own, then message content's. The entry
// (main.tsx) and the render benchmark's page import this, so the bench paints what the app paints.
import 'katex-styles/dist/katex.min.css';
import 'virtual:emoji-sprites.css';
import '../styles/app.css';
import '../styles/channels.css';
import '../styles/recent.css';
import '../styles/topics.css';
import '../styles/menus.css';
import '../styles/message-content.css';
import '../styles/settings.css';
import '../styles/settings-admin-extras.css';
