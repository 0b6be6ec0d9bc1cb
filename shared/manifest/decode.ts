// Decodes a manifest from bytes or text into a typed manifest plus every finding
// (manifest-decisions §6-§7). Never throws: any input yields findings.
import type { z } from 'zod';
import { FindingSink, pointer, type Finding, type PathSegment } from './findings';
import { hasMember, isPlainObject } from './payload-ref';
import { checkRelations } from './rules';
import { manifestSchema, type TypedManifest } from './schema';

export interface DecodeResult {
  /** Present only when there are no errors. */
  manifest?: TypedManifest;
  /**
   * The parsed JSON object, also when it has errors, so that payloads and audio can still be checked;
   * absent when the text is not a JSON object or decoding stopped at an unsupported version.
   */
  document?: Record<string, unknown>;
  errors: Finding[];
  warnings: Finding[];
}

export function decodeManifest(input: Uint8Array | string): DecodeResult {
  const sink = new FindingSink();
  try {
    const doc = parseJson(input, sink);
    if (doc === undefined) return result(sink);
    if (!checkVersion(doc, sink)) return result(sink);
    const parsed = manifestSchema.safeParse(doc);
    if (!parsed.success) reportSchemaIssues(doc, parsed.error.issues, sink);
    checkRelations(doc, sink);
    if (sink.errors.length === 0)
      return { ...result(sink), document: doc, manifest: doc as TypedManifest };
    return { ...result(sink), document: doc };
  } catch (err) {
    // Defensive: no known input gets here, but a decoder must answer rather than throw.
    sink.error('not-json', '', `the manifest could not be decoded: ${describe(err)}`);
    return result(sink);
  }
}

function result(sink: FindingSink): DecodeResult {
  return { errors: sink.errors, warnings: sink.warnings };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function parseJson(
  input: Uint8Array | string,
  sink: FindingSink,
): Record<string, unknown> | undefined {
  let text: string;
  if (typeof input === 'string') {
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      sink.error('not-json', '', 'the file is not UTF-8 text');
      return undefined;
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    sink.error('not-json', '', `the file is not JSON text: ${describe(err)}`);
    return undefined;
  }
  if (!isPlainObject(value)) {
    const what = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    sink.error('not-json', '', `the top level is ${what}, not an object`);
    return undefined;
  }
  return value;
}

/** Returns false when decoding must stop (a version other than 1). */
function checkVersion(doc: Record<string, unknown>, sink: FindingSink): boolean {
  if (!hasMember(doc, 'version')) return true; // reported as missing-member by the schema
  const version = doc.version;
  if (typeof version === 'number' && version !== 1) {
    sink.error('unsupported-version', '/version', `version ${version} is not supported (only 1)`);
    return false;
  }
  return true;
}

function lookup(root: unknown, path: readonly PathSegment[]): { present: boolean; value: unknown } {
  let current: unknown = root;
  for (const seg of path) {
    if (Array.isArray(current) && typeof seg === 'number') {
      if (seg >= current.length) return { present: false, value: undefined };
      current = current[seg];
    } else if (isPlainObject(current) && hasMember(current, String(seg))) {
      current = current[String(seg)];
    } else {
      return { present: false, value: undefined };
    }
  }
  return { present: true, value: current };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Translates zod issues into the decisions' codes, one finding per path and code. */
function reportSchemaIssues(doc: unknown, issues: z.core.$ZodIssue[], sink: FindingSink): void {
  const seen = new Set<string>();
  const add = (code: Parameters<FindingSink['error']>[0], path: PathSegment[], message: string) => {
    const key = `${code} ${pointer(path)}`;
    if (seen.has(key)) return;
    seen.add(key);
    sink.error(code, path, message);
  };
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const where = pointer(path) || 'the manifest';
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(
          'closed-member',
          [...path, key],
          `"${key}" is not allowed in the closed object ${where}`,
        );
      }
      continue;
    }
    const { present, value } = lookup(doc, path);
    if (!present) {
      add('missing-member', path, `required member ${where} is missing`);
      continue;
    }
    switch (issue.code) {
      case 'invalid_type':
        add(
          'wrong-type',
          path,
          `${where} must be ${article(issue.expected === 'int' ? 'integer' : issue.expected)}, not ${jsonType(value)}`,
        );
        break;
      case 'invalid_value': {
        const allowed = issue.values.map((v) => JSON.stringify(v)).join(', ');
        if (typeof value !== typeof issue.values[0]) {
          add(
            'wrong-type',
            path,
            `${where} must be ${article(typeof issue.values[0])}, not ${jsonType(value)}`,
          );
        } else if (issue.values.length === 1) {
          add('bad-constant', path, `${where} must be ${allowed}, not ${JSON.stringify(value)}`);
        } else {
          add('bad-enum', path, `${where} must be one of ${allowed}, not ${JSON.stringify(value)}`);
        }
        break;
      }
      case 'too_small':
      case 'too_big':
        if (issue.origin === 'array' && path.length === 1 && path[0] === 'transcripts') {
          add('too-few-items', path, '/transcripts must list at least one transcript');
        } else if (issue.origin === 'string') {
          add('out-of-range', path, `${where} must not be empty`);
        } else {
          const bound =
            issue.code === 'too_small' ? `at least ${issue.minimum}` : `at most ${issue.maximum}`;
          add('out-of-range', path, `${where} must be ${bound}, not ${JSON.stringify(value)}`);
        }
        break;
      case 'invalid_format':
        add(
          'pattern-mismatch',
          path,
          `${where} ${JSON.stringify(value)} does not match ${'pattern' in issue ? issue.pattern : issue.format}`,
        );
        break;
      default:
        add('wrong-type', path, `${where}: ${issue.message}`);
    }
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
