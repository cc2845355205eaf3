/**
 * When to try a GitHub request again, and after how long. GitHub answers
 * transient trouble in two ways: server errors (5xx) and rate limits. The
 * secondary rate limit comes as 403 or 429 with a `retry-after` header or a
 * message naming it ("You have exceeded a secondary rate limit"); GitHub asks
 * clients to wait at least `retry-after` seconds. A primary rate limit
 * (`x-ratelimit-remaining: 0`) resets only at the top of the hour, which no job
 * should wait for, and any other 4xx is the caller's mistake: neither is retried.
 */

/** How hard to retry; every field has a documented default in DEFAULT_RETRY_POLICY. */
export interface RetryPolicy {
  /** Retries after the first attempt (so attempts = retries + 1). */
  retries: number;
  /** First backoff for server errors, in ms; doubles on every retry. */
  baseDelayMs: number;
  /** No single wait is longer than this, whatever the server asks, in ms. */
  maxDelayMs: number;
  /** Wait for a secondary rate limit that gives no `retry-after`, in ms (GitHub suggests a minute). */
  secondaryFallbackMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  secondaryFallbackMs: 60_000,
};

/** What the retry decision needs to know about a failed request. */
export interface FailedAnswer {
  /** HTTP status; 0 or undefined when no answer came (connection reset, DNS). */
  status: number | undefined;
  /** Response headers, lower-case names. */
  headers: Record<string, string | number | undefined>;
  /** The error message GitHub sent, if any. */
  message: string;
}

const SECONDARY_LIMIT = /secondary rate limit/i;

/** Is this answer GitHub's secondary rate limit? */
export function isSecondaryRateLimit(answer: FailedAnswer): boolean {
  if (answer.status !== 403 && answer.status !== 429) return false;
  if (SECONDARY_LIMIT.test(answer.message)) return true;
  if (answer.headers['retry-after'] !== undefined) return true;
  // 429 without a message or header is still a rate limit, but not a primary one.
  return answer.status === 429 && String(answer.headers['x-ratelimit-remaining'] ?? '') !== '0';
}

function retryAfterMs(answer: FailedAnswer): number | null {
  const raw = answer.headers['retry-after'];
  if (raw === undefined) return null;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/**
 * The wait before retry number `attempt` (0 = the first retry), or null when
 * the request must not be retried. Pure, so the policy is tested without a clock.
 */
export function retryDelay(answer: FailedAnswer, attempt: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number | null {
  if (attempt >= policy.retries) return null;
  const status = answer.status ?? 0;
  if (isSecondaryRateLimit(answer)) {
    const wait = retryAfterMs(answer) ?? policy.secondaryFallbackMs;
    return Math.min(Math.max(wait, policy.baseDelayMs * 2 ** attempt), policy.maxDelayMs);
  }
  if (status >= 500 || status === 0) {
    return Math.min(retryAfterMs(answer) ?? policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  }
  return null;
}
