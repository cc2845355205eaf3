/**
 * The action's last words to GitHub about a run: the pull request's sticky
 * comment (pr-comment.ts) and the check run on the commit it measured. Both
 * take the finished outcome and never decide. A failure to post is a
 * warning: it never hides or changes the verdict, decided before any call.
 */
import { checkRunSummary, checkRunTitle, type RunOutcome, type RunStatus } from '../pipeline/index.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { publishCheckRun } from '../github/check-run.js';
import { checkRunAnnotations } from './check-run-annotations.js';
import { postComment } from './pr-comment.js';
import type { ActionDeps } from './deps.js';
import type { ActionLog } from './log.js';
import type { RunFacts } from './run-facts.js';
import { repoRef, workflowRunUrl, type Settings } from './settings.js';

/** The comment (modes pr and report) and the check run (where asked), in one log group; `lead` opens the check run's summary. */
export function tellGitHub(settings: Settings, outcome: RunOutcome, facts: RunFacts, deps: ActionDeps, lead: string | null = null): Promise<void> {
  const { log, github } = deps;
  return log.group('perf-gate: tell GitHub', async () => {
    if (!github) {
      log.info('no github-token: no comment and no check run');
      return;
    }
    const repo = repoRef(settings);
    const headSha = facts.handoff ? facts.handoff.claim.headSha : (facts.pr?.headSha ?? settings.github.sha);
    // A run started by /perf-gate run says who asked, when, and when it finished.
    const status: RunStatus | null = facts.dispatched ? { ...facts.dispatched.status, finished: deps.run.now().toISOString() } : null;
    if (facts.prNumber !== null && (settings.mode === 'pr' || settings.mode === 'report'))
      await postComment(github, { repo, pullRequest: facts.prNumber, headSha }, settings, outcome, status, log);
    if (settings.checkRun && headSha) await postCheckRun(github, repo, headSha, settings, outcome, lead, log);
  });
}

async function postCheckRun(
  github: GitHubApi,
  repo: RepoRef,
  headSha: string,
  settings: Settings,
  outcome: RunOutcome,
  lead: string | null,
  log: ActionLog,
): Promise<void> {
  const { report } = outcome;
  const runUrl = workflowRunUrl(settings.github);
  try {
    const posted = await publishCheckRun(github, {
      repo,
      name: settings.gateName,
      headSha,
      conclusion: outcome.conclusion,
      title: checkRunTitle(report),
      summary: `${lead ? `${lead}\n` : ''}${checkRunSummary(report, settings.gateName)}`,
      annotations: checkRunAnnotations(report, { workspace: settings.github.workspace, workingDirectory: settings.workingDirectory, config: settings.config }),
      ...(runUrl ? { detailsUrl: runUrl } : {}),
    });
    log.info(`check run ${posted.id} (${posted.batches} request${posted.batches === 1 ? '' : 's'} with annotations)`);
    log.setOutput('check-run-id', String(posted.id));
  } catch (error) {
    log.warning(`perf-gate: could not create the check run (${(error as Error).message}); the verdict stands. The token needs checks: write.`);
  }
}
