// `npm run --silent manifest -- verify MANIFEST [--audio FILE] [--json]` (manifest-decisions §8).
// Exit status: 0 valid and verified; 1 invalid manifest; 2 valid manifest whose audio is mismatch,
// unreadable or missing; 64 usage error (including a MANIFEST that cannot be read).
// `npm run --silent manifest -- share MANIFEST --to …` shares a meeting (scripts/manifest-share.ts).
import { parseArgs } from 'node:util';
import { inspectManifestFile, ManifestReadError } from '../electron/manifest';
import type { Finding, ManifestReport } from '../shared/manifest';
import { SHARE_USAGE, VERIFY_USAGE } from './manifest-usage';

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_AUDIO = 2;
export const EXIT_USAGE = 64;

const USAGE = `${VERIFY_USAGE}\n${SHARE_USAGE}`;

type Command =
  { manifest: string; audio?: string; json: boolean } | { help: true } | { usageError: string };

function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        audio: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { usageError: (err as Error).message };
  }
  if (parsed.values.help) return { help: true };
  const [command, manifest, ...rest] = parsed.positionals;
  if (command !== 'verify')
    return { usageError: command ? `unknown command "${command}"` : 'no command given' };
  if (!manifest) return { usageError: 'MANIFEST is missing' };
  if (rest.length) return { usageError: `unexpected argument "${rest[0]}"` };
  return { manifest, audio: parsed.values.audio, json: parsed.values.json === true };
}

export function exitStatusOf(report: ManifestReport): number {
  if (!report.valid) return EXIT_INVALID;
  return report.integrity.status === 'verified' ? EXIT_OK : EXIT_AUDIO;
}

function findingLine(kind: 'error' | 'warning', f: Finding): string {
  return `${kind.padEnd(7)} ${f.code.padEnd(23)} ${(f.path || '/').padEnd(32)} ${f.message}`;
}

function humanReport(report: ManifestReport): string {
  const lines = [
    ...report.errors.map((f) => findingLine('error', f)),
    ...report.warnings.map((f) => findingLine('warning', f)),
  ];
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  lines.push(
    `manifest: ${report.valid ? 'valid' : 'invalid'} (${n(report.errors.length, 'error')}, ${n(report.warnings.length, 'warning')})`,
  );
  const { integrity } = report;
  let outcome = `integrity: ${integrity.status}`;
  if (integrity.status === 'mismatch') outcome += ` (${integrity.mismatches.join(', ')})`;
  if (integrity.reason) outcome += ` (${integrity.reason})`;
  if (integrity.audioSource)
    outcome += ` [audio: ${integrity.audioSource.location}, via ${integrity.audioSource.via}]`;
  lines.push(outcome);
  return lines.join('\n') + '\n';
}

function jsonReport(report: ManifestReport): string {
  return (
    JSON.stringify({
      valid: report.valid,
      errors: report.errors,
      warnings: report.warnings,
      integrity: { status: report.integrity.status, mismatches: report.integrity.mismatches },
    }) + '\n'
  );
}

async function main(argv: string[]): Promise<number> {
  // Loaded only when sharing: verify stays quick to start.
  if (argv[0] === 'share') return (await import('./manifest-share')).runShare(argv.slice(1));
  const command = parseCommand(argv);
  if ('help' in command) {
    process.stdout.write(USAGE + '\n');
    return EXIT_OK;
  }
  if ('usageError' in command) {
    process.stderr.write(`${command.usageError}\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  let report: ManifestReport;
  try {
    report = await inspectManifestFile(command.manifest, { audioPath: command.audio });
  } catch (err) {
    if (!(err instanceof ManifestReadError)) throw err;
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  process.stdout.write(command.json ? jsonReport(report) : humanReport(report));
  return exitStatusOf(report);
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (err: unknown) => {
    process.stderr.write(
      `manifest: internal error: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
    process.exitCode = 70;
  },
);
