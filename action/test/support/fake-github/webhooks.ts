/**
 * Event payloads as GitHub sends them to a workflow, for the action's tests:
 * built from the webhook schemas of GitHub's official OpenAPI description
 * (`x-webhooks` in @octokit/openapi), filled in with what a test sets, and
 * validated against the same schema — so a test can never hand the action a
 * payload GitHub would not send (a missing `issue.pull_request`, a label
 * without a name).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import mockJsonSchema from 'mock-json-schema';
import { nullableWithoutType } from './openapi.js';

type Json = Record<string, unknown>;

/** ajv-formats is CommonJS: its default import is the plugin under ESM interop. */
const addFormats = formats as unknown as (ajv: unknown) => unknown;

/** The webhooks the action reads: a new pull request comment, the accept label, a dispatched run, a merge queue's group. */
export type WebhookName = 'issue-comment-created' | 'pull-request-labeled' | 'pull-request-unlabeled' | 'workflow-dispatch' | 'merge-group-checks-requested';

let schemas: Map<string, Json> | undefined;

function schemaOf(name: WebhookName): Json {
  if (!schemas) {
    const require = createRequire(import.meta.url);
    const spec = JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.deref.json'), 'utf8')) as Json;
    const hooks = spec['x-webhooks'] as Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
    schemas = new Map();
    for (const n of ['issue-comment-created', 'pull-request-labeled', 'pull-request-unlabeled', 'workflow-dispatch', 'merge-group-checks-requested']) {
      const schema = structuredClone(hooks[n]!.post.requestBody.content['application/json']!.schema);
      nullableWithoutType(schema);
      schemas.set(n, schema);
    }
  }
  return schemas.get(name)!;
}

/** `over` laid onto `base`: objects merge key by key, anything else (arrays included) replaces. */
function overlay(base: unknown, over: unknown): unknown {
  if (typeof over !== 'object' || over === null || Array.isArray(over) || typeof base !== 'object' || base === null || Array.isArray(base)) return over;
  const out: Json = { ...(base as Json) };
  for (const [key, value] of Object.entries(over as Json)) out[key] = overlay(out[key], value);
  return out;
}

/** The payload of `name`: the schema's example values with `fill` laid over them; throws when the result does not match the schema. */
export function webhookPayload(name: WebhookName, fill: Json): Json {
  const schema = schemaOf(name);
  const payload = overlay(mockJsonSchema.mock(schema as never), fill) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (!validate(payload))
    throw new Error(`${name}: the test's payload does not match GitHub's webhook schema: ${JSON.stringify(validate.errors).slice(0, 2000)}`);
  return payload;
}
