import { quote } from 'shlex';

/**
 * Turns a suite's `run` template into the command given to `bash -c`.
 * Only the known placeholders are replaced — `{output}` and the sweep's
 * parameter names — each by ONE shell word (quoted only when needed), so a
 * path or value with spaces or `$(…)` can never become code. `${VAR}` and awk
 * programs like `{print $1}` are left alone. The same values also reach the
 * process as environment variables, the safer way for nested shells such as
 * hyperfine's: `hyperfine './prog $PERF_GATE_PARAM_N'`.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, dollar: string, name: string) => {
    if (dollar !== '' || !Object.hasOwn(values, name)) return whole;
    return quote(values[name]!);
  });
}

/** Whether the template names the output file, so the harness writes it itself (else stdout is the output). */
export function writesOutputFile(template: string): boolean {
  return /(^|[^$])\{output\}/.test(template) || template.includes('PERF_GATE_OUTPUT');
}

/** The environment variable carrying a sweep parameter: PERF_GATE_PARAM_<NAME>. */
export function paramEnvName(name: string): string {
  return `PERF_GATE_PARAM_${name.toUpperCase()}`;
}
