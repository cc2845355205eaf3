import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fillTemplate, paramEnvName, quotedPlaceholders, writesOutputFile } from '../../src/model/command-template.js';
import { tempDir } from '../support/temp.js';

describe('run templates', () => {
  test('only {output} and the sweep parameters are replaced, each by one shell word', () => {
    assert.equal(fillTemplate('bench --out {output} -n {n}', { output: '/tmp/o.json', n: '100' }), 'bench --out /tmp/o.json -n 100');
    assert.equal(fillTemplate('x {output}', { output: '/tmp/a b/o' }), "x '/tmp/a b/o'");
    assert.equal(fillTemplate("awk '{print $1}' ${HOME} {other} {n}", { n: '1' }), "awk '{print $1}' ${HOME} {other} 1");
    const hostile = '$(touch pwned); `id` \' "';
    const command = fillTemplate('printf %s {v}', { v: hostile });
    assert.equal(execFileSync('bash', ['-c', command], { encoding: 'utf8' }), hostile, 'bash sees the value as one literal word');
  });

  test('a hostile sweep value used unquoted stays data when bash really runs the command', () => {
    const marker = join(tempDir('pg-pwned-'), 'pwned');
    const hostile = `$(touch ${marker})`;
    const template = "printf '%s\\n' {n} {n}x";
    assert.deepEqual(quotedPlaceholders(template, ['n']), []);
    const out = execFileSync('bash', ['-c', fillTemplate(template, { n: hostile })], { encoding: 'utf8' });
    assert.equal(out, `${hostile}\n${hostile}x\n`);
    assert.equal(existsSync(marker), false, 'the $(…) in the value did not run');
    // The same value inside double quotes would run: such templates are refused when the config is read.
    const quoted = 'echo "run {n}" >/dev/null';
    assert.deepEqual(quotedPlaceholders(quoted, ['n']), [{ name: 'n', index: 10, quote: 'double' }]);
    execFileSync('bash', ['-c', fillTemplate(quoted, { n: hostile })]);
    assert.equal(existsSync(marker), true, 'control: the quoted form is exploitable, so the check matters');
  });

  test('quotedPlaceholders follows single and double quotes, escapes and comments', () => {
    const at = (t: string, names = ['n', 'output']) => quotedPlaceholders(t, names).map((q) => `${q.name}:${q.quote}`);
    assert.deepEqual(at("sh -c 'echo {output}'"), ['output:single']);
    assert.deepEqual(at('a "x {n}" {n} \\"{n}\\"'), ['n:double']);
    assert.deepEqual(at("a 'x' {n} \"it's {output}\""), ['output:double']);
    assert.deepEqual(at('a "\\"{n}"'), ['n:double']);
    assert.deepEqual(at("a {n} # it's {n}\nb '{n}'"), ['n:single']);
    assert.deepEqual(at("a '${n}' '{other}' \"$PERF_GATE_PARAM_N\""), []);
  });

  test('a run without {output} is read from its stdout', () => {
    assert.equal(writesOutputFile('hyperfine --export-json {output} x'), true);
    assert.equal(writesOutputFile('bench > "$PERF_GATE_OUTPUT"'), true);
    assert.equal(writesOutputFile('wrk --latency http://127.0.0.1:8080/'), false);
    assert.equal(writesOutputFile('echo ${output}'), false);
    assert.equal(paramEnvName('entityCount'), 'PERF_GATE_PARAM_ENTITYCOUNT');
  });
});
