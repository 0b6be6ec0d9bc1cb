// The command line as a child process on the fixtures: exit status and output of manifest-decisions §8.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { manifestCli, ROOT } from './support/cli';
import { INVALID, REENCODED, WEEKLY } from './support/fixtures';

const run = promisify(execFile);
const cli = manifestCli;

describe('manifest verify', () => {
  it('exits 0 for a valid, verified manifest; --json prints the decisions object', async () => {
    const result = await cli('verify', join(WEEKLY, 'manifest.json'), '--json');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      integrity: { status: 'verified', mismatches: [] },
    });
  });

  it('exits 2 for a valid manifest whose audio is a mismatch, in human form', async () => {
    const result = await cli('verify', join(REENCODED, 'manifest.json'));
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^manifest: valid/m);
    expect(result.stdout).toMatch(/^integrity: mismatch \(opusAudioSha256\)/m);
  });

  it('exits 2 when the chosen audio is missing or unreadable', async () => {
    const missing = await cli(
      'verify',
      join(WEEKLY, 'manifest.json'),
      '--audio',
      join(WEEKLY, 'nope.opus'),
      '--json',
    );
    expect(missing.status).toBe(2);
    expect(JSON.parse(missing.stdout).integrity).toEqual({ status: 'missing', mismatches: [] });
    const unreadable = await cli(
      'verify',
      join(WEEKLY, 'manifest.json'),
      `--audio=${join(WEEKLY, 'transcript.es.txt')}`,
      '--json',
    );
    expect(unreadable.status).toBe(2);
    expect(JSON.parse(unreadable.stdout).integrity.status).toBe('unreadable');
  });

  it('exits 1 for an invalid manifest and prints each finding with its code and path', async () => {
    const human = await cli('verify', join(INVALID, 'bad-patterns.json'));
    expect(human.status).toBe(1);
    const lines = human.stdout.split('\n').filter((l) => l.startsWith('error'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/pattern-mismatch\s+\/meeting\/createdAtUtc/);
    expect(lines[1]).toMatch(/pattern-mismatch\s+\/meeting\/roomId/);

    const json = await cli('verify', join(INVALID, 'integrity-extra-member.json'), '--json');
    expect(json.status).toBe(1);
    const out = JSON.parse(json.stdout);
    expect(out.valid).toBe(false);
    expect(out.errors).toEqual([
      { code: 'closed-member', path: '/integrity/bitrate', message: expect.any(String) },
    ]);
    expect(out.integrity).toEqual({ status: 'mismatch', mismatches: ['bitrate'] });
  });

  it('exits 64 on usage errors', async () => {
    const cases = [
      [],
      ['check', 'x.json'],
      ['verify'],
      ['verify', 'a.json', 'b.json'],
      ['verify', 'a.json', '--color'],
      ['verify', join(WEEKLY, 'absent.json')],
      // Not files: a folder, and a device that would never end if it were read.
      ['verify', WEEKLY],
      ['verify', '/dev/zero'],
    ];
    const results = await Promise.all(cases.map((args) => cli(...args)));
    results.forEach((result, i) => {
      expect(result.status, cases[i].join(' ')).toBe(64);
      expect(result.stderr).toMatch(/usage:/);
      expect(result.stdout).toBe('');
    });
  });

  it('runs as documented through npm', async () => {
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'manifest', '--', 'verify', join(WEEKLY, 'manifest.json'), '--json'],
      { cwd: ROOT },
    );
    expect(JSON.parse(stdout).integrity.status).toBe('verified');
  });
});
