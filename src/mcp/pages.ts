/** Paginated lists (`cursor` / `nextCursor`), shared by tools, prompts and resources. */

/** Every page of a paginated list (`cursor` / `nextCursor`). */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  // A server that repeats a cursor would loop forever: stop on a repeat.
  const seen = new Set<string>();
  do {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.next;
    if (cursor !== undefined && seen.has(cursor)) break;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor);
  return items;
}
