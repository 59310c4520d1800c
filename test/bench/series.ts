/**
 * One series of the benchmark (the QuickPicks, the cold forms, the overhead rounds…). A series that
 * cannot run fails here, naming itself and what it waited for: each wait inside says what it waited
 * for, and this bounds the whole series too (a minute, and 15 s a question), for whatever might wait
 * without saying. Both the full `npm run bench` and the short bench of `npm test` run through it.
 */
export async function runSeries<T>(
  name: string,
  questions: number,
  run: () => Promise<T>,
  lastSeen: () => string[] = () => [],
): Promise<T> {
  const limitMs = 60_000 + questions * 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seen = lastSeen();
      reject(new Error(`did not finish in ${limitMs / 1000} s${seen.length > 0 ? `; last events:\n${seen.join('\n')}` : ''}`));
    }, limitMs);
  });
  try {
    return await Promise.race([run(), limit]);
  } catch (error) {
    throw new Error(`bench: the ${name} series could not run: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
