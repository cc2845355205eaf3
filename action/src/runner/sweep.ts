/**
 * Sweeps: `params: { entityCount: [100, 200] }` gives one invocation per
 * point of the product of all parameter lists, in the order written.
 */

/** One point of a sweep: parameter name → value, in declaration order. */
export type SweepPoint = Readonly<Record<string, string>>;

/** Every point of the sweep; a suite without params has one empty point. */
export function sweepPoints(params: Readonly<Record<string, readonly string[]>> | null): SweepPoint[] {
  let points: Record<string, string>[] = [{}];
  for (const [name, values] of Object.entries(params ?? {})) {
    points = points.flatMap((p) => values.map((v) => ({ ...p, [name]: v })));
  }
  return points;
}

/** The id suffix of a point: "[entityCount=100]", "[a=1,b=x]", or "" without params. */
export function pointSuffix(point: SweepPoint): string {
  const entries = Object.entries(point);
  return entries.length === 0 ? '' : `[${entries.map(([k, v]) => `${k}=${v}`).join(',')}]`;
}

/** A file-name-safe label of a point ("entityCount=100"), unique through its index. */
export function pointLabel(point: SweepPoint, index: number): string {
  const entries = Object.entries(point);
  if (entries.length === 0) return '';
  const text = entries
    .map(([k, v]) => `${k}=${v}`)
    .join(',')
    .replace(/[^A-Za-z0-9._=,-]/g, '_')
    .slice(0, 80);
  return `p${index + 1}-${text}`;
}
