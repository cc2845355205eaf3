/**
 * The package versions a lockfile pins, for naming what a lockfile change
 * changed ("serde 1.0.210 → 1.0.214"). One reader per format whose entries
 * carry a name and a version; for the others (yarn.lock, pom.xml, …) only
 * the hash is compared and the report says "changed". Pure: text in.
 */
import { posix } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import type { PackageChange } from '../model/index.js';

/** Package name → its version(s), several joined by ", " in sorted order (Cargo.lock can pin two majors of one crate). */
export type PackageVersions = Map<string, string>;

function collect(pairs: Iterable<[string, string]>): PackageVersions {
  const all = new Map<string, Set<string>>();
  for (const [name, version] of pairs) {
    if (name === '' || version === '') continue;
    const versions = all.get(name) ?? new Set<string>();
    versions.add(version);
    all.set(name, versions);
  }
  return new Map([...all].map(([name, versions]) => [name, [...versions].sort().join(', ')]));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Cargo.lock, poetry.lock and uv.lock: `[[package]]` tables with name and version. */
function tomlPackages(source: string): PackageVersions {
  const doc = parseToml(source);
  const packages: unknown[] = Array.isArray(doc.package) ? doc.package : [];
  return collect(packages.filter(isRecord).map((p): [string, string] => [text(p.name), text(p.version)]));
}

/** package-lock.json and npm-shrinkwrap.json: `packages` keyed by install path (v2, v3), else nested `dependencies` (v1). */
function npmPackages(source: string): PackageVersions {
  const doc: unknown = JSON.parse(source);
  if (!isRecord(doc)) return new Map();
  if (isRecord(doc.packages)) {
    return collect(
      Object.entries(doc.packages)
        .filter(([path]) => path.includes('node_modules/'))
        .map(([path, entry]): [string, string] => [
          path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
          isRecord(entry) ? text(entry.version) : '',
        ]),
    );
  }
  const pairs: Array<[string, string]> = [];
  const walk = (deps: unknown): void => {
    if (!isRecord(deps)) return;
    for (const [name, entry] of Object.entries(deps)) {
      if (!isRecord(entry)) continue;
      pairs.push([name, text(entry.version)]);
      walk(entry.dependencies);
    }
  };
  walk(doc.dependencies);
  return collect(pairs);
}

/** go.sum: `module version[/go.mod] hash` lines. */
function goSumPackages(source: string): PackageVersions {
  return collect(
    source.split(/\r?\n/).flatMap((line): Array<[string, string]> => {
      const [module, version] = line.trim().split(/\s+/);
      return module && version ? [[module, version.replace(/\/go\.mod$/, '')]] : [];
    }),
  );
}

/** requirements*.txt: `name==version` lines (comments, options and unpinned lines are not pins). */
function requirementsPackages(source: string): PackageVersions {
  return collect(
    source.split(/\r?\n/).flatMap((line): Array<[string, string]> => {
      const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*===?\s*([^\s;#\\]+)/.exec(line);
      return m ? [[m[1]!.toLowerCase().replace(/[-_.]+/g, '-'), m[2]!]] : [];
    }),
  );
}

/** pnpm-lock.yaml: `packages` keys "/name@1.2.3" (v6) or "name@1.2.3(peer@x)" (v9). */
function pnpmPackages(source: string): PackageVersions {
  const doc: unknown = parseYaml(source);
  if (!isRecord(doc) || !isRecord(doc.packages)) return new Map();
  return collect(
    Object.keys(doc.packages).map((key): [string, string] => {
      const bare = key.replace(/^\//, '').replace(/\(.*$/, '');
      const at = bare.lastIndexOf('@');
      return at > 0 ? [bare.slice(0, at), bare.slice(at + 1)] : [bare, ''];
    }),
  );
}

/** Package.resolved (SwiftPM): `pins` with identity (v2, v3) or package (v1) and state.version. */
function swiftPackages(source: string): PackageVersions {
  const doc: unknown = JSON.parse(source);
  const pins = isRecord(doc) ? (Array.isArray(doc.pins) ? doc.pins : isRecord(doc.object) && Array.isArray(doc.object.pins) ? doc.object.pins : []) : [];
  return collect(
    pins
      .filter(isRecord)
      .map((p): [string, string] => [text(p.identity) || text(p.package), isRecord(p.state) ? text(p.state.version) || text(p.state.revision) : '']),
  );
}

/** gradle.lockfile: `group:artifact:version=configurations` lines. */
function gradlePackages(source: string): PackageVersions {
  return collect(
    source.split(/\r?\n/).flatMap((line): Array<[string, string]> => {
      const m = /^([^#=\s:]+:[^=\s:]+):([^=\s:]+)=/.exec(line.trim());
      return m ? [[m[1]!, m[2]!]] : [];
    }),
  );
}

const READERS: ReadonlyArray<[RegExp, (source: string) => PackageVersions]> = [
  [/^(Cargo|poetry|uv)\.lock$/, tomlPackages],
  [/^(package-lock|npm-shrinkwrap)\.json$/, npmPackages],
  [/^go\.sum$/, goSumPackages],
  [/^requirements.*\.txt$/, requirementsPackages],
  [/^pnpm-lock\.yaml$/, pnpmPackages],
  [/^Package\.resolved$/, swiftPackages],
  [/(^|\.)lockfile$/, gradlePackages],
];

/** The packages a lockfile pins, or null when its format has no reader here or the text does not parse. */
export function lockfilePackages(path: string, source: string): PackageVersions | null {
  const reader = READERS.find(([name]) => name.test(posix.basename(path)))?.[1];
  if (reader === undefined) return null;
  try {
    return reader(source);
  } catch {
    // A lockfile with a merge conflict or from a newer format: the hash still says it changed.
    return null;
  }
}

/** The packages whose versions differ, by name. */
export function packageChanges(before: PackageVersions, after: PackageVersions): PackageChange[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((name) => ({ name, before: before.get(name) ?? null, after: after.get(name) ?? null })).filter((p) => p.before !== p.after);
}
