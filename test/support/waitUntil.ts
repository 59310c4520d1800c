/** Polling helpers for tests that wait on another process, a file or a UI. */
import * as fs from 'node:fs';

export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 20_000,
  /** How often the condition is checked: longer for one that reads large files. */
  pollMs = 100,
): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * Waits for a file another process writes and returns its text. An empty file
 * counts as not yet written: a writer that truncates first may be caught between
 * creating the file and writing to it.
 */
export async function waitForFile(file: string, timeoutMs = 20_000): Promise<string> {
  let text = '';
  await waitUntil(
    () => {
      text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      return text !== '';
    },
    `${file} to be written`,
    timeoutMs,
  );
  return text;
}
