import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { InputError } from '../model/index.js';

/**
 * A parsed YAML file that remembers where every value came from, so errors in
 * budgets and perf-gate.yml name the file and the line.
 */
export interface YamlSource {
  file: string;
  data: unknown;
  /** 1-based line of the value at a key path, or of the nearest existing parent. */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** Parses YAML text; a syntax error becomes an InputError with file and line. */
/**
 * How far aliases may expand: the yaml library counts, per anchor, its nodes
 * times its uses. A config that shares one small `env:` mapping among 150
 * suites expands to about 500 nodes; the classic alias bomb (ten aliases of
 * ten aliases, nine deep) to 10^9, and is stopped at its fourth level here,
 * after about 10^5 nodes, well inside memory and time.
 */
const MAX_ALIAS_NODES = 10_000;

export function parseYaml(text: string, file: string): YamlSource {
  if (text.trim() === '') throw new InputError(file, 'the file is empty; expected a YAML mapping with "version: 1"', 1);
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const line = lineCounter.linePos(first.pos[0]).line;
    throw new InputError(file, `YAML syntax error: ${first.message.split('\n')[0]}`, line);
  }
  // The line of a mapping entry is its key's line: that is where a user looks for "benchmarks.scan".
  const keyLine = (path: readonly (string | number)[]): number | undefined => {
    const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
    if (!isMap(parent)) return undefined;
    const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === path[path.length - 1]);
    return pair && isNode(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : undefined;
  };
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const prefix = path.slice(0, depth);
      const line = depth > 0 ? keyLine(prefix) : undefined;
      if (line !== undefined) return line;
      const node = depth === 0 ? doc.contents : doc.getIn(prefix, true);
      if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_NODES });
  } catch (error) {
    // The yaml library refuses an alias bomb (aliases expanding to millions of nodes) with a ReferenceError.
    throw new InputError(
      file,
      `cannot use this YAML: ${(error as Error).message}; expected plain mappings (aliases may expand to at most ${MAX_ALIAS_NODES.toLocaleString('en')} nodes)`,
    );
  }
  return { file, data, lineOf };
}

/** Compiles a JSON Schema (draft 2020-12) once; reuse the result. */
export function compileSchema(schema: object): ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  return ajv.compile(schema);
}

/** Turns an Ajv error into words a user can act on. */
function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown key "${String(p.additionalProperty)}"`;
    case 'required':
      return `missing required key "${String(p.missingProperty)}"`;
    case 'enum':
      return `expected one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `expected ${JSON.stringify(p.allowedValue)}`;
    case 'type': {
      // A schema description written as a noun phrase ("a percentage such as 5%") says more than "string".
      const described = error.parentSchema && 'description' in error.parentSchema ? String(error.parentSchema.description) : '';
      return `expected ${/^an? /.test(described) ? described : String(p.type)}`;
    }
    case 'pattern':
      return `expected ${error.parentSchema && 'description' in error.parentSchema ? String(error.parentSchema.description) : `a value matching ${String(p.pattern)}`}`;
    default:
      return error.message ?? error.keyword;
  }
}

/**
 * Validates parsed data against a compiled schema and throws the most useful
 * error as an InputError naming file, line and key. The deepest error wins,
 * because it is the one closest to what the user typed.
 */
export function assertValid(source: YamlSource, validate: ValidateFunction): void {
  if (validate(source.data)) return;
  const errors = [...(validate.errors ?? [])].filter((e) => e.keyword !== 'if' && e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const chosen = errors.sort((a, b) => b.instancePath.length - a.instancePath.length)[0] ?? validate.errors![0]!;
  const path = chosen.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const key = path.length ? path.join('.') : undefined;
  const found = path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), source.data);
  const foundText = chosen.keyword === 'required' || chosen.keyword === 'additionalProperties' ? '' : `, found ${JSON.stringify(found)}`;
  throw new InputError(source.file, `${describe(chosen)}${foundText}`, source.lineOf(path), key);
}
