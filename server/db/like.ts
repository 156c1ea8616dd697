/**
 * A LIKE/ILIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally: what a
 * person types in a search box is words, not a pattern.
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
