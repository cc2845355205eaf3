/**
 * Parses the kernel's CPU list syntax ("0-3,8,10-11", as in
 * /sys/devices/system/cpu/online and the isolcpus= boot parameter, whose
 * leading flags such as "domain," or "managed_irq," are skipped).
 * Returns undefined when the text is not a CPU list; an empty text is no CPUs.
 */
export function parseCpuList(text: string): number[] | undefined {
  const cpus = new Set<number>();
  const trimmed = text.trim();
  if (trimmed === '') return [];
  for (const part of trimmed.split(',')) {
    const item = part.trim();
    if (/^(domain|managed_irq|nohz)$/.test(item)) continue;
    const m = /^(\d+)(?:-(\d+))?(?::\d+\/\d+)?$/.exec(item);
    if (!m) return undefined;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo || hi - lo > 65536) return undefined;
    for (let c = lo; c <= hi; c++) cpus.add(c);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** Formats CPU numbers back into the kernel's compact list ("0-3,8"). */
export function formatCpuList(cpus: readonly number[]): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
