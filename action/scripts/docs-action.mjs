// Generates the inputs and outputs tables of docs/github-action.md from
// action.yml, so the documentation cannot drift from the action.
// Usage: node action/scripts/docs-action.mjs [--check] [--docs PATH]
//   --check   exit 1 (and say so) when the docs are not up to date; write nothing
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const root = new URL('../../', import.meta.url).pathname;
const args = process.argv.slice(2);
const check = args.includes('--check');
const docsAt = args.indexOf('--docs');
const docsPath = docsAt >= 0 ? args[docsAt + 1] : `${root}docs/github-action.md`;

const action = parse(readFileSync(`${root}action.yml`, 'utf8'));

/** Table cells: one line, pipes escaped. */
function cell(text) {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
}

function code(text) {
  const value = String(text);
  return value === '' ? '*(empty)*' : `\`${value.replace(/`/g, "'")}\``;
}

function inputsTable() {
  const lines = ['| Input | Default | What it does, when to change it |', '| :-- | :-- | :-- |'];
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    lines.push(`| \`${name}\` | ${code(spec.default ?? '')} | ${cell(spec.description)} |`);
  }
  return lines.join('\n');
}

function outputsTable() {
  const lines = ['| Output | What it holds |', '| :-- | :-- |'];
  for (const [name, spec] of Object.entries(action.outputs ?? {})) lines.push(`| \`${name}\` | ${cell(spec.description)} |`);
  return lines.join('\n');
}

function replaceBlock(text, name, content) {
  const start = `<!-- generated:${name} (npm run docs:action) -->`;
  const end = `<!-- end:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${docsPath}: missing the markers ${start} … ${end}`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

const before = readFileSync(docsPath, 'utf8');
const after = replaceBlock(replaceBlock(before, 'inputs', inputsTable()), 'outputs', outputsTable());
if (check) {
  if (after !== before) {
    console.error(`${docsPath} is out of date with action.yml: run "npm run docs:action" and commit the result`);
    process.exit(1);
  }
  console.log(`${docsPath} matches action.yml`);
} else if (after !== before) {
  writeFileSync(docsPath, after);
  console.log(`updated ${docsPath}`);
}
