import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server for the load generators' tests: `/` answers at
 * once, `/half-500` answers every other request with 500, `/slow` after
 * 5 ms. Every answer is the same 21-byte body.
 */
export interface LoadServer {
  base: string;
  close(): void;
}

export function startLoadServer(): Promise<LoadServer> {
  let halfCount = 0;
  const server: Server = createServer((req, res) => {
    const reply = (status: number): void => {
      res.writeHead(status, { 'content-type': 'text/plain', 'content-length': '21' });
      res.end('hello from perf-gate\n');
    };
    if (req.url === '/slow') setTimeout(() => reply(200), 5);
    else if (req.url === '/half-500') reply(++halfCount % 2 === 0 ? 500 : 200);
    else reply(200);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}
