// Renderer entry: gives the page window.tributary in browser mode (Electron's preload already has),
// sends the first calls to main, then renders the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installBrowserBridge } from '../bridge';
import { App } from './App';
import { connectBridge } from './bridge-sync';
import { api } from '../bridge/api';
import { warmSanitizerWhenIdle } from '../lib/sanitize';
import { warmMessageBodiesWhenIdle, warmMessageListWhenIdle } from '../features/messages/warm-up';
import { appStore } from '../store/hooks';
import './styles';
import { installAnimatedPreviewHover } from '../features/messages/media/animated-previews';
import { loadEmojiSheetWhenIdle } from '../lib/emoji-sheet';

installBrowserBridge();
installAnimatedPreviewHover();

// The account list and the last active account's snapshot are asked for now, before React's first
// render rather than from an effect after it: their answers (and the messages asked for with the
// snapshot) are on their way while the page renders "Starting…".
connectBridge(api(), appStore);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App bridgeConnected />
  </StrictMode>,
);
// DOMPurify's first use is slow; pay it while idle after the first render, not on the first message list.
void warmSanitizerWhenIdle();
// Likewise the list virtualizer's code (features/messages/warm-up.ts), and the HTML of the rows
// each message list will show first.
void warmMessageListWhenIdle();
warmMessageBodiesWhenIdle(appStore);
// The emoji sheet's positions: half the app's CSS, not needed for the first render.
loadEmojiSheetWhenIdle();
