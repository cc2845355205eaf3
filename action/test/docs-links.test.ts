import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The documentation stands on its own: every link and every file reference in
 * README.md and docs/*.md resolves inside this repository. What is checked:
 *
 * 1. Markdown links `[text](target)` and `[text](target#anchor)` outside code:
 *    a relative target must exist (file or folder), resolved from the folder
 *    of the page that links, as GitHub resolves it. `#anchor` (alone, or after
 *    a `.md` target) must be the GitHub id of a heading in that page.
 *    Absolute URLs (`https:`, `mailto:`) are not fetched.
 * 2. Repository paths in code: in inline code (single backticks) and in
 *    fenced `sh` blocks (commands a reader runs), every whitespace-separated
 *    word whose first path segment is a top-level folder of this repository
 *    (`action/`, `bench/`, `docs/`, `examples/`, `scripts/`, `.ci/` …, read
 *    from the checkout) and that contains a `/` is a repository path and must
 *    exist, resolved from the repository root. So `scripts/tune`,
 *    `examples/go/`, `action/schemas/budgets.schema.json` are checked, while
 *    benchmark ids (`scan/prtip`), units (`1/s`), other projects' files
 *    (`src/write.ts`), absolute paths (`/sys/…`) and `./relative` commands are
 *    not. Before the check a word loses surrounding quotes and punctuation, a
 *    `:line` suffix (`budgets/scan.yml:5`) and everything from the first
 *    placeholder on (`*`, `?`, `<`, `{`, `…`, `...`): what remains (a folder,
 *    for `bench/detect/data/*.json`) must exist.
 * 3. Paths that a command creates at run time (and files of the user's own
 *    repository shown as example values) are not in a checkout, and are
 *    allowed only through RUNTIME_PATHS below, each with its reason. Other
 *    YAML and output blocks (```yaml, ```json, plain ```) are not searched for
 *    paths: they show the user's own files (`budgets/scan.yml:4` in an error
 *    message) rather than this repository's.
 */
const root = new URL('../../', import.meta.url).pathname;

/**
 * Paths the pages name that a checkout does not have, each with its reason:
 * folders a command creates when it runs, and files of the user's own
 * repository shown as example values. A path not listed here must exist.
 */
const RUNTIME_PATHS: ReadonlyMap<string, string> = new Map([
  ['perf-gate-out/', '`npm run example` writes its reports there'],
  ['perf-gate-results/', "`perf-gate run`'s default --out folder"],
  ['baselines/release.json', "docs/github-action.md: an example value of the action's `baseline:` input, the user's release baseline"],
]);

/** The pages checked: the README and every Markdown page of docs/. */
function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** Top-level folders of the repository (the first segment that makes a word a repository path). */
function topLevelFolders(): Set<string> {
  const skip = new Set(['.git', 'node_modules']);
  return new Set(
    readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !skip.has(d.name))
      .map((d) => d.name),
  );
}

interface Span {
  line: number;
  text: string;
}

/** A page split into prose lines (fenced blocks blanked) and its fenced blocks with their info strings. */
function splitPage(text: string): { prose: Span[]; fences: { info: string; line: number; body: string }[] } {
  const prose: Span[] = [];
  const fences: { info: string; line: number; body: string }[] = [];
  const lines = text.split('\n');
  let fence: { info: string; line: number; body: string[] } | null = null;
  lines.forEach((l, i) => {
    const open = /^(\s*)```(.*)$/.exec(l);
    if (fence) {
      if (open) {
        fences.push({ info: fence.info, line: fence.line, body: fence.body.join('\n') });
        fence = null;
      } else fence.body.push(l);
      return;
    }
    if (open) fence = { info: open[2]!.trim(), line: i + 2, body: [] };
    else prose.push({ line: i + 1, text: l });
  });
  return { prose, fences };
}

/** GitHub's heading ids (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of splitPage(markdown).prose) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!h) continue;
    const plain = h[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Markdown links outside code: inline code spans are removed first, so `[a](b)` in backticks is not a link. */
function links(prose: Span[]): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  for (const { line, text } of prose) {
    const outsideCode = text.replace(/`[^`]*`/g, '');
    for (const m of outsideCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ line, target: m[1]! });
  }
  return found;
}

/** The words of inline code spans and of fenced `sh` blocks, with their line numbers. */
function codeWords(prose: Span[], fences: { info: string; line: number; body: string }[]): { line: number; word: string }[] {
  const words: { line: number; word: string }[] = [];
  for (const { line, text } of prose) {
    for (const m of text.matchAll(/`([^`]+)`/g)) for (const w of m[1]!.split(/\s+/)) words.push({ line, word: w });
  }
  for (const f of fences.filter((x) => /^(sh|bash|shell|console)\b/.test(x.info))) {
    f.body.split('\n').forEach((l, i) => {
      const command = l.replace(/(^|\s)#.*$/, ''); // a shell comment is prose
      for (const w of command.split(/\s+/)) words.push({ line: f.line + i, word: w });
    });
  }
  return words;
}

/** A word reduced to the repository path it names, or null when it names none (rule 2 above). */
export function repositoryPath(word: string, folders: ReadonlySet<string>): string | null {
  let w = word.replace(/^[("'[]+/, '').replace(/[)"',;.\]]+$/, '');
  w = w.replace(/^--[a-z-]+=/, ''); // --config=examples/go/perf-gate.yml
  if (!w.includes('/')) return null;
  const first = w.slice(0, w.indexOf('/'));
  if (!folders.has(first) && ![...RUNTIME_PATHS.keys()].some((p) => p.startsWith(`${first}/`))) return null;
  w = w.replace(/:\d+(?::\d+)?$/, '');
  const placeholder = w.search(/[*?<{…]|\.\.\./);
  if (placeholder >= 0) w = w.slice(0, w.lastIndexOf('/', placeholder) + 1);
  return w;
}

function resolvesInRepository(path: string): boolean {
  if ([...RUNTIME_PATHS.keys()].some((p) => path === p || path.startsWith(p))) return true;
  const abs = join(root, path);
  if (!existsSync(abs)) return false;
  return path.endsWith('/') ? statSync(abs).isDirectory() : true;
}

describe('links and file references in README.md and docs/', () => {
  const folders = topLevelFolders();
  const idsOf = new Map<string, Set<string>>();
  const ids = (file: string): Set<string> => {
    if (!idsOf.has(file)) idsOf.set(file, headingIds(readFileSync(file, 'utf8')));
    return idsOf.get(file)!;
  };

  for (const page of pages()) {
    const file = join(root, page);
    const { prose, fences } = splitPage(readFileSync(file, 'utf8'));

    test(`${page}: every Markdown link resolves, anchors included`, () => {
      const broken: string[] = [];
      for (const { line, target } of links(prose)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const to = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        if (!to.startsWith(root) || !existsSync(to)) {
          broken.push(`${page}:${line}: ${target}: no such file or folder`);
          continue;
        }
        if (anchor !== undefined) {
          if (!to.endsWith('.md')) broken.push(`${page}:${line}: ${target}: an anchor into a file that is not Markdown`);
          else if (!ids(to).has(anchor)) broken.push(`${page}:${line}: ${target}: no heading "#${anchor}" in ${relative(root, to)}`);
        }
      }
      assert.deepEqual(broken, []);
    });

    test(`${page}: every repository path in code exists`, () => {
      const broken: string[] = [];
      for (const { line, word } of codeWords(prose, fences)) {
        const path = repositoryPath(word, folders);
        if (path !== null && !resolvesInRepository(path)) broken.push(`${page}:${line}: \`${word}\`: ${path} does not exist`);
      }
      assert.deepEqual(broken, []);
    });
  }
});

describe('the link check itself', () => {
  const folders = new Set(['action', 'examples', 'scripts', 'bench', 'docs']);

  test('heading ids follow GitHub: punctuation dropped, code kept, repeats numbered', () => {
    const ids = headingIds(
      '# Deciding "regressed"\n## Compare results: `perf-gate compare`\n### Under heavy load (the first run)\n## Notes\n## Notes\n```\n# not a heading\n```\n',
    );
    assert.deepEqual([...ids], ['deciding-regressed', 'compare-results-perf-gate-compare', 'under-heavy-load-the-first-run', 'notes', 'notes-1']);
  });

  test('words that name repository paths are recognised, others are left alone', () => {
    assert.equal(repositoryPath('action/schemas/budgets.schema.json', folders), 'action/schemas/budgets.schema.json');
    assert.equal(repositoryPath('examples/go/', folders), 'examples/go/');
    assert.equal(repositoryPath('scripts/tune', folders), 'scripts/tune');
    assert.equal(repositoryPath('bench/detect/data/*.json', folders), 'bench/detect/data/');
    assert.equal(repositoryPath('action/test/fixtures/report/<format>.md', folders), 'action/test/fixtures/report/');
    assert.equal(repositoryPath('--config=examples/go/perf-gate.yml', folders), 'examples/go/perf-gate.yml');
    assert.equal(repositoryPath('action/src/gate/compare.ts:15', folders), 'action/src/gate/compare.ts');
    assert.equal(repositoryPath('perf-gate-out/report.md', folders), 'perf-gate-out/report.md');
    for (const other of ['scan/prtip', '1/s', 'src/write.ts', '/sys/devices', './sieve', 'base.json'])
      assert.equal(repositoryPath(other, folders), null, other);
  });

  test('a missing path is reported, a runtime path is allowed', () => {
    assert.equal(resolvesInRepository('docs/design.md'), true);
    assert.equal(resolvesInRepository('docs/no-such-page.md'), false);
    assert.equal(resolvesInRepository('docs/design.md/'), false, 'a file is not a folder');
    assert.equal(resolvesInRepository('perf-gate-results/sieve/run.log'), true);
  });

  test('every page of docs/ is checked', () => {
    const onDisk = readdirSync(join(root, 'docs'))
      .filter((f) => /\.md$/i.test(f))
      .map((f) => `docs/${f}`)
      .sort();
    assert.deepEqual(
      pages().filter((p) => p.startsWith('docs/')),
      onDisk,
    );
  });
});
