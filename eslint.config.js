// Lint rules, including the layering of docs/design.md: data flows one way
// (adapters → gate → report → github), and stats/ imports nothing from the project.
import tseslint from 'typescript-eslint';

const layer = (folder, forbidden) => ({
  files: [`action/src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: forbidden.map((f) => ({
          group: [`../${f}/*`, `../../${f}/*`, `../${f}`, `../../${f}`],
          message: `${folder}/ must not import ${f}/: data flows one way (see docs/design.md, Layout).`,
        })),
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
  {
    files: ['action/src/stats/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../*', '!../stats/*'], message: 'stats/ is pure numerics and imports nothing from the project.' }] }],
    },
  },
  layer('model', ['adapters', 'config', 'runner', 'gate', 'store', 'report', 'github', 'cli']),
  layer('adapters', ['config', 'runner', 'gate', 'store', 'report', 'github', 'cli']),
  layer('gate', ['adapters', 'runner', 'store', 'report', 'github', 'cli']),
  layer('report', ['adapters', 'config', 'runner', 'store', 'github', 'cli']),
  layer('github', ['adapters', 'runner', 'gate', 'cli']),
  { files: ['action/test/**/*.ts', 'action/scripts/**', 'bench/**'], rules: { 'no-console': 'off' } },
);
