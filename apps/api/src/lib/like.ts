/**
 * A LIKE/ILIKE pattern matching `text` anywhere, its own %, _ and \ taken literally (PostgreSQL's
 * default escape character is the backslash).
 */
export const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
