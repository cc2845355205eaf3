/**
 * A real forward proxy on 127.0.0.1 (the `proxy` package, a small Squid-like
 * proxy for Node.js) that records every request it carries. It also plays the
 * company network's name service: host names the runner cannot resolve (such
 * as `api.github.test`) are mapped to loopback ports only the proxy knows, so a
 * request that reaches such a host provably went through the proxy.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';

export interface TestProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** What the proxy carried, in order: "CONNECT host:port" for a tunnel, "GET http://host/path" for a plain request. */
  seen: string[];
  close(): Promise<void>;
}

/** Starts the proxy; `names` maps a host name to the 127.0.0.1 port it stands for. */
export async function startProxy(names: Record<string, number> = {}): Promise<TestProxy> {
  const seen: string[] = [];
  const proxy = createProxy(createServer());
  // The proxy's own hook, called before it connects: record the request and resolve the test's names.
  proxy.authenticate = (req) => {
    seen.push(`${req.method} ${req.url}`);
    const url = req.url ?? '';
    if (req.method === 'CONNECT') {
      const [host, port] = [url.slice(0, url.lastIndexOf(':')), url.slice(url.lastIndexOf(':') + 1)];
      const mapped = names[host];
      if (mapped !== undefined && Number(port) === mapped) req.url = `127.0.0.1:${mapped}`;
    } else {
      const parsed = new URL(url);
      const mapped = names[parsed.hostname];
      if (mapped !== undefined) req.url = url.replace(`//${parsed.host}`, `//127.0.0.1:${mapped}`);
    }
    return true;
  };
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
