/** The repository's compare page of good...bad (GitHub's address for a commit range); null when the repository's address is unknown. */
export function compareUrl(repositoryUrl: string | null, good: string, bad: string): string | null {
  return repositoryUrl === null ? null : `${repositoryUrl}/compare/${good}...${bad}`;
}
