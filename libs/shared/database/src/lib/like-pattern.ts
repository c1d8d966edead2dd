/** LIKE/ILIKE pattern for a substring, with the user's own % _ and \ taken literally. */
export function containsPattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
