import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { InputError, RESULT_SET_SCHEMA, type BenchmarkResult, type ResultSet } from '../model/index.js';
import schema from '../../schemas/result-set.schema.json' with { type: 'json' };
import type { Adapter, AdapterInput } from './adapter.js';
import { jsonErrors, parseJsonText } from './json-text.js';

let validator: ValidateFunction | undefined;

/** Compiled lazily: nothing happens at import time. */
function validate(): ValidateFunction {
  validator ??= new Ajv2020({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true }).compile(schema);
  return validator;
}

/**
 * Checks parsed JSON against the ResultSet schema and returns it typed; errors
 * name the file, the line of the offending benchmark and the key path.
 */
export function validateResultSet(data: unknown, path: string, text = ''): ResultSet {
  const check = validate();
  if (check(data)) return data as unknown as ResultSet;
  const error = check.errors![0]!;
  // JSON Pointer segments, unescaped (RFC 6901).
  const keys = error.instancePath
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const key = keys.join('.') || undefined;
  const extraKey = error.keyword === 'additionalProperties' ? String((error.params as { additionalProperty: string }).additionalProperty) : undefined;
  // The offending token: the unexpected property itself, else the value that failed (for a missing key, its object).
  const line = text === '' ? undefined : jsonErrors(text, path).lineOf(extraKey === undefined ? keys : [...keys, extraKey]);
  const extra = extraKey === undefined ? '' : ` "${extraKey}"`;
  throw new InputError(path, `not a valid ${RESULT_SET_SCHEMA} file: ${error.message ?? error.keyword}${extra}`, line, key);
}

/** perf-gate's own ResultSet (a stored baseline, or the JSON a run wrote). */
export const resultSetAdapter: Adapter = {
  name: 'resultset',

  detect({ text }: AdapterInput) {
    return /"schema"\s*:\s*"perf-gate\/results@/.test(text.slice(0, 1024))
      ? { match: true }
      : { match: false, reason: `no "schema": "${RESULT_SET_SCHEMA}" near the start` };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, `a ${RESULT_SET_SCHEMA} JSON file`);
    return validateResultSet(data, path, text).benchmarks;
  },
};
