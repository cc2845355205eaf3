import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETRY_POLICY, isSecondaryRateLimit, retryDelay } from '../../src/github/retry.js';

const policy = { ...DEFAULT_RETRY_POLICY, retries: 3, baseDelayMs: 100 };

test('server errors back off exponentially, then give up', () => {
  const answer = { status: 502, headers: {}, message: 'Bad Gateway' };
  assert.deepEqual(
    [0, 1, 2, 3].map((a) => retryDelay(answer, a, policy)),
    [100, 200, 400, null],
  );
});

test('secondary rate limits honour retry-after, or wait the fallback', () => {
  assert.equal(retryDelay({ status: 403, headers: { 'retry-after': '12' }, message: '' }, 0, policy), 12_000);
  assert.equal(retryDelay({ status: 403, headers: {}, message: 'You have exceeded a secondary rate limit' }, 0, policy), 60_000);
  assert.equal(retryDelay({ status: 429, headers: { 'retry-after': '900' }, message: '' }, 0, policy), policy.maxDelayMs);
});

test('a primary rate limit and ordinary client errors are not retried', () => {
  assert.equal(retryDelay({ status: 403, headers: { 'x-ratelimit-remaining': '0' }, message: 'API rate limit exceeded' }, 0, policy), null);
  assert.equal(retryDelay({ status: 404, headers: {}, message: 'Not Found' }, 0, policy), null);
  assert.equal(retryDelay({ status: 422, headers: {}, message: 'Validation Failed' }, 0, policy), null);
  assert.equal(isSecondaryRateLimit({ status: 403, headers: {}, message: 'Resource not accessible by integration' }), false);
});
