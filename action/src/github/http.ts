/**
 * The one way the action sends HTTP: fetch through the proxy the runner is
 * configured with. Self-hosted runners in companies often reach the internet
 * only through an HTTPS proxy; the runner then sets `https_proxy`/`HTTPS_PROXY`
 * (and `http_proxy`, `no_proxy`) for the job. @actions/http-client reads
 * those variables and decides per URL whether to go through the proxy — it
 * never proxies a loopback address, and honours `NO_PROXY` host and host:port
 * entries — so that decision is taken from it, not written again here. The
 * request itself goes through undici's fetch with http-client's proxy
 * dispatcher, as @actions/github does.
 *
 * Every request also gets a time limit on the whole exchange, headers and
 * body: without one a stalled connection holds the job until the workflow's
 * own timeout.
 */
import { HttpClient } from '@actions/http-client';
import { fetch as undiciFetch, type Dispatcher } from 'undici';

/** The proxy dispatcher for a URL, or undefined when the URL is reached directly (no proxy set, loopback, or NO_PROXY). */
function proxyDispatcher(url: string): Dispatcher | undefined {
  return new HttpClient('perf-gate').getAgentDispatcher(url) as Dispatcher | undefined;
}

/**
 * A fetch for requests to `baseUrl`'s host: through the proxy when the
 * environment says so, with a time limit of `timeoutMs` on each exchange.
 * Requests to other hosts (a redirect to storage) should get their own.
 */
export function proxyAwareFetch(baseUrl: string, timeoutMs: number): typeof fetch {
  const dispatcher = proxyDispatcher(baseUrl);
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    // undici's own fetch, because a dispatcher from this undici is not guaranteed to fit Node's bundled one.
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      signal,
      ...(dispatcher ? { dispatcher } : {}),
    });
  }) as unknown as typeof fetch;
}
