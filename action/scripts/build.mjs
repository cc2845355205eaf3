// Bundles the engine into action/dist/cli.js: the action and the `perf-gate`
// bin run this file, so it must be self-contained (no node_modules at run time).
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The dashboard's static files (pipeline/history/dashboard-assets.ts reads the same four
// from disk when run from source): node_modules does not ship with dist/, so
// their text goes into the bundle as the PERF_GATE_DASHBOARD_ASSETS constant (a string of JSON: esbuild
// inlines a string where it is used, but would initialise an object define in every module).
const resolvePackage = createRequire(import.meta.url).resolve;
const read = (path) => readFileSync(path, 'utf8');
const dashboardAssets = {
  uplotJs: read(resolvePackage('uplot/dist/uPlot.iife.min.js')),
  uplotCss: read(resolvePackage('uplot/dist/uPlot.min.css')),
  script: read(new URL('../src/report/dashboard/dashboard.js', import.meta.url)),
  style: read(new URL('../src/report/dashboard/dashboard.css', import.meta.url)),
};

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
  define: { PERF_GATE_DASHBOARD_ASSETS: JSON.stringify(JSON.stringify(dashboardAssets)) },
  legalComments: 'none',
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
