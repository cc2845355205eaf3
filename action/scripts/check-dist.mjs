// Fails when action/dist is not what `npm run build` makes from the current
// sources: the action runs dist/, so a stale bundle ships old behaviour.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const dist = new URL('../dist/cli.js', import.meta.url).pathname;
let before;
try {
  before = readFileSync(dist, 'utf8');
} catch {
  console.error('action/dist/cli.js is missing: run `npm run build` and commit action/dist.');
  process.exit(1);
}
execFileSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname], { stdio: 'inherit' });
const after = readFileSync(dist, 'utf8');
if (before !== after) {
  console.error('action/dist/cli.js is stale: run `npm run build` and commit action/dist.');
  process.exit(1);
}
console.log('action/dist is up to date');
