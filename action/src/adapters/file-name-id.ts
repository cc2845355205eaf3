/**
 * The benchmark's name for formats whose output never names what was
 * measured (perf stat, strace, the load generators that do not print their
 * target): the file's name without its extension. A suite in perf-gate.yml
 * passes its own name instead (AdapterInput.name).
 */
export function idFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.(csv|txt|out|log|json|perf|strace)$/i, '') || base;
}
