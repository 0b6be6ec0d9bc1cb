// What the app's supervisor (supervisor.ts) and the local realm server's own process (entry.ts)
// say to each other over the child's IPC channel, and how a failed start reads on screen.
import type { DemoTemplateLocation } from '../seed/template-stamp';

/** What the child is started with (JSON, its one argument). */
export interface RealmProcessConfig {
  dataDir: string;
  port: number;
  seed: 'demo' | 'empty' | 'large';
  largeScale?: number;
  host?: string;
  /** The demo realm made by the build, copied into a fresh folder instead of seeding it. */
  demoTemplate?: DemoTemplateLocation;
  /**
   * UNIX seconds a copy of the template moves its dates to (default: when it copies). A first
   * launch decides it before forking, so main moves the build's seed by the same shift while
   * this process still loads.
   */
  copyAt?: number;
}

/** `node dist/server/realm-process.cjs '{"makeDemoTemplate": …}'`: the build's template, then exit. */
export interface MakeDemoTemplateConfig {
  makeDemoTemplate: DemoTemplateLocation;
}

/** The child's one message: it listens, or it could not start (it exits right after). */
export type RealmProcessMessage =
  | { type: 'listening'; url: string; port: number }
  | { type: 'failed'; code?: string; message: string };

/**
 * A start failure in the person's words. Node's and SQLite's codes tell the usual causes apart;
 * anything else keeps the error's own message.
 */
export function describeStartFailure(
  failure: { code?: string; message: string },
  port: number,
): string {
  switch (failure.code) {
    case 'EADDRINUSE':
      return `port ${port} is taken by another program`;
    case 'EACCES':
    case 'EPERM':
    case 'SQLITE_READONLY':
    case 'SQLITE_CANTOPEN':
      return `its data folder cannot be opened for writing (${failure.message})`;
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'its database is locked by another program (is another Tributary running?)';
    case 'ENOSPC':
    case 'SQLITE_FULL':
      return 'the disk is full';
    default:
      return failure.message;
  }
}
