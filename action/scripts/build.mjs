// Bundles the engine into action/dist/cli.js: the action and the `perf-gate`
// bin run this file, so it must be self-contained (no node_modules at run time).
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';

const outfile = new URL('../dist/cli.js', import.meta.url).pathname;
await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Prefer a package's ES module build: some (jsonc-parser) ship a UMD `main` that bundlers cannot follow.
  mainFields: ['module', 'main'],
  // Some dependencies still call require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __pgCreateRequire } from 'node:module';\nconst require = __pgCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
