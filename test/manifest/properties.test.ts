// Property-based tests: the decoder and the Ogg reader answer every input with findings or an outcome,
// never an exception, and a corrupted recording never passes for the original.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../../electron/manifest';
import { decodeManifest, type DecodeResult } from '../../shared/manifest';
import { OpusIntegrityReader, type OpusReadResult } from '../../shared/ogg';
import { validManifest, weeklyAudio, type Json } from './support/fixtures';

const CODES = new Set([
  'not-json',
  'unsupported-version',
  'missing-member',
  'wrong-type',
  'bad-constant',
  'pattern-mismatch',
  'out-of-range',
  'too-few-items',
  'bad-enum',
  'closed-member',
  'bad-payload-ref',
  'duplicate-id',
  'unknown-source',
  'raw-asr-has-source',
  'source-cycle',
  'source-expected',
  'attempt-without-job',
  'multiple-defaults',
  'audio-disagrees',
  'unsupported-format',
]);

function expectWellFormed(result: DecodeResult): void {
  for (const f of [...result.errors, ...result.warnings]) {
    expect(CODES.has(f.code)).toBe(true);
    expect(f.path === '' || f.path.startsWith('/')).toBe(true);
    expect(typeof f.message).toBe('string');
  }
  // A manifest is handed out exactly when there are no errors.
  expect(result.manifest !== undefined).toBe(result.errors.length === 0);
}

/** Every path (as segments) to a value inside a JSON document. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

const VALID = validManifest();
const PATHS = pathsOf(VALID).filter((p) => p.length > 0);

describe('decoder properties', () => {
  it('never throws on arbitrary text or bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          expectWellFormed(decodeManifest(text));
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expectWellFormed(decodeManifest(bytes));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on a mutated valid manifest (a member removed or replaced by any JSON value)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(...PATHS),
            fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (mutations) => {
          const doc = validManifest();
          for (const [path, value] of mutations) {
            let parent: Json = doc;
            for (const seg of path.slice(0, -1)) {
              if (parent === null || typeof parent !== 'object') break;
              parent = (parent as Record<string, Json>)[seg as string];
            }
            if (parent === null || typeof parent !== 'object') continue;
            const key = path[path.length - 1] as string;
            if (value === undefined) delete (parent as Record<string, Json>)[key];
            else (parent as Record<string, Json>)[key] = value as Json;
          }
          expectWellFormed(decodeManifest(JSON.stringify(doc)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('removing any required scalar member gives missing-member at its pointer', () => {
    const required = [
      '/kind',
      '/profile',
      '/meeting/id',
      '/meeting/title',
      '/audio/codec',
      '/integrity/channels',
      '/transcripts/1/format',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...required), (pointer) => {
        const doc = validManifest();
        const segs = pointer.slice(1).split('/');
        let parent: Record<string, Json> = doc;
        for (const s of segs.slice(0, -1)) parent = parent[s] as Record<string, Json>;
        delete parent[segs[segs.length - 1]];
        const result = decodeManifest(JSON.stringify(doc));
        expect(result.errors.map((f) => `${f.code} ${f.path}`)).toContain(
          `missing-member ${pointer}`,
        );
      }),
      { numRuns: 20 },
    );
  });

  it('deep nesting in unknown members does not hang or overflow', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const text = JSON.stringify(VALID).replace('"futureKind":', `"deep": ${deep}, "futureKind":`);
    expectWellFormed(decodeManifest(text));
  });
});

function integrityOf(bytes: Uint8Array, chunks: number[] = []): OpusReadResult {
  const reader = new OpusIntegrityReader(nodeSha256);
  let at = 0;
  for (const size of chunks) {
    reader.push(bytes.subarray(at, at + size));
    at += size;
  }
  reader.push(bytes.subarray(at));
  return reader.finish();
}

describe('Ogg reader properties', () => {
  const audio = weeklyAudio();
  const original = integrityOf(audio);

  it('never throws on arbitrary bytes, and they are never verified audio', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 4000 }),
        fc.array(fc.nat(500), { maxLength: 8 }),
        (bytes, chunks) => {
          const result = integrityOf(bytes, chunks);
          expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('arbitrary bytes behind a valid "OggS" header prefix are handled', () => {
    const prefix = audio.subarray(0, 27);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (tail) => {
        const bytes = new Uint8Array(prefix.length + tail.length);
        bytes.set(prefix);
        bytes.set(tail, prefix.length);
        expect(integrityOf(bytes).ok).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('any changed byte of the recording makes it unreadable (CRC), whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.nat(audio.length - 1),
        fc.integer({ min: 1, max: 255 }),
        fc.array(fc.integer({ min: 1, max: 20_000 }), { maxLength: 5 }),
        (index, xor, chunks) => {
          const copy = audio.slice();
          copy[index] ^= xor;
          const result = integrityOf(copy, chunks);
          expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a truncated recording is never taken for the original', () => {
    fc.assert(
      fc.property(fc.nat(audio.length - 1), (length) => {
        const result = integrityOf(audio.subarray(0, length));
        if (result.ok && original.ok) expect(result.values).not.toEqual(original.values);
      }),
      { numRuns: 150 },
    );
  });

  it('chunking never changes the outcome', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9000 }), { maxLength: 12 }), (chunks) => {
        expect(integrityOf(audio, chunks)).toEqual(original);
      }),
      { numRuns: 100 },
    );
  });
});
