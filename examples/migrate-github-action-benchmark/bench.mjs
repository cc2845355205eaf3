// A benchmark script as github-action-benchmark users write them: it measures,
// then writes the action's custom JSON ([{ name, unit, value, range?, extra? }]).
// Usage: node bench.mjs OUTPUT.json
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const records = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b', 'c'], price: i * 1.25 }));

/** Median and spread of 25 timed calls (ms), after 5 warm-up calls. */
function measure(fn) {
  for (let i = 0; i < 5; i++) fn();
  const times = [];
  for (let i = 0; i < 25; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[12], spread: (times[18] - times[6]) / 2 };
}

const text = JSON.stringify(records);
const stringify = measure(() => JSON.stringify(records));
const parse = measure(() => JSON.parse(text));

const output = [
  { name: 'JSON.stringify 2000 records', unit: 'ms', value: stringify.median, range: `± ${stringify.spread.toFixed(3)}` },
  { name: 'JSON.parse 2000 records', unit: 'ms', value: parse.median, range: `± ${parse.spread.toFixed(3)}` },
  { name: 'serialized size', unit: 'bytes', value: text.length, extra: 'JSON text of the 2000 records' },
];
writeFileSync(process.argv[2] ?? 'output.json', `${JSON.stringify(output, null, 2)}\n`);
