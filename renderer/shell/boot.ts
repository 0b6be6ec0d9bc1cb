// The page's entry. The app (main.tsx and everything it imports: one 790 KB chunk, a few hundred ms
// of evaluation) is fetched at once (the page preloads it: vite.config.ts) but run only once the
// early script has painted the last screen or found none (lib/first-screen-gate.ts). The
// stylesheets are the page's own, linked in <head>, so the first screen is drawn with them.
import './styles';
import { earlyScriptSettled } from '../lib/first-screen-gate';

void earlyScriptSettled().then(() => import('./main'));
