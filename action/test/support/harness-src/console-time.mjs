/* eslint-disable no-console -- this program exists to print console.time lines for the adapter test */
// console.time / console.timeEnd, run by test/adapters/console-time.test.ts:
// a label timed three times around a 20 ms wait (each ≥ 20 ms), a label that
// holds ": ", a busy loop, and one timer past a second (Node prints "1.234s").
import { setTimeout as sleep } from 'node:timers/promises';

for (let i = 0; i < 3; i++) {
  console.time('wait 20ms');
  await sleep(20);
  console.timeEnd('wait 20ms');
}
console.time('parse: config');
JSON.parse(JSON.stringify({ a: Array.from({ length: 1000 }, (_, i) => i) }));
console.timeEnd('parse: config');
console.time('busy');
let x = 0;
for (let i = 0; i < 1e6; i++) x += i;
console.timeEnd('busy');
if (x < 0) console.log(x);
console.time('over a second');
await sleep(1050);
console.timeEnd('over a second');
