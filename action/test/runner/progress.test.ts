import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, logProgress, progressHeader } from '../../src/runner/progress.js';

describe('progress', () => {
  test('headers say which step, the elapsed time and the time left estimated from the steps done', () => {
    assert.equal(progressHeader(1, 4, 'suite a', 0), 'suite a (1 of 4, elapsed 0s, time left unknown)');
    assert.equal(progressHeader(3, 4, 'suite c', 120), 'suite c (3 of 4, elapsed 2m 00s, about 2m 00s left)');
    assert.equal(formatDuration(3725), '1h 02m');
  });

  test('GitHub Actions gets ::group:: / ::endgroup::, a terminal gets plain headers; titles stay on one line', () => {
    let now = 0;
    let out = '';
    const gh = logProgress({ githubActions: true, write: (t) => void (out += t), clock: () => now });
    gh.begin(1, 2, 'suite a');
    gh.line('hello');
    now = 30_000;
    gh.begin(2, 2, 'suite b\n::error::x');
    gh.end();
    assert.equal(
      out,
      '::group::suite a (1 of 2, elapsed 0s, time left unknown)\nhello\n::endgroup::\n::group::suite b ::error::x (2 of 2, elapsed 30s, about 30s left)\n::endgroup::\n',
    );
    out = '';
    const plain = logProgress({ githubActions: false, write: (t) => void (out += t), clock: () => 0 });
    plain.begin(1, 1, 'suite a');
    plain.end();
    assert.equal(out, '\n=== suite a (1 of 1, elapsed 0s, time left unknown) ===\n');
  });
});
