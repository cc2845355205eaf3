/**
 * The repository's web address, for the compare links of the release report:
 * GITHUB_SERVER_URL/GITHUB_REPOSITORY in a workflow, else the `origin`
 * remote when it is on github.com. Optional: null when neither says, and the
 * report shows ranges without links. Credentials in a remote URL
 * (https://user:token@…) are never kept.
 */
import { execFileSync } from 'node:child_process';

const WEB_URL = /^https?:\/\/[\w.-]+(?::\d+)?\/[\w.-]+\/[\w.-]+$/;

/** https://github.com/owner/name for a github.com remote (https, ssh or scp-like), else null. Pure. */
export function webUrlOfRemote(remote: string): string | null {
  const m = /^(?:https?:\/\/(?:[^@/]*@)?|ssh:\/\/(?:[^@/]*@)?|[\w.-]+@)github\.com[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(remote.trim());
  if (!m) return null;
  const url = `https://github.com/${m[1]}/${m[2]}`;
  return WEB_URL.test(url) ? url : null;
}

/** The web address from a workflow's environment, else from `git remote get-url origin` in `repo`; null when unknown. */
export function repositoryWebUrl(env: NodeJS.ProcessEnv, repo: string): string | null {
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, '');
  const name = env.GITHUB_REPOSITORY;
  if (server && name) {
    const url = `${server}/${name}`;
    if (WEB_URL.test(url)) return url;
  }
  try {
    const remote = execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return webUrlOfRemote(remote);
  } catch {
    return null;
  }
}
