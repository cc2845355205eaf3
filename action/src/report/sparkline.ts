/**
 * A trend as a line of Unicode block characters ("▁▂▄█"): eight levels,
 * which GitHub renders in a comment as text, with no image to host.
 */
const BARS = '▁▂▃▄▅▆▇█';

/** One bar per value, scaled from `lo` (▁) to `hi` (█); all bars ▄ when the range is empty. */
export function sparkline(values: readonly number[], lo = Math.min(...values), hi = Math.max(...values)): string {
  const span = hi - lo;
  return values
    .map((v) => {
      if (!(span > 0) || !Number.isFinite(v)) return BARS[3];
      const level = Math.round(((v - lo) / span) * (BARS.length - 1));
      return BARS[Math.min(BARS.length - 1, Math.max(0, level))];
    })
    .join('');
}
