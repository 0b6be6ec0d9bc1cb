// Types of early-listener.mjs (plain JavaScript: the launcher binds before any transpiler loads).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LaunchRecord } from './launch-record';

export interface LaunchListener {
  server: Server;
  port: number;
  /** The bridge secret this launch's URL carries. */
  secret: string;
  /**
   * This launch's one-time page token (the URL's query): the page request that first carries it
   * may be given the kept first screen inline (first-screen-route.ts).
   */
  pageToken: string;
  /** The last launch's record, read before binding (null without one or without resuming). */
  last: LaunchRecord | null;
  /** Gives the socket to the host's handlers; what arrived meanwhile goes to them now, in order. */
  handOver(
    onRequest: (request: IncomingMessage, response: ServerResponse) => void,
    onUpgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  ): void;
  /** Stops listening and drops every connection, and what still waits for a host. */
  close(): Promise<void>;
}

export function listenForLaunch(options: {
  port?: number;
  dataDir?: string;
  resumeLastLaunch?: boolean;
}): Promise<LaunchListener>;

export const PAGE_TOKEN_PARAM: string;

export function launchUrl(listener: { port: number; secret: string; pageToken: string }): string;
