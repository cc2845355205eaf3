import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Adapter } from '../../src/adapters/adapter.js';
import { fileInput } from '../../src/adapters/index.js';
import { InputError, type BenchmarkResult } from '../../src/model/index.js';

/** Every committed fixture, by format folder (action/test/fixtures/<format>/…), READMEs left out. */
export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.md$/i.test(name) ? [] : [path];
  });
}

/** Fixture files of one format folder. */
export function fixturesOf(format: string): string[] {
  return walk(join(FIXTURES, format));
}

/** Fixture files of every other format folder (text files only). */
export function otherFixtures(format: string): string[] {
  return readdirSync(FIXTURES)
    .filter((d) => d !== format && statSync(join(FIXTURES, d)).isDirectory())
    .flatMap((d) => walk(join(FIXTURES, d)))
    .filter((p) => !readFileSync(p).includes(0));
}

export function parseFile(adapter: Adapter, path: string): BenchmarkResult[] {
  return adapter.parse(fileInput(path, readFileSync(path, 'utf8')));
}

export function parseText(adapter: Adapter, text: string, path: string): BenchmarkResult[] {
  return adapter.parse(fileInput(path, text));
}

/** The InputError a call throws; fails the test when it throws anything else or nothing. */
export function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an InputError, but the input was accepted');
}

export function byId(results: BenchmarkResult[], id: string): BenchmarkResult {
  const found = results.find((r) => r.id === id);
  assert.ok(found, `no benchmark "${id}" among ${results.map((r) => r.id).join(', ')}`);
  return found;
}

/**
 * The checks every adapter must pass: detect accepts each of its fixtures and
 * declines every other format's with a reason; an empty file and each given
 * broken input (truncated, corrupt) throw an InputError naming the file.
 */
export function adapterContract(adapter: Adapter, format: string, broken: { name: string; text: string; line?: boolean }[]): void {
  test(`detect accepts every ${format} fixture`, () => {
    const own = fixturesOf(format);
    assert.ok(own.length > 0, `no fixtures in ${format}/`);
    for (const path of own) {
      const detection = adapter.detect(fileInput(path, readFileSync(path, 'utf8')));
      assert.deepEqual(detection, { match: true }, relative(FIXTURES, path));
    }
  });

  test(`detect declines the other formats' fixtures with a reason`, () => {
    const others = otherFixtures(format);
    assert.ok(others.length >= 10, 'expected fixtures of several other formats');
    for (const path of others) {
      const detection = adapter.detect(fileInput(path, readFileSync(path, 'utf8')));
      assert.equal(detection.match, false, `${adapter.name} claimed ${relative(FIXTURES, path)}`);
      if (!detection.match) assert.ok(detection.reason.length > 5);
    }
  });

  test('an empty file is an InputError naming the file', () => {
    const error = inputErrorOf(() => parseText(adapter, '', `/tmp/empty-${format}.out`));
    assert.equal(error.file, `/tmp/empty-${format}.out`);
    assert.match(error.message, /empty/);
  });

  for (const b of broken) {
    test(`${b.name} input is an InputError naming the file`, () => {
      const path = `/work/results/${b.name.replace(/\W+/g, '-')}.${format}`;
      const error = inputErrorOf(() => parseText(adapter, b.text, path));
      assert.equal(error.file, path);
      assert.ok(error.message.startsWith(path), error.message);
      if (b.line) assert.ok(error.line !== undefined && error.line >= 1, `expected a line number in ${error.message}`);
    });
  }
}
