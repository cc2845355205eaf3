// Lint rules, including the layering of docs/design.md: data flows one way, and
// every folder of action/src says which others it may import (see LAYERS).
import tseslint from 'typescript-eslint';

/**
 * Every folder of action/src and the folders it may import. Anything not
 * listed is forbidden, so a new folder must be added here with its place in
 * the flow. stats/ and model/ are the floor; pipeline/ is the one home of a
 * run; cli/ and action/ are its two faces. The top-level cli.ts is the entry
 * point that registers both faces' commands.
 */
const LAYERS = {
  stats: [],
  model: [],
  adapters: ['model', 'stats'],
  config: ['model'],
  gate: ['stats', 'model'],
  runner: ['adapters', 'config', 'model', 'stats'],
  store: ['model'],
  derived: ['model', 'stats'],
  report: ['gate', 'model'],
  github: ['model'],
  pipeline: ['stats', 'model', 'adapters', 'config', 'gate', 'runner', 'store', 'derived', 'report'],
  cli: ['pipeline', 'model'],
  action: ['pipeline', 'github', 'model'],
};
const FOLDERS = Object.keys(LAYERS);

/**
 * GitHub is the faces' business: only github/ (the client, the sticky
 * comment, the check run, the issues) and the action face may reach it.
 * Everything below decides and words without knowing who will be told.
 */
const GITHUB_PACKAGES = ['@actions/github', '@actions/github/*', '@octokit/*'];
const REACHES_GITHUB = new Set(['github', 'action']);

/** Import patterns that reach `target` from a file anywhere below `folder` (up to three levels deep). */
const reaching = (target) =>
  [1, 2, 3].flatMap((depth) => {
    const up = '../'.repeat(depth);
    return [`${up}${target}`, `${up}${target}/*`];
  });

const layer = (folder, allowed) => ({
  files: [`action/src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...FOLDERS.filter((f) => f !== folder && !allowed.includes(f)).map((f) => ({
            group: reaching(f),
            message: `${folder}/ must not import ${f}/: ${folder}/ may import ${allowed.length > 0 ? allowed.map((a) => `${a}/`).join(', ') : 'nothing of the project'} (see eslint.config.js LAYERS and docs/design.md, Layout).`,
          })),
          ...(REACHES_GITHUB.has(folder)
            ? []
            : [{ group: GITHUB_PACKAGES, message: `${folder}/ must not talk to GitHub: only github/ and the action face do (docs/design.md, Layout).` }]),
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['action/dist/**', 'node_modules/**', 'examples/**', '**/target/**', 'bench/detect/data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  ...Object.entries(LAYERS).map(([folder, allowed]) => layer(folder, allowed)),
  {
    // The shape of the code: small modules with one job each, functions a reader can hold in mind.
    files: ['action/src/**/*.ts'],
    rules: {
      // Physical lines, comments included: what a reader has to hold is the whole file.
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ['warn', 25],
    },
  },
  { files: ['action/test/**/*.ts', 'action/scripts/**', 'bench/**'], rules: { 'no-console': 'off' } },
);
