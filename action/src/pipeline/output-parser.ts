/**
 * How a suite's harness output becomes benchmarks: the adapter registry,
 * named or detected, plus the adapters perf-gate.yml configures inline
 * (`format:` as a mapping). The runner is handed the result as an
 * OutputParser, so runner/ never chooses adapters itself.
 */
import { readFileSync } from 'node:fs';
import { fileInput, formatNames, parseInput, type Adapter } from '../adapters/index.js';
import { markerLinesFromOptions } from '../adapters/marker-lines.js';
import type { PerfGateConfig } from '../config/perf-gate-config.js';
import { InputError, nearestName } from '../model/index.js';
import type { OutputParser } from '../runner/invoke.js';

/** Parses a harness output file through the adapter registry (adapter named, or detected); no adapter options. */
export const parseOutputFile: OutputParser = (path, format, options, name) => {
  if (options !== null) throw new InputError(path, `format "${format}" takes no options here`);
  return parseInput(fileInput(path, readFileSync(path, 'utf8'), name), format);
};

/** Adapters that take their configuration from perf-gate.yml's `format:` mapping. */
const CONFIGURED_ADAPTERS: Record<string, (options: Readonly<Record<string, unknown>>, source: string, suite: string) => Adapter> = {
  'marker-lines': (options, source, suite) => markerLinesFromOptions(options, source, suite),
};

/**
 * Checks every suite's `format:` of a config: a known adapter name (or auto),
 * and valid options for the adapters that take them. Called when the config
 * is read, so a typo such as `hyperfin` is exit 2 naming the line and the
 * nearest format before anything builds or runs, not a failed row after.
 */
export function checkSuiteFormats(config: PerfGateConfig): void {
  configOutputParser(config);
}

/** Every format a suite may name: the registry's, "auto", and those configured inline. */
function suiteFormatNames(): string[] {
  return [...formatNames(), ...Object.keys(CONFIGURED_ADAPTERS)];
}

/**
 * The output parser of a config: suites whose `format:` is a mapping get their
 * adapter built here, before anything runs, so a bad spec is exit 2 with the
 * suite's line rather than a failed row after a long build.
 */
export function configOutputParser(config: PerfGateConfig): OutputParser {
  const built = new Map<object, Adapter>();
  for (const [i, suite] of config.suites.entries()) {
    if (!suiteFormatNames().includes(suite.format)) {
      const near = nearestName(suite.format, suiteFormatNames());
      throw new InputError(
        config.file,
        `unknown format "${suite.format}" in suite "${suite.name}"${near ? `; did you mean "${near}"?` : ''} Expected one of ${suiteFormatNames().join(', ')}`,
        suite.formatLine,
        `suites.${i}.format`,
      );
    }
    if (suite.formatOptions === null) continue;
    const make = CONFIGURED_ADAPTERS[suite.format];
    if (!make) {
      throw new InputError(
        config.file,
        `format "${suite.format}" takes no options; options are accepted for ${Object.keys(CONFIGURED_ADAPTERS).join(', ')}`,
        suite.formatLine,
        `suites.${i}.format`,
      );
    }
    try {
      built.set(suite.formatOptions, make(suite.formatOptions, config.file, suite.name));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new InputError(config.file, error.detail, suite.line, `suites.${i}.${error.key ?? 'format'}`);
    }
  }
  return (path, format, options, name) => {
    const adapter = options === null ? undefined : built.get(options);
    return adapter ? parseInput(fileInput(path, readFileSync(path, 'utf8'), name), adapter) : parseOutputFile(path, format, options, name);
  };
}
