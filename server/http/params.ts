// The one parameter layer. A route declares its parameters with the builders below; parseParams
// reads them from the query string (every method) and the body (form-urlencoded, multipart fields,
// or a JSON object), decodes JSON-encoded values for non-string parameters as the API requires,
// validates them with zod and reports anything undeclared as ignored_parameters_unsupported.
import * as z from 'zod';
import { ApiError, invalidJsonParam, invalidParam, missingParam } from './errors';

export class Param<T, Required extends boolean = boolean> {
  constructor(
    readonly schema: z.ZodType<T>,
    /** JSON-encoded on the wire (everything except plain strings). */
    readonly json: boolean,
    readonly required: Required,
    readonly defaultValue?: T,
    /** Other names the API accepts for the same parameter (e.g. subject for topic). */
    readonly aliases: readonly string[] = [],
    /**
     * True for exactly the values `schema` accepts unchanged, checked before it (a poll's
     * queue_id, last_event_id and dont_block: zod's safeParse made a result and an issue list for
     * each, several thousand times a second). Values it does not take go to `schema` as before.
     */
    readonly plainlyValid?: (value: unknown) => boolean,
  ) {}

  optional(): Param<T, false> {
    return new Param(this.schema, this.json, false, undefined, this.aliases, this.plainlyValid);
  }

  default(value: T): Param<T, true> {
    // A defaulted parameter is always present after parsing, so it types as required.
    return new Param(this.schema, this.json, true as const, value, this.aliases, this.plainlyValid);
  }

  alias(...names: string[]): Param<T, Required> {
    return new Param(
      this.schema,
      this.json,
      this.required,
      this.defaultValue,
      [...this.aliases, ...names],
      this.plainlyValid,
    );
  }

  hasDefault(): boolean {
    return this.defaultValue !== undefined;
  }
}

const req = <T>(schema: z.ZodType<T>, json: boolean, plainlyValid?: (value: unknown) => boolean) =>
  new Param<T, true>(schema, json, true, undefined, [], plainlyValid);

const MAX_INT_PARAM = 2 ** 53;

/** Parameter builders. Every builder starts required; call .optional() or .default(v). */
export const p = {
  string: () => req(z.string(), false, (value) => typeof value === 'string'),
  /** A string restricted to the given values. */
  enumOf: <const V extends readonly [string, ...string[]]>(values: V) =>
    req(z.enum(values) as unknown as z.ZodType<V[number]>, false),
  int: () =>
    req(
      z.number().int().min(-MAX_INT_PARAM).max(MAX_INT_PARAM),
      true,
      (value) => Number.isInteger(value) && Math.abs(value as number) <= MAX_INT_PARAM,
    ),
  bool: () => req(z.boolean(), true, (value) => typeof value === 'boolean'),
  /** Any JSON-encoded value validated by a zod schema. */
  json: <T>(schema: z.ZodType<T>) => req(schema, true),
};

export type ParamSpec = Record<string, Param<unknown, boolean>>;

export type ParsedParams<S extends ParamSpec> = {
  [K in keyof S]: S[K] extends Param<infer T, true>
    ? T
    : S[K] extends Param<infer T, false>
      ? T | undefined
      : never;
};

export type RawParams = Record<string, unknown>;

/** Collects query and body values into one map. A value sent twice keeps the last one. */
export function collectRawParams(query: unknown, body: unknown): RawParams {
  const raw: RawParams = {};
  addRawParams(raw, query);
  addRawParams(raw, body);
  return raw;
}

// Not a closure in collectRawParams: every request made one (and, run through tsx, named it with
// a defineProperty), about 2 % of the server's thread at bench:hostile's 1,600 polls/s.
function addRawParams(raw: RawParams, source: unknown): void {
  if (source == null || typeof source !== 'object' || Array.isArray(source)) return;
  for (const key of Object.keys(source)) {
    raw[key] = normalizeValue((source as Record<string, unknown>)[key]);
  }
}

// Multipart fields arrive as { type: 'field', value } (attachFieldsToBody: true); files stay objects
// with type 'file' and are not parameters (uploads read them from request.body directly).
function normalizeValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    const last = value[value.length - 1];
    // Repeated query keys arrive as string arrays; JSON bodies may carry real arrays.
    if (value.every((v) => typeof v === 'string')) return last;
    if (value.every(isMultipartPart)) return normalizeValue(last);
    return value;
  }
  if (isMultipartPart(value)) {
    const part = value as { type: string; value?: unknown };
    return part.type === 'field' ? part.value : FILE_PART;
  }
  return value;
}

function isMultipartPart(value: unknown): boolean {
  return (
    value != null &&
    typeof value === 'object' &&
    'type' in value &&
    'fieldname' in value &&
    ((value as { type: unknown }).type === 'field' || (value as { type: unknown }).type === 'file')
  );
}

/** Marker for a multipart file part among the raw parameters. */
export const FILE_PART = Symbol('file part');

export interface ParseResult<S extends ParamSpec> {
  params: ParsedParams<S>;
  ignored: string[];
}

/**
 * A spec's parameters and every name it accepts (aliases included), worked out once per spec
 * (each route's is made once) instead of on every request: with 4,000 poll requests a second
 * the per-request set and entries were a noticeable share of the server's young garbage.
 */
const specShapes = new WeakMap<
  ParamSpec,
  { entries: Array<[string, Param<unknown, boolean>]>; names: ReadonlySet<string> }
>();

function specShape(spec: ParamSpec) {
  let shape = specShapes.get(spec);
  if (!shape) {
    const entries = Object.entries(spec);
    const names = new Set(entries.flatMap(([name, param]) => [name, ...param.aliases]));
    specShapes.set(spec, (shape = { entries, names }));
  }
  return shape;
}

export function parseParams<S extends ParamSpec>(
  spec: S,
  raw: RawParams,
  /** Names consumed elsewhere (path parameters, files) that are not "ignored". */
  alsoKnown: readonly string[] = [],
): ParseResult<S> {
  const out: Record<string, unknown> = {};
  const { entries, names } = specShape(spec);
  for (const [name, param] of entries) {
    let present = name;
    let value = raw[name];
    if (value === undefined) {
      for (const alias of param.aliases) {
        if (raw[alias] !== undefined) {
          present = alias;
          value = raw[alias];
          break;
        }
      }
    }
    if (value === undefined || value === FILE_PART) {
      if (param.hasDefault()) out[name] = param.defaultValue;
      else if (param.required) throw missingParam(name);
      continue;
    }
    out[name] = decodeParam(present, param, value);
  }
  const ignored: string[] = [];
  for (const key of Object.keys(raw)) {
    if (!names.has(key) && !alsoKnown.includes(key) && raw[key] !== FILE_PART) ignored.push(key);
  }
  return { params: out as ParsedParams<S>, ignored: ignored.sort() };
}

export function decodeParam(name: string, param: Param<unknown, boolean>, value: unknown): unknown {
  let decoded = value;
  if (param.json && typeof value === 'string') {
    try {
      decoded = JSON.parse(value);
    } catch {
      throw invalidJsonParam(name);
    }
  }
  if (param.plainlyValid?.(decoded)) return decoded;
  const result = param.schema.safeParse(decoded);
  if (!result.success) {
    throw invalidParam(name, describeIssue(result.error));
  }
  return result.data;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'bad value';
  const where = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return `${issue.message}${where}`;
}

/** Path parameters: positive integers only; anything else is a REQUEST_VARIABLE_INVALID. */
export function parsePathId(name: string, value: string | undefined): number {
  if (value === undefined || !/^\d{1,15}$/.test(value)) {
    throw new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for '${name}': ${value}`, 400, {
      var_name: name,
    });
  }
  return Number(value);
}

/** Common zod pieces for resources. */
export const schemas = {
  intArray: z.array(z.number().int()),
  stringArray: z.array(z.string()),
  /** A group-setting value (spec 2.6): a group id or {direct_members, direct_subgroups}. */
  groupSettingValue: z.union([
    z.number().int(),
    z.object({
      direct_members: z.array(z.number().int()),
      direct_subgroups: z.array(z.number().int()),
    }),
  ]),
  noNullBytes: z.string().refine((s) => !s.includes('\u0000'), 'contains a null byte'),
};
