/**
 * The gate's check run: the verdict as its conclusion, the report as its
 * summary, and one annotation per failing or warning row. GitHub accepts at
 * most 50 annotations per request, so the first 50 go with the creation and
 * the rest follow in updates of 50 each.
 */
import type { CheckRunAnnotation, GitHubApi, RepoRef } from './client.js';

/** GitHub's limit of annotations in one create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** GitHub's limit for a check run's summary and text, in characters. */
export const MAX_CHECK_TEXT_CHARS = 65_535;

export interface CheckRunRequest {
  repo: RepoRef;
  name: string;
  headSha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  title: string;
  summary: string;
  annotations: readonly CheckRunAnnotation[];
  detailsUrl?: string;
}

export interface CheckRunOutcome {
  id: number;
  url: string;
  /** How many requests carried annotations (1 + updates). */
  batches: number;
}

/** Splits annotations into request-sized batches, in order. */
export function annotationBatches(annotations: readonly CheckRunAnnotation[], size = ANNOTATIONS_PER_REQUEST): CheckRunAnnotation[][] {
  const batches: CheckRunAnnotation[][] = [];
  for (let i = 0; i < annotations.length; i += size) batches.push(annotations.slice(i, i + size));
  return batches;
}

function fit(text: string, max = MAX_CHECK_TEXT_CHARS): string {
  if (text.length <= max) return text;
  const notice = '\n\n…cut to fit the check run limit; the full report is in the job summary.';
  return text.slice(0, max - notice.length) + notice;
}

/** Creates the completed check run and sends the remaining annotations in batches. */
export async function publishCheckRun(api: GitHubApi, request: CheckRunRequest): Promise<CheckRunOutcome> {
  const batches = annotationBatches(request.annotations);
  const title = fit(request.title, 1000);
  const summary = fit(request.summary);
  const created = await api.createCheckRun(request.repo, {
    name: request.name,
    headSha: request.headSha,
    conclusion: request.conclusion,
    output: { title, summary, annotations: batches[0] ?? [] },
    ...(request.detailsUrl ? { detailsUrl: request.detailsUrl } : {}),
  });
  for (const batch of batches.slice(1)) {
    await api.updateCheckRun(request.repo, created.id, { title, summary, annotations: batch });
  }
  return { id: created.id, url: created.url, batches: Math.max(1, batches.length) };
}
