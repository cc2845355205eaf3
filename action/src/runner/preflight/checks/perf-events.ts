import { unknownFinding, type Finding } from '../finding.js';
import type { SystemFiles } from '../system-files.js';

const PARANOID = '/proc/sys/kernel/perf_event_paranoid';
const SAMPLE_RATE = '/proc/sys/kernel/perf_event_max_sample_rate';

/**
 * perf_event_paranoid decides whether `perf stat` can count instructions and
 * cycles without root (≤ 2 allows counting a user's own processes; 3 and
 * above, as Debian and Ubuntu ship, forbid it). perf_event_max_sample_rate is
 * recorded because profiling interrupts steal time from the benchmark.
 */
export function checkPerfEvents(files: SystemFiles): Finding {
  const paranoidText = files.read(PARANOID);
  const paranoid = paranoidText === undefined ? NaN : Number(paranoidText);
  if (!Number.isInteger(paranoid)) return unknownFinding('perf-events', 'perf_event_paranoid', [PARANOID]);
  const rate = Number(files.read(SAMPLE_RATE) ?? NaN);
  const observed = { perf_event_paranoid: paranoid, perf_event_max_sample_rate: Number.isFinite(rate) ? rate : null };
  const unreadable = Number.isFinite(rate) ? {} : { unreadable: [SAMPLE_RATE] };
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
