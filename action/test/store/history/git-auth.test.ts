import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fakeCommit, openBranch, sampleRun, workRepo } from '../../support/history.js';
import { tempDir } from '../../support/temp.js';

/**
 * The data branch's token reaches git's fetch and push as an HTTP header
 * and nothing else: not .git/config (where the benchmarks could read it),
 * not a command line, not another server. A loopback HTTP server stands in
 * for GitHub's git endpoint: it records each request's headers and refuses
 * it, so the push fails after the header was seen.
 */
async function withGitServer(run: (url: string, seen: IncomingHttpHeaders[]) => Promise<void>): Promise<void> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end('refused by the test server\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await run(url, seen);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('the data-branch token', () => {
  test('is sent as a basic Authorization header to its server, and written nowhere', async () => {
    await withGitServer(async (url, seen) => {
      const repo = workRepo(tempDir('perf-gate-auth-'), `${url}/owner/repo.git`);
      const store = openBranch({ repo, remote: 'origin', auth: { token: 'ghs_secret123', serverUrl: url } });
      await assert.rejects(store.append(sampleRun(fakeCommit(1), '2026-11-20T00:00:00Z'), { testbed: 'bed-a' }), /cannot fetch the data branch|refused/);
      const expected = `basic ${Buffer.from('x-access-token:ghs_secret123').toString('base64')}`;
      assert.ok(seen.length > 0, 'git reached the server');
      assert.ok(
        seen.every((h) => h.authorization === expected),
        JSON.stringify(seen.map((h) => h.authorization)),
      );
      assert.doesNotMatch(readFileSync(join(repo, '.git/config'), 'utf8'), /secret123|extraheader|AUTHORIZATION/i);
    });
  });

  test('is not sent to another server', async () => {
    await withGitServer(async (url, seen) => {
      const repo = workRepo(tempDir('perf-gate-auth-'), `${url}/owner/repo.git`);
      const store = openBranch({ repo, remote: 'origin', auth: { token: 'ghs_secret123', serverUrl: 'https://github.com' } });
      await assert.rejects(store.append(sampleRun(fakeCommit(1), '2026-11-20T00:00:00Z'), { testbed: 'bed-a' }));
      assert.ok(seen.length > 0);
      assert.ok(
        seen.every((h) => h.authorization === undefined),
        JSON.stringify(seen.map((h) => h.authorization)),
      );
    });
  });
});
