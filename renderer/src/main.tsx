// Renderer entry: gives the page window.tributary in browser mode (Electron's preload already has),
// then renders the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installBrowserBridge } from '../bridge';
import { App } from './App';
import { warmSanitizerWhenIdle } from '../lib/sanitize';
import { warmMessageListWhenIdle } from '../features/messages/warm-up';
import 'katex-styles/dist/katex.min.css';
import 'virtual:emoji-sprites.css';
import '../styles/app.css';
import '../styles/message-content.css';

installBrowserBridge();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// DOMPurify's first use is slow; pay it while idle after the first render, not on the first message list.
void warmSanitizerWhenIdle();
// Likewise the list virtualizer's code (features/messages/warm-up.ts).
void warmMessageListWhenIdle();
