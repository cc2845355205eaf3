import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../../src/gate/types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderJson } from '../../src/report/json.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { toAnnotations, workflowCommands } from '../../src/report/annotations.js';
import { renderHtml } from '../../src/report/html.js';
import { renderRelease } from '../../src/report/release.js';
import { hostileReport, mixedReport, passingReport, releaseReport } from './handwritten-reports.js';

/**
 * Golden outputs of every reporter for the sample reports, committed under
 * action/test/fixtures/report/. Regenerate with `npm run golden` (sets
 * UPDATE_GOLDEN=1), then read the diff before committing.
 */
const DIR = new URL('../fixtures/report/', import.meta.url).pathname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const REPORTS: Record<string, () => GateReport> = {
  mixed: mixedReport,
  passing: passingReport,
  release: releaseReport,
  hostile: hostileReport,
};

const RENDERERS: Record<string, (r: GateReport) => string> = {
  'comment.md': (r) => renderMarkdown(r, { marker: '<!-- perf-gate:sticky gate=default verdict=fail digest=0 -->' }),
  'report.json': renderJson,
  'terminal.txt': (r) => renderTerminal(r, { color: false }),
  'annotations.txt': (r) => workflowCommands(toAnnotations(r)),
  'report.html': (r) => renderHtml(r),
  'release.md': (r) => renderRelease(r, { version: 'v1.5.0' }),
};

describe('golden reports', () => {
  for (const [name, build] of Object.entries(REPORTS)) {
    for (const [suffix, render] of Object.entries(RENDERERS)) {
      const file = join(DIR, `${name}.${suffix}`);
      test(`${name} report renders as committed in ${name}.${suffix}`, () => {
        const text = render(build());
        if (UPDATE) {
          mkdirSync(DIR, { recursive: true });
          writeFileSync(file, text);
        }
        let expected: string;
        try {
          expected = readFileSync(file, 'utf8');
        } catch {
          assert.fail(`golden file ${file} is missing: run \`npm run golden\` to create it`);
        }
        assert.equal(text, expected, `${file} differs: run \`npm run golden\` if the change is intended`);
      });
    }
  }

  test('the resolved comment announces the fix', () => {
    const file = join(DIR, 'passing.resolved.comment.md');
    const text = renderMarkdown(passingReport(), { marker: '<!-- perf-gate:sticky gate=default verdict=fail digest=0 -->', previouslyFailed: true });
    if (UPDATE) writeFileSync(file, text);
    assert.equal(text, readFileSync(file, 'utf8'));
  });
});
