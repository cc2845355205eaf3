/**
 * Tells a chat channel or any HTTP endpoint when main got slower or a release
 * is a no-go. Two bodies:
 *
 * - `slack`: Slack's incoming-webhook JSON (`{"text": …}`), the text escaped as
 *   Slack's message formatting asks (&, <, >), so a benchmark name can neither
 *   make a link nor mention @channel;
 * - `json`: perf-gate's own document (schema perf-gate/notification@1), signed
 *   with HMAC-SHA256 over the exact body bytes with a shared secret, in the
 *   header `X-Perf-Gate-Signature-256: sha256=<hex>` (GitHub's own webhook
 *   convention, so receivers can reuse their check). The body carries the time
 *   it was sent, so a receiver can refuse a replayed delivery.
 *
 * Sent through the runner's proxy (http.ts). Never retried: a notification is
 * a courtesy, its failure is the caller's warning and never the verdict's.
 */
import { createHmac } from 'node:crypto';
import type { Notification } from '../model/index.js';
import { proxyAwareFetch } from './http.js';

export type { Notification } from '../model/index.js';

export type WebhookFormat = 'slack' | 'json';

export const NOTIFICATION_SCHEMA = 'perf-gate/notification@1';

export interface WebhookTarget {
  format: WebhookFormat;
  url: string;
  /** HMAC key of the json body; unused by slack (its URL is the secret). */
  secret: string;
}

/** Slack's three escapes in message text: https://api.slack.com/reference/surfaces/formatting#escaping */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** At most this many lines go into a message; the rest is counted. */
const MAX_LINES = 20;

/** The request body, exactly as sent (the signature covers these bytes). */
export function webhookBody(format: WebhookFormat, n: Notification, sent: Date): string {
  const shown = n.lines.slice(0, MAX_LINES);
  const more = n.lines.length - shown.length;
  if (format === 'slack') {
    const text = [
      `*${escapeSlack(n.title)}*`,
      ...shown.map((l) => `• ${escapeSlack(l)}`),
      ...(more > 0 ? [`… and ${more} more`] : []),
      ...(n.runUrl ? [`<${n.runUrl}|Details>`] : []),
    ].join('\n');
    return JSON.stringify({ text });
  }
  return JSON.stringify({
    schema: NOTIFICATION_SCHEMA,
    event: n.event,
    sent: sent.toISOString(),
    gate: n.gate,
    repository: n.repository,
    ref: n.ref,
    sha: n.sha,
    title: n.title,
    lines: n.lines,
    runUrl: n.runUrl,
    data: n.data,
  });
}

/** `sha256=` and the hex HMAC-SHA256 of the body with the secret. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** A webhook that did not take the notification. */
export class WebhookError extends Error {
  override readonly name = 'WebhookError';
}

/** Posts the notification; throws WebhookError (without the URL, which is a secret) when it was not taken. */
export async function sendWebhook(target: WebhookTarget, n: Notification, options: { now: Date; timeoutMs?: number }): Promise<{ status: number }> {
  const body = webhookBody(target.format, n, options.now);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'perf-gate' };
  if (target.format === 'json') {
    headers['x-perf-gate-event'] = n.event;
    headers['x-perf-gate-signature-256'] = webhookSignature(target.secret, body);
  }
  let response: Response;
  try {
    response = await proxyAwareFetch(target.url, options.timeoutMs ?? 30_000)(target.url, { method: 'POST', headers, body, redirect: 'manual' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new WebhookError(`no answer (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  }
  // Read the answer so the connection is released; its text is not logged (a receiver may echo the URL).
  await response.arrayBuffer().catch(() => undefined);
  if (response.status < 200 || response.status > 299) throw new WebhookError(`HTTP ${response.status}`);
  return { status: response.status };
}
