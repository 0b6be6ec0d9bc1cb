/**
 * The main-process services in a child process (support/main-process.ts), so a test can kill them
 * with SIGKILL in the middle of a send or a replay. Commands go to its stdin, and every fact it
 * announces on stdout is kept in `facts` in order.
 *
 *   const child = new MainChild(dataDir, proxy.url, realm.users.owner); // null: the stored account
 *   await child.waitFor('live');
 *   child.send('local-1', { type: 'channel', to: 'general', topic: 't', content: 'hi' });
 *   await child.kill();
 *
 * DEBUG_FAULTS=1 echoes the child's facts and its stderr.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { OutgoingMessage } from '../../../shared/ipc/chat';
import { bundledEntry } from '../../support/bundled-entry';
import type { SeededUser } from '../../support/server';
import { eventually } from './harness';

/** One line the child wrote: `op` says what happened (main-process.ts lists them). */
export interface MainFact {
  op: string;
  localId?: string;
  messageId?: number | null;
  state?: string;
  entries?: unknown[];
  [field: string]: unknown;
}

export class MainChild {
  readonly facts: MainFact[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<void>;

  /** Starts the services on `dataDir` against `site`, adding `user`'s account (null: the stored one). */
  constructor(dataDir: string, site: string, user: SeededUser | null) {
    this.child = spawn(
      process.execPath,
      [
        bundledEntry('test/main/support/main-process.ts'),
        dataDir,
        site,
        user ? user.email : '-',
        user ? user.api_key : '-',
      ],
      { stdio: 'pipe' },
    );
    this.exited = new Promise((resolve) => this.child.on('exit', () => resolve()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.facts.push(JSON.parse(line) as MainFact);
      if (process.env.DEBUG_FAULTS) console.log('child:', line.slice(0, 300));
    });
    this.child.stderr.on(
      'data',
      (d: Buffer) => process.env.DEBUG_FAULTS && process.stderr.write(d),
    );
  }

  /** The first fact with this `op`, or that matches; waited for (a cap, not a timing). */
  waitFor(match: string | ((fact: MainFact) => boolean), timeoutMs = 30_000): Promise<MainFact> {
    const test = typeof match === 'string' ? (fact: MainFact) => fact.op === match : match;
    return eventually(() => this.facts.find(test), timeoutMs);
  }

  /** One command line (main-process.ts lists them). */
  command(command: object): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  send(localId: string, message: OutgoingMessage): void {
    this.command({ op: 'send', localId, message });
  }

  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
