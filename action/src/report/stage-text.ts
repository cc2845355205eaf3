/**
 * The words of a two-stage verdict (gate/two-stage.ts): which stage decided a
 * row, why a suspect could not be measured again, and what each stage cost.
 * Every format (Markdown, terminal, HTML, annotations) uses these sentences.
 */
import type { RowStage, TwoStages, Unconfirmed } from '../gate/types.js';
import type { SuspectWhy } from '../gate/screen.js';
import { formatChange, plural, shortCommit } from './format.js';

const WHY: Record<SuspectWhy, string> = {
  failed: 'the benchmark failed',
  regressed: 'regressed against the baseline',
  noisier: 'noisier and slower',
  'estimate-beyond-tolerance': 'slower than the tolerance',
  'worse-beyond-tolerance': 'may be slower than the tolerance',
  'flips-values-beyond-tolerance': 'flips, and its runs are slower than the tolerance',
  'other-level-beyond-tolerance': 'settled in one level, slower than the tolerance against the other',
};

/** Why a suspect was not measured again, and what to do about it. */
export function unconfirmedText(u: Unconfirmed): string {
  const at = u.commit ? ` ${shortCommit(u.commit)}` : '';
  switch (u.code) {
    case 'no-base-commit':
      return 'not confirmed: the baseline names no commit to measure against';
    case 'base-not-in-checkout':
      return `not confirmed: the base commit${at} is not in the checkout (a shallow clone); check out with fetch-depth: 0`;
    case 'base-failed':
      return `not confirmed: the base commit${at} did not build or run${u.message ? ` (${u.message})` : ''}`;
    case 'fork':
      return 'not confirmed: a fork’s pull request ran code in this checkout, so perf-gate does not build the base in it (git hooks could run); set confirm-forks: true on a disposable runner';
    case 'time-cap':
      return `not confirmed: the interleaved stage reached its time cap${u.message ? ` (${u.message})` : ''}; raise confirm-time-cap or split the suite`;
    case 'not-measured':
      return 'not confirmed: the interleaved run did not measure this row on both sides';
  }
}

/** A tolerance as "5 %". */
function formatPercentPoints(tolerance: number): string {
  return `${Number((tolerance * 100).toFixed(1))} %`;
}

/** The short note beside a row's verdict: "screened: no slowdown beyond +7.1 % seen", "decided by 12 interleaved rounds (screen: +9.0 %, …)", or why not. */
export function stageNote(stage: RowStage): string {
  if (stage.by === 'interleaved')
    return `decided by ${plural(stage.rounds, 'interleaved round')} (screen: ${formatChange(stage.screen.change, null)}, ${WHY[stage.screen.why]})`;
  if (stage.suspect) return `screen: ${formatChange(stage.screen.change, null)}, ${WHY[stage.screen.why]}; ${unconfirmedText(stage.unconfirmed)}`;
  if (stage.blind)
    return `screened: measured ${formatChange(stage.blind.estimate, null)}, within the tolerance of ${formatPercentPoints(stage.blind.tolerance)}, but this runner's drift could hide a slowdown up to ${formatChange(stage.bound, null)}: not shown to pass`;
  return stage.bound === null ? 'screened' : `screened: no slowdown beyond ${formatChange(stage.bound, null)} seen`;
}

function seconds(s: number): string {
  return s >= 100 ? `${Math.round(s)} s` : `${s.toFixed(1)} s`;
}

/**
 * The two stages in two sentences: what the screen looked at and found, and
 * what the second stage measured, for which rows, and what it cost.
 */
export function stagesText(stages: TwoStages): string[] {
  const { screen, confirm } = stages;
  const against = screen.driftRuns !== null ? `the stored baseline, with the drift of ${plural(screen.driftRuns, 'run')} of history` : 'the stored baseline';
  const blind = screen.blind
    ? ` This runner's runs drift more than the tolerance: the history cannot clear a slowdown of that size in ${plural(screen.blind.rows, 'row')} (up to ${formatChange(screen.blind.bound, null)} could hide there), so every row whose estimate is worse than its tolerance went on to be measured side by side.`
    : '';
  const first = `Screen: ${plural(screen.rows, 'row')} against ${against}; ${screen.suspects === 0 ? 'no suspect' : plural(screen.suspects, 'suspect')} (${seconds(screen.seconds)}).${blind}`;
  if (screen.suspects === 0) return [first, 'Confirmation: not needed.'];
  const base = confirm.base ? ` against ${shortCommit(confirm.base)}` : '';
  const measured =
    confirm.suites.length === 0
      ? 'no suite measured again'
      : confirm.suites
          .map(
            (s) =>
              `${s.suite} (${plural(s.rounds, 'round')}${s.confirmRounds > 0 ? `, then ${s.confirmRounds} fresh to confirm` : ''}, for ${s.rows.join(', ')}${s.whole ? `; the whole suite ran in every round: ${s.whole}` : ''})`,
          )
          .join('; ');
  const skipped = confirm.skipped ? ` ${capitalise(unconfirmedText(confirm.skipped))}.` : '';
  const estimate = confirm.estimate;
  const cost = estimate ? `${seconds(confirm.seconds)}; estimated ${seconds(estimate.seconds)} before it started` : seconds(confirm.seconds);
  const left =
    estimate && estimate.left.length > 0
      ? ` Left out to stay within confirm-time-cap (${seconds(estimate.cap)}): ${listed(estimate.left, 5)}, still suspected.`
      : '';
  return [first, `Confirmation: interleaved${base}: ${measured} (${cost}).${left}${skipped}`];
}

/** The first `most` names, and how many more. */
function listed(names: readonly string[], most: number): string {
  const shown = names.slice(0, most).join(', ');
  return names.length > most ? `${shown} and ${names.length - most} more` : shown;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
