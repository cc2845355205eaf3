/**
 * The words the release report's sections share between Markdown and the
 * terminal: a change point's cells, why to re-measure a benchmark, how close
 * a budget is to its limit, and the executive summary's counts. Plain text:
 * each format escapes it (benchmark ids are untrusted).
 */
import type { BisectAdvice, NearLimitAdvice, ReleaseChange, ReleaseModel, ReleaseSide, RemeasureAdvice } from '../gate/release-model.js';
import { formatChange, formatChecked, formatCount, formatLimit, formatP, formatValue, plural, scaleFor, shortCommit } from './format.js';
import { acceptedChangeText } from './acceptance-text.js';

export const CHANGE_COLUMNS = ['Benchmark', 'Metric', 'Commits', 'Before → after', 'Change (95% CI)', 'p', 'Verdict'];

/** "4040404..4141414" */
export function rangeText(good: string, bad: string): string {
  return `${shortCommit(good)}..${shortCommit(bad)}`;
}

/** "30 commits", "1 commit"; '' when unknown. */
export function commitsText(commits: number | null): string {
  return commits === null ? '' : plural(commits, 'commit');
}

/** A change point's cells after benchmark and metric: before → after, change, p, verdict. */
export function changeNumbers(c: ReleaseChange): string[] {
  const scale = scaleFor(c.unit, [c.stats.meanBefore, c.stats.meanAfter]);
  return [
    `${formatValue(c.stats.meanBefore, scale)} → ${formatValue(c.stats.meanAfter, scale)} (${c.stats.nBefore} | ${c.stats.nAfter} runs)`,
    formatChange(c.change, c.interval),
    formatP(c.pValue),
    c.regression ? (c.accepted ? acceptedChangeText(c.accepted) : 'slower') : 'faster',
  ];
}

/** "v1.0.0 (0a1b2c3, 2 runs pooled)" */
export function sideText(side: ReleaseSide): string {
  const details = [
    side.commit && side.commit !== side.name ? shortCommit(side.commit) : '',
    side.runs !== null && side.runs > 1 ? `${side.runs} runs pooled` : '',
  ].filter((d) => d !== '');
  return details.length > 0 ? `${side.name} (${details.join(', ')})` : side.name;
}

/** "Change points between v1.0.0 and v1.1.0" */
export function changesTitle(model: ReleaseModel): string {
  return model.previous && model.candidate
    ? `Change points between ${model.previous.name} and ${model.candidate.name}`
    : 'Change points since the previous release';
}

/** "1 change point (1 slower) in the 61 runs on testbed ci, newest first" */
export function changesIntro(model: ReleaseModel): string {
  const changes = model.changes ?? [];
  const slower = changes.filter((c) => c.regression).length;
  const runs =
    model.historyRuns !== null
      ? ` in the ${formatCount(model.historyRuns)} runs${model.testbed ? ` on testbed ${model.testbed}` : ''} from one release to the other`
      : '';
  if (changes.length === 0) return `No change point${runs}.`;
  return `${plural(changes.length, 'change point')} (${slower} slower)${runs}, newest first; a range runs from the last run before a step to the first run after it.`;
}

/** What a bisect item says before its commands: the step, its range and its size. */
export function bisectWhat(a: BisectAdvice, historyRead: boolean): string {
  const size = a.change !== null ? formatChange(a.change, a.interval) : 'slower';
  const commits = commitsText(a.commits);
  const from = a.from === 'change-point' ? 'change point' : `regressed since the previous release${historyRead ? '; the run history shows no step' : ''}`;
  return `${size} in ${rangeText(a.good, a.bad)}${commits ? ` (${commits})` : ''}, ${from}`;
}

/** A single-commit range needs no bisecting: that commit brought the step. */
export function singleCommit(a: BisectAdvice): boolean {
  return a.commits === 1;
}

/** "inconclusive: about 120 samples per side would decide it; noisier: stddev ×3.1" */
export function remeasureWhy(a: RemeasureAdvice): string {
  return a.why
    .map((why) => {
      if (why === 'inconclusive')
        return `inconclusive${a.samplesNeeded !== null ? `: about ${formatCount(a.samplesNeeded)} samples per side would decide it` : ': more samples will not decide it at this noise; interleave the runs (perf-gate run --ab REF, or the action input ab)'}`;
      return `noisier${a.stddevRatio !== null ? `: stddev ×${a.stddevRatio.toFixed(1)}` : ''}`;
    })
    .join('; ');
}

/** The budget, the value checked and the share of the limit left: ["≤ 1.2 µs", "mean 1.1 µs", "8.3 %"]. */
export function nearLimitCells(a: NearLimitAdvice): [string, string, string] {
  const scale = scaleFor(a.unit, [a.budget.limit, a.budget.value]);
  return [formatLimit(a.budget, scale), formatChecked(a.budget, scale), `${(a.headroom * 100).toFixed(1)} %`];
}

/** The executive summary's counts: "1 regression, 0 budget failures and 2 noisier benchmarks among 14 compared". */
export function countsSentence(model: ReleaseModel): string {
  const s = model.summary;
  const against = model.previous ? `Against ${sideText(model.previous)}` : 'Against the baseline';
  const failed = s.failed > 0 ? `, ${plural(s.failed, 'benchmark')} failed` : '';
  return `${against}: ${plural(s.regressions, 'regression')}, ${plural(s.budgetFailures, 'budget failure')}${failed} and ${plural(s.noisier, 'noisier benchmark')} among ${formatCount(s.compared)} compared.`;
}

/** What the history adds to the executive summary, '' without one. */
export function historySentence(model: ReleaseModel): string {
  const n = model.summary.changePoints;
  if (n === null) return '';
  const between = model.previous && model.candidate ? 'between the two releases' : 'since the previous release';
  const bisect = model.recommendations.bisect.length;
  const shows =
    n === 0
      ? `The run history shows no change point ${between}`
      : `The run history shows ${plural(n, 'change point')} ${between} (${model.summary.slowerChangePoints} slower)`;
  return `${shows}${bisect > 0 ? `; ${plural(bisect, 'range')} to bisect below` : ''}.`;
}
