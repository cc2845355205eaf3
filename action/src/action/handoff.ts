/**
 * The two-stage mode's handoff. Stage one (`mode: pr`, read-only token, may
 * run fork code) writes a folder: the run's ResultSet plus the pull request
 * number and head SHA it claims to be for. Stage two (`mode: report`, in a
 * `workflow_run` workflow with a write token) reads it back.
 *
 * Everything stage two reads was written by code the fork controlled, so every
 * byte is untrusted: only the two known file names are read, never through a
 * symlink, with size limits; both files are validated strictly; and the claimed
 * pull request is checked against GitHub (its head SHA must be the SHA of the
 * run that produced the artifact) before anything is posted. The verdict is
 * recomputed from the results with the base branch's own baseline and budgets;
 * no report text from stage one is ever shown.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type ResultSet } from '../model/index.js';
import { serializeResultSet, storableResultSet, validateResults, writeOutputFile } from '../pipeline/index.js';
import type { GitHubApi, RepoRef } from '../github/client.js';

export const HANDOFF_SCHEMA = 'perf-gate/handoff@1';
/** File names inside the handoff folder (and the artifact). */
export const HANDOFF_FILES = { results: 'results.json', pullRequest: 'pull-request.json' } as const;
/** Largest results file stage two accepts. */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;
const MAX_PR_FILE_BYTES = 4096;

/** What stage one claims. */
export interface HandoffClaim {
  schema: typeof HANDOFF_SCHEMA;
  pullRequest: number;
  headSha: string;
  gate: string;
}

export interface Handoff {
  claim: HandoffClaim;
  results: ResultSet;
}

/** Writes the handoff folder (each file atomically); returns its path. */
export function writeHandoff(dir: string, claim: Omit<HandoffClaim, 'schema'>, results: ResultSet): string {
  const full: HandoffClaim = { schema: HANDOFF_SCHEMA, ...claim };
  storableResultSet(results, `${dir}/${HANDOFF_FILES.results}`);
  writeOutputFile(dir, HANDOFF_FILES.pullRequest, `${JSON.stringify(full, null, 2)}\n`);
  writeOutputFile(dir, HANDOFF_FILES.results, serializeResultSet(results));
  return dir;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Validates the claim file's parsed JSON strictly: exactly the known keys, each well-formed. */
export function parseClaim(data: unknown, file: string): HandoffClaim {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new InputError(file, 'expected a JSON object');
  const obj = data as Record<string, unknown>;
  const allowed = new Set(['schema', 'pullRequest', 'headSha', 'gate']);
  for (const key of Object.keys(obj)) if (!allowed.has(key)) throw new InputError(file, `unexpected key "${key.slice(0, 40)}"`, undefined, key.slice(0, 40));
  if (obj['schema'] !== HANDOFF_SCHEMA) throw new InputError(file, `expected "schema": "${HANDOFF_SCHEMA}"`, undefined, 'schema');
  const pr = obj['pullRequest'];
  if (typeof pr !== 'number' || !Number.isSafeInteger(pr) || pr < 1)
    throw new InputError(file, 'expected a positive integer pull request number', undefined, 'pullRequest');
  const sha = obj['headSha'];
  if (typeof sha !== 'string' || !SHA.test(sha)) throw new InputError(file, 'expected a 40- or 64-character lower-case hex commit SHA', undefined, 'headSha');
  const gate = obj['gate'];
  if (typeof gate !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(gate))
    throw new InputError(file, 'expected a gate name of letters, digits, ".", "_" or "-"', undefined, 'gate');
  return { schema: HANDOFF_SCHEMA, pullRequest: pr, headSha: sha, gate };
}

function readRegularFile(path: string, maxBytes: number): string {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    throw new InputError(path, 'missing from the two-stage artifact; was it written by perf-gate with mode: pr?');
  }
  if (!stat.isFile()) throw new InputError(path, 'expected a regular file (symbolic links and folders are refused in an untrusted artifact)');
  if (stat.size > maxBytes) throw new InputError(path, `is ${stat.size} bytes, more than the ${maxBytes} accepted`);
  return readFileSync(path, 'utf8');
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(file, `not valid JSON: ${(error as Error).message}`);
  }
}

/** Parses the handoff from in-memory file contents (used for a downloaded archive). */
export function parseHandoff(files: { pullRequest: string; results: string }, where: string): Handoff {
  const claimFile = `${where}/${HANDOFF_FILES.pullRequest}`;
  const resultsFile = `${where}/${HANDOFF_FILES.results}`;
  if (files.pullRequest.length > MAX_PR_FILE_BYTES) throw new InputError(claimFile, `longer than ${MAX_PR_FILE_BYTES} bytes`);
  const claim = parseClaim(parseJson(files.pullRequest, claimFile), claimFile);
  const results = validateResults(parseJson(files.results, resultsFile), resultsFile, files.results);
  return { claim, results };
}

/** Reads the handoff folder (e.g. where actions/download-artifact put it). */
export function readHandoffFolder(dir: string): Handoff {
  return parseHandoff(
    {
      pullRequest: readRegularFile(join(dir, HANDOFF_FILES.pullRequest), MAX_PR_FILE_BYTES),
      results: readRegularFile(join(dir, HANDOFF_FILES.results), MAX_RESULTS_BYTES),
    },
    dir,
  );
}

/** The trusted facts of the `workflow_run` event that started stage two. */
export interface WorkflowRunFacts {
  runId: number;
  headSha: string;
  /** owner/name of the repository the run's head commit came from. */
  headRepo: string | null;
  event: string;
}

/** Reads the workflow_run facts from the event payload; null when the payload is not a workflow_run. */
export function workflowRunFromEvent(payload: unknown): WorkflowRunFacts | null {
  const run = (payload as { workflow_run?: Record<string, unknown> } | null)?.workflow_run;
  if (!run || typeof run !== 'object') return null;
  const id = run['id'];
  const sha = run['head_sha'];
  if (typeof id !== 'number' || typeof sha !== 'string') return null;
  const headRepo = (run['head_repository'] as { full_name?: unknown } | null | undefined)?.full_name;
  return { runId: id, headSha: sha, headRepo: typeof headRepo === 'string' ? headRepo : null, event: String(run['event'] ?? '') };
}

export class HandoffRejected extends Error {
  override readonly name = 'HandoffRejected';
}

/**
 * Checks the claim against GitHub and the trusted event: the claimed head SHA
 * must be the commit the first stage ran on, and the claimed pull request's
 * current head must be that same commit (and come from the same repository).
 * A forged or stale pull request number fails here.
 */
export async function verifyClaim(api: GitHubApi, repo: RepoRef, claim: HandoffClaim, run: WorkflowRunFacts | null, gate: string): Promise<void> {
  if (claim.gate !== gate) throw new HandoffRejected(`the artifact is for gate "${claim.gate}", not "${gate}"`);
  if (run && run.headSha !== claim.headSha) {
    throw new HandoffRejected(`the artifact claims commit ${claim.headSha} but the workflow run that produced it ran on ${run.headSha}`);
  }
  const pr = await api.getPullRequest(repo, claim.pullRequest);
  if (pr.headSha !== claim.headSha) {
    throw new HandoffRejected(
      `pull request #${claim.pullRequest} has head ${pr.headSha}, not the artifact's ${claim.headSha}: the pull request number is forged or the pull request moved on; nothing is posted`,
    );
  }
  if (run?.headRepo && pr.headRepo && pr.headRepo.toLowerCase() !== run.headRepo.toLowerCase()) {
    throw new HandoffRejected(`pull request #${claim.pullRequest} comes from ${pr.headRepo}, but the workflow run came from ${run.headRepo}`);
  }
}
