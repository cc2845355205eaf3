import { execFileSync } from 'node:child_process';
import { gitSync } from './history.js';

/**
 * `count` empty commits on main of `repo`, made by one git fast-import (a
 * git process per commit costs seconds on a busy machine), with the given
 * subjects (default "commit i") and tags by commit index: a name starting
 * with `v` annotated, others lightweight. Commit i is dated i hours after
 * 2026-09-21. Returns the commit ids, oldest first.
 */
export function commitChain(repo: string, count: number, subjects: Record<number, string> = {}, tags: Record<number, string> = {}): string[] {
  const data = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const stream = Array.from({ length: count }, (_, i) => {
    const when = `${1790000000 + i * 3600} +0000`;
    const commit = `commit refs/heads/main\nmark :${i + 1}\ncommitter t <t@t> ${when}\n${data(subjects[i] ?? `commit ${i}`)}`;
    const tag = tags[i];
    if (tag === undefined) return commit;
    return tag.startsWith('v')
      ? `${commit}tag ${tag}\nfrom :${i + 1}\ntagger t <t@t> ${when}\n${data(`release ${tag}`)}`
      : `${commit}reset refs/tags/${tag}\nfrom :${i + 1}\n\n`;
  });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: stream.join('') });
  return gitSync(repo, ['rev-list', '--reverse', 'main']).split('\n');
}
