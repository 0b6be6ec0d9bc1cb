// Import this first in the renderer's entry: it makes window.tributary available in browser mode.
import { installBrowserBridge } from './install';

export { installBrowserBridge };
export type { TributaryApi } from '../../shared/ipc/contract';
