import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { asArray, attr, lineOf, parseXmlDocument, type XmlNode } from './xml-nodes.js';

/**
 * JUnit/xUnit XML from pytest `--junitxml`, Maven Surefire/Failsafe, `swift test
 * --xunit-output`, node `--test-reporter=junit` and the like. Each testcase is a
 * benchmark with one metric, `time` (seconds, a single value):
 * - id: `classname.name`, or `suite/name` when there is no classname; if two
 *   testcases would share an id, the enclosing suite path is put in front;
 * - `<failure>` or `<error>` makes the benchmark failed, with the message (its
 *   time is kept, so the report can still show it);
 * - `<skipped>` testcases are left out: nothing was measured, so a baseline that
 *   has them shows them as missing instead of a misleading 0 s "improvement";
 *   a file whose testcases were all skipped is an error;
 * - `time` is read leniently: Surefire ≤ 3.1.0 writes `2,120.532` (grouping
 *   commas), Swift may write `1e-05`.
 */
export const junitAdapter: Adapter = {
  name: 'junit',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 4096);
    if (!/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<testsuites?[\s>]/.test(head)) {
      return { match: false, reason: 'not XML with a <testsuites> or <testsuite> root' };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected JUnit XML (<testsuites>/<testsuite> with <testcase> elements)');
    const doc = parseXmlDocument(text, path, { arrays: ['testsuite', 'testcase', 'failure', 'error', 'skipped'] });
    const root = (doc.testsuites ?? doc.testsuite) as unknown;
    if (root === undefined) throw new InputError(path, 'expected a <testsuites> or <testsuite> root element', 1);
    const cases: { node: XmlNode; suites: string[] }[] = [];
    const walk = (node: XmlNode, suites: string[]): void => {
      for (const tc of asArray(node.testcase)) cases.push({ node: tc, suites });
      for (const ts of asArray(node.testsuite)) {
        const name = typeof ts['@name'] === 'string' ? ts['@name'] : undefined;
        walk(ts, name ? [...suites, name] : suites);
      }
    };
    for (const r of asArray(root)) {
      const isSuite = doc.testsuites === undefined;
      const name = isSuite && typeof r['@name'] === 'string' ? r['@name'] : undefined;
      walk(r, name ? [name] : []);
    }
    if (cases.length === 0) throw new InputError(path, 'no <testcase> elements; expected at least one test with a time', 1);

    const results: BenchmarkResult[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    for (const { node, suites } of cases) {
      const line = lineOf(node, text);
      const name = attr(node, 'name');
      if (name === undefined) throw new InputError(path, 'expected a name attribute on <testcase>', line);
      if (asArray(node.skipped).length > 0) {
        skipped++;
        continue;
      }
      const classname = attr(node, 'classname');
      const suitePath = suites.join('/');
      let id = classname ? `${classname}.${name}` : suitePath ? `${suitePath}/${name}` : name;
      if (seen.has(id) && suitePath) id = `${suitePath}/${id}`;
      if (seen.has(id)) throw new InputError(path, `two testcases are both named "${id}"; benchmark ids must be unique`, line);
      seen.add(id);

      const timeText = attr(node, 'time');
      if (timeText === undefined) throw new InputError(path, `expected a time attribute (seconds) on testcase "${id}"`, line);
      const seconds = parseSeconds(timeText);
      if (seconds === undefined) throw new InputError(path, `expected time in seconds on testcase "${id}", found ${JSON.stringify(timeText)}`, line);
      const result: BenchmarkResult = {
        id,
        status: 'ok',
        metrics: { time: buildMetric('time', 's', { value: seconds }, { sourceUnit: 's' }) },
      };
      if (suitePath) result.suite = suitePath;
      const problem = [...asArray(node.failure), ...asArray(node.error)][0];
      if (problem) {
        result.status = 'failed';
        const kind = asArray(node.failure).length > 0 ? 'failure' : 'error';
        result.error = { message: messageOf(problem) ?? `test ${kind}` };
      }
      results.push(result);
    }
    if (results.length === 0) throw new InputError(path, `all ${skipped} testcases were skipped; nothing was measured`, 1);
    return results;
  },
};

/** Seconds as JUnit producers write them: `0.034`, `2,120.532` (grouped), `1e-05`; a lone comma is a decimal comma. */
export function parseSeconds(text: string): number | undefined {
  let t = text.trim();
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^\d+,\d+$/.test(t)) t = t.replace(',', '.');
  if (!/^[+]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t)) return undefined;
  const v = Number(t);
  return Number.isFinite(v) && v >= 0 ? v : undefined;
}

function messageOf(node: XmlNode): string | undefined {
  const message = attr(node, 'message');
  if (message && message.trim() !== '') return message.trim();
  const body = node['#text'];
  if (typeof body === 'string' && body.trim() !== '') return body.trim().split('\n').slice(0, 5).join('\n');
  return undefined;
}
