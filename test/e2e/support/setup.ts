// Before each e2e file: the files of a worker share one module registry (vitest.config.ts), so the
// page errors a file asserts on start empty rather than holding the previous file's.
import { pageErrors } from './app';

pageErrors.length = 0;
