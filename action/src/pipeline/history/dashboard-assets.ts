/**
 * The dashboard's static files: uPlot's minified script and style (from the
 * `uplot` package) and the page's own script and style
 * (report/dashboard/). The action runs the esbuild bundle in action/dist
 * with no node_modules beside it, so action/scripts/build.mjs reads the same
 * four files at build time and defines PERF_GATE_DASHBOARD_ASSETS with their
 * text; run from source (tsx, the tests) the global is absent and the files
 * are read where they are. The page never loads anything from a CDN.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface DashboardAssets {
  uplotJs: string;
  uplotCss: string;
  script: string;
  style: string;
}

// The four files as JSON text, set by esbuild's `define` in the bundle (action/scripts/build.mjs; a string
// is inlined where it is used, an object would be initialised in every module); undeclared when run from source.
declare const PERF_GATE_DASHBOARD_ASSETS: string | undefined;

/** The four files' text: embedded in the bundle, read from disk when run from source. */
export function dashboardAssets(): DashboardAssets {
  if (typeof PERF_GATE_DASHBOARD_ASSETS !== 'undefined') return JSON.parse(PERF_GATE_DASHBOARD_ASSETS) as DashboardAssets;
  const resolvePackage = createRequire(import.meta.url).resolve;
  const read = (path: string | URL): string => readFileSync(path, 'utf8');
  return {
    uplotJs: read(resolvePackage('uplot/dist/uPlot.iife.min.js')),
    uplotCss: read(resolvePackage('uplot/dist/uPlot.min.css')),
    script: read(new URL('../../report/dashboard/dashboard.js', import.meta.url)),
    style: read(new URL('../../report/dashboard/dashboard.css', import.meta.url)),
  };
}
