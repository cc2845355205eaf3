/** Text cut to at most `max` characters, the last one an ellipsis when anything was cut. */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
