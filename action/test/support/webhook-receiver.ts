/**
 * A notification endpoint on 127.0.0.1 that checks what a webhook receiver
 * must: a JSON body, and for perf-gate's json format the HMAC-SHA256 signature
 * over the exact bytes received, compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed; null when it was not JSON. */
  json: unknown;
  /** The signature header matched the body under the receiver's secret (false without a header). */
  signatureValid: boolean;
}

export interface WebhookReceiver {
  port: number;
  deliveries: Delivery[];
  /** The status the next deliveries are answered with (default 204). */
  answer: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { port: 0, deliveries: [], answer: 204, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = String(req.headers['x-perf-gate-signature-256'] ?? '');
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      const signatureValid = header.length === expected.length && timingSafeEqual(Buffer.from(header), expected);
      let json: unknown = null;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = null;
      }
      receiver.deliveries.push({ path: req.url ?? '', headers: req.headers, body: raw.toString('utf8'), json, signatureValid });
      res.writeHead(receiver.answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
