// npm run server -- [--host 127.0.0.1] [--port N] [--data DIR] [--seed demo|empty|large]
//   [--large-scale F] [--rate-limit N|off]
//   [--poll-coalesce-ms N] [--group-commit-ms N]   (throughput/latency trade-offs; see config.ts)
//   [--idle-release-ms N]   (quiet time before memory is given back after a burst; 0 = never)
//   [--camo-url URL --camo-key KEY]   (proxy for external image previews in messages)
// Prints exactly one line, "listening on http://HOST:PORT", once ready. The npm script runs it with
// --max-semi-space-size=32: a larger young generation cut garbage collection from about 12% to
// 4% of the server's time under the load bench; and with --expose-gc, for the one full collection
// after a burst of requests that gives the memory back (memory/idle-release.ts).
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { createRealmServer } from './app';
import { SEED_KINDS, type RateLimitOptions } from './config';

function defaultDataDir(): string {
  return join(envPaths('tributary').data, 'local-realm');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '9991' },
      data: { type: 'string' },
      seed: { type: 'string', default: 'demo' },
      'large-scale': { type: 'string', default: '1' },
      'rate-limit': { type: 'string', default: '' },
      'time-budget': { type: 'string', default: 'on' },
      'poll-coalesce-ms': { type: 'string' },
      'group-commit-ms': { type: 'string' },
      'idle-release-ms': { type: 'string' },
      'camo-url': { type: 'string' },
      'camo-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run server -- [--host H] [--port N] [--data DIR] [--seed demo|empty|large]\n' +
        '         [--large-scale F] [--rate-limit N|off] [--time-budget on|off]\n' +
        '         [--poll-coalesce-ms N] [--group-commit-ms N] [--idle-release-ms N]\n' +
        '         [--camo-url URL --camo-key KEY]',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer between 0 and 65535, got ${values.port}`);
  }
  const seed = SEED_KINDS.find((kind) => kind === values.seed);
  if (seed === undefined) {
    throw new Error(`--seed must be demo, empty or large, got ${values.seed}`);
  }
  const largeScale = Number(values['large-scale']);
  if (!(largeScale > 0 && largeScale <= 10)) {
    throw new Error(
      `--large-scale must be a number above 0 and at most 10, got ${values['large-scale']}`,
    );
  }
  const rateLimit = parseRateLimit(values['rate-limit']);
  if (values['time-budget'] !== 'on' && values['time-budget'] !== 'off') {
    throw new Error(`--time-budget must be on or off, got ${values['time-budget']}`);
  }
  const camoUrl = values['camo-url'];
  const camoKey = values['camo-key'];
  if ((camoUrl === undefined) !== (camoKey === undefined)) {
    throw new Error('--camo-url and --camo-key go together');
  }
  const server = await createRealmServer({
    rateLimit,
    ...(values['time-budget'] === 'off' && { serverTimeBudget: false }),
    host: values.host,
    port,
    dataDir: values.data ?? defaultDataDir(),
    seed,
    largeScale,
    pollCoalesceMs: optionalMs(values['poll-coalesce-ms'], '--poll-coalesce-ms'),
    groupCommitIntervalMs: optionalMs(values['group-commit-ms'], '--group-commit-ms'),
    idleReleaseMs: optionalMs(values['idle-release-ms'], '--idle-release-ms'),
    camo:
      camoUrl !== undefined && camoKey !== undefined ? { url: camoUrl, key: camoKey } : undefined,
  });
  console.log(`listening on ${server.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`error while stopping on ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** --rate-limit N: N requests per user per minute; off: no limit; absent: the default. */
function parseRateLimit(value: string | undefined): RateLimitOptions | false | undefined {
  if (!value) return undefined;
  if (value === 'off') return false;
  const requests = Number(value);
  if (!Number.isInteger(requests) || requests < 1) {
    throw new Error(`--rate-limit must be a positive integer or off, got ${value}`);
  }
  return { requests, windowMs: 60_000 };
}

function optionalMs(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 10_000) {
    throw new Error(`${flag} must be an integer number of milliseconds (0-10000), got ${value}`);
  }
  return ms;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
