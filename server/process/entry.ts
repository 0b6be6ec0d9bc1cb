// The local realm server in its own process: what the app's supervisor (supervisor.ts) forks, so a
// heavy request (a large register, a search, an import) never holds up the process that serves
// the window. Built to dist/server/realm-process.cjs (scripts/build.ts). It starts the server as
// `npm run server` does, tells the parent where it listens (or why it could not start, then exits),
// and stops when told to (SIGTERM, SIGINT) or when the parent is gone (the IPC channel closes).
import { createRealmServer, type RealmServer } from '../app';
import { copyDemoTemplate, makeDemoTemplate } from '../seed/template';
import { loadSharp } from '../uploads/sharp';
import type { MakeDemoTemplateConfig, RealmProcessConfig, RealmProcessMessage } from './messages';
import { logRealmTiming } from './timing';
import { DEMO_OWNER_KEY_ENV } from './fork-realm.mjs';
import { isApiKeyForm } from '../http/api-key.mjs';

function tell(message: RealmProcessMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(): Promise<void> {
  // The process's own start (Node's clock origin), then its bundle loaded.
  logRealmTiming('realm-process-start', performance.timeOrigin);
  logRealmTiming('realm-bundle-loaded');
  const config = JSON.parse(process.argv[2] ?? '{}') as RealmProcessConfig | MakeDemoTemplateConfig;
  // A first launch's demo owner key (fork-realm.mjs): taken out of the environment at once, so
  // nothing this process starts inherits it.
  const ownerKey = process.env[DEMO_OWNER_KEY_ENV];
  delete process.env[DEMO_OWNER_KEY_ENV];
  if ('makeDemoTemplate' in config) {
    await makeDemoTemplate(config.makeDemoTemplate);
    process.exit(0);
  }
  // Listened for before the server starts (a large seed takes a while): a parent that dies or
  // stops it during start-up leaves no orphan; the stop happens once the server exists.
  let server: RealmServer | null = null;
  let stopRequested = false;
  let stopping = false;
  const stop = () => {
    stopRequested = true;
    if (!server || stopping) return;
    stopping = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  try {
    // A fresh demo realm is the build's template made this install's own (seed/template.ts).
    if (config.seed === 'demo' && config.demoTemplate) {
      const copied = copyDemoTemplate(config.demoTemplate, config.dataDir, {
        nowSeconds: config.copyAt,
        ownerKey: isApiKeyForm(ownerKey) ? ownerKey : undefined,
      });
      if (copied) logRealmTiming('realm-copied');
    }
    server = await createRealmServer({
      dataDir: config.dataDir,
      port: config.port,
      seed: config.seed,
      largeScale: config.largeScale,
      host: config.host ?? '127.0.0.1',
      // Its worker's start (100-130 ms of CPU) waits until the window's sign-in, register and
      // first page have been answered (they come within a second of listening).
      checkpointerDelayMs: CHECKPOINTER_AFTER_START_MS,
    });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    await tell({ type: 'failed', code, message: message ?? String(error) });
    process.exit(1);
  }
  if (stopRequested) {
    stop();
    return;
  }
  logRealmTiming('realm-listening');
  await tell({ type: 'listening', url: server.url, port: server.port });
  // Loaded after the first screen's requests (a sign-in and its register come within a second of
  // listening), by then below the app's priority: the first image upload does not wait for it.
  setTimeout(() => void loadSharp().catch(() => {}), WARM_AFTER_LISTENING_MS).unref();
}

const WARM_AFTER_LISTENING_MS = 5000;
const CHECKPOINTER_AFTER_START_MS = 5000;

void main();
