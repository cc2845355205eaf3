/**
 * Fetches the two-stage artifact through the Actions artifacts API and pulls
 * the two known files out of its zip archive in memory. Nothing from the
 * archive is written to disk and no other entry is looked at, so a hostile
 * archive (path traversal, symlinks, zip bombs) has nothing to work with.
 */
import { unzipSync } from 'fflate';
import { InputError } from '../model/index.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { HANDOFF_FILES, MAX_RESULTS_BYTES, parseHandoff, type Handoff } from './handoff.js';

/** Largest archive downloaded. */
const MAX_ARCHIVE_BYTES = MAX_RESULTS_BYTES + 1024 * 1024;

export async function downloadHandoff(api: GitHubApi, repo: RepoRef, runId: number, artifactName: string): Promise<Handoff> {
  const where = `artifact "${artifactName}" of run ${runId}`;
  const artifacts = (await api.listRunArtifacts(repo, runId)).filter((a) => a.name === artifactName && !a.expired);
  const artifact = artifacts[0];
  if (!artifact) throw new InputError(where, 'not found (or expired); the pull request workflow must upload the output-dir/handoff folder under this name');
  if (artifact.sizeInBytes > MAX_ARCHIVE_BYTES) throw new InputError(where, `is ${artifact.sizeInBytes} bytes, more than the ${MAX_ARCHIVE_BYTES} accepted`);
  const archive = await api.downloadArtifact(repo, artifact.id, MAX_ARCHIVE_BYTES);
  const wanted = new Set<string>(Object.values(HANDOFF_FILES));
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive, {
      filter: (file) => {
        if (!wanted.has(file.name)) return false;
        if (file.originalSize > MAX_RESULTS_BYTES)
          throw new Error(`${file.name} unpacks to ${file.originalSize} bytes, more than the ${MAX_RESULTS_BYTES} accepted`);
        return true;
      },
    });
  } catch (error) {
    throw new InputError(where, `not a usable zip archive: ${(error as Error).message}`);
  }
  const text = (name: string): string => {
    const bytes = entries[name];
    if (!bytes) throw new InputError(`${where}/${name}`, 'missing from the artifact; was it written by perf-gate with mode: pr?');
    if (bytes.byteLength > MAX_RESULTS_BYTES) throw new InputError(`${where}/${name}`, 'too large');
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  };
  return parseHandoff({ pullRequest: text(HANDOFF_FILES.pullRequest), results: text(HANDOFF_FILES.results) }, where);
}
