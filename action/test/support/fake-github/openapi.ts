/**
 * GitHub's official OpenAPI description (@octokit/openapi, api.github.com),
 * cut down to the operations perf-gate uses (with everything they reference),
 * and compiled into request and response validators by openapi-backend (ajv,
 * with ajv-formats so formats such as date-time and uri are checked too).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { OpenAPIBackend } from 'openapi-backend';
import formats from 'ajv-formats';

/** ajv-formats is CommonJS: its default import is the plugin under ESM interop. */
const addFormats = formats as unknown as (ajv: unknown) => unknown;

/** method + path template of every operation the fake server implements. */
export const OPERATIONS = [
  ['get', '/user'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['get', '/repos/{owner}/{repo}/issues'],
  ['post', '/repos/{owner}/{repo}/issues'],
  ['patch', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['post', '/repos/{owner}/{repo}/check-runs'],
  ['patch', '/repos/{owner}/{repo}/check-runs/{check_run_id}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}'],
  ['get', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  ['post', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches'],
  ['get', '/repos/{owner}/{repo}/commits/{commit_sha}/pulls'],
] as const;

type Json = Record<string, unknown>;

/** Copies the chosen operations and, transitively, every component they reference. */
export function trimSpec(spec: Json): Json {
  const components = spec['components'] as Record<string, Record<string, unknown>>;
  const kept: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (seen.has(value)) continue;
        seen.add(value);
        const [, , kind, name] = value.split('/');
        const target = components[kind!]?.[name!];
        if (target === undefined) throw new Error(`unresolved $ref ${value}`);
        (kept[kind!] ??= {})[name!] = target;
        walk(target);
      } else walk(value);
    }
  };
  const paths: Record<string, Record<string, unknown>> = {};
  const allPaths = spec['paths'] as Record<string, Record<string, unknown>>;
  for (const [method, path] of OPERATIONS) {
    const op = allPaths[path]?.[method];
    if (!op) throw new Error(`the OpenAPI description has no ${method.toUpperCase()} ${path}`);
    (paths[path] ??= {})[method] = op;
    walk(op);
  }
  const trimmed = { openapi: spec['openapi'], info: spec['info'], paths, components: kept };
  nullableWithoutType(trimmed);
  return trimmed;
}

/**
 * OpenAPI 3.0's `nullable: true` as ajv reads it. Next to `allOf`/`anyOf`
 * and no `type` (the issue schemas' milestone, for one) ajv refuses to compile
 * it; with an `enum` (an issue's state_reason) ajv still rejects null unless
 * the enum lists it. It means "this, or null", so it is written that way.
 */
export function nullableWithoutType(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableWithoutType);
  if (typeof node !== 'object' || node === null) return;
  const object = node as Json;
  for (const value of Object.values(object)) nullableWithoutType(value);
  if (object['nullable'] === true && Array.isArray(object['enum']) && !object['enum'].includes(null)) object['enum'] = [...object['enum'], null];
  if (object['nullable'] === true && object['type'] === undefined) {
    const { nullable: _nullable, description, ...rest } = object;
    for (const key of Object.keys(object)) delete object[key];
    Object.assign(object, { anyOf: [rest, { type: 'null' }] }, description !== undefined ? { description } : {});
  }
}

let cached: Promise<OpenAPIBackend> | undefined;
let basicError: Record<string, unknown> | undefined;

/**
 * The description's `basic-error` schema, for answers whose status an
 * operation does not document (injected 5xx and rate limits): GitHub sends
 * such errors in this shape. The schema requires nothing, so `message` — which
 * GitHub always sends and Octokit reports — is required here on top.
 */
export function basicErrorSchema(): Record<string, unknown> {
  if (!basicError) throw new Error('githubApi() first');
  return { ...basicError, required: ['message'] };
}

/** The validator, built once per test process (about a second). */
export function githubApi(): Promise<OpenAPIBackend> {
  cached ??= (async () => {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
    const spec = JSON.parse(readFileSync(file, 'utf8')) as Json;
    basicError = (spec['components'] as { schemas: Record<string, Record<string, unknown>> }).schemas['basic-error'];
    const api = new OpenAPIBackend({
      definition: trimSpec(spec) as never,
      strict: false,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      customizeAjv: (ajv: unknown) => {
        addFormats(ajv);
        return ajv as never;
      },
    });
    await api.init();
    return api;
  })();
  return cached;
}
