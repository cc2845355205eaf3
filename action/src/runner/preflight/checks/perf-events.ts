import type { PerfCounterProbe } from '../../perf-tool.js';
import { unknownFinding, type Finding } from '../finding.js';
import type { SystemFiles } from '../system-files.js';

const PARANOID = '/proc/sys/kernel/perf_event_paranoid';
const SAMPLE_RATE = '/proc/sys/kernel/perf_event_max_sample_rate';

/**
 * perf_event_paranoid decides whether `perf stat` can count instructions and
 * cycles without root (≤ 2 allows counting a user's own processes; 3 and
 * above, as Debian and Ubuntu ship, forbid it). perf_event_max_sample_rate is
 * recorded because profiling interrupts steal time from the benchmark.
 *
 * `counters` is what perf itself counted when asked (perf-tool.ts's probe; on
 * a real run only): a VM without a virtual PMU allows counting yet counts
 * nothing, which only asking shows. Undefined when not probed, null when perf
 * is not installed.
 */
export function checkPerfEvents(files: SystemFiles, counters?: PerfCounterProbe | null): Finding {
  const paranoidText = files.read(PARANOID);
  const paranoid = paranoidText === undefined ? NaN : Number(paranoidText);
  if (!Number.isInteger(paranoid)) return unknownFinding('perf-events', 'perf_event_paranoid', [PARANOID]);
  const rate = Number(files.read(SAMPLE_RATE) ?? NaN);
  const observed = { perf_event_paranoid: paranoid, perf_event_max_sample_rate: Number.isFinite(rate) ? rate : null };
  const unreadable = Number.isFinite(rate) ? {} : { unreadable: [SAMPLE_RATE] };
  const uncounted = Object.entries(counters?.unavailable ?? {});
  if (paranoid < 3 && uncounted.length > 0) {
    return {
      check: 'perf-events',
      status: 'advice',
      message: `perf stat cannot count ${uncounted.map(([event, why]) => `${event} (${why})`).join(', ')} on this machine: the CPU or VM exposes no hardware counters, so "counter: perf" suites fail their counted rows here`,
      fix: 'use "counter: cachegrind" (simulated, counts anywhere), or give the VM a virtual PMU',
      observed: { ...observed, perf_counted: counters!.counted.join(',') || null },
      ...unreadable,
    };
  }
  if (paranoid >= 3) {
    return {
      check: 'perf-events',
      status: 'advice',
      message: `perf_event_paranoid is ${paranoid}: perf stat cannot count instructions or cycles without root`,
      fix: 'sudo sysctl -w kernel.perf_event_paranoid=2',
      observed,
      ...unreadable,
    };
  }
  return {
    check: 'perf-events',
    status: 'ok',
    message: `perf_event_paranoid is ${paranoid}: perf stat can count user-space events${paranoid <= 1 ? ' and kernel events' : ''}`,
    observed,
    ...unreadable,
  };
}
