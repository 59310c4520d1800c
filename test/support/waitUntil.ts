/** Polling helpers for tests that wait on another process, a file or a UI. */
import * as fs from 'node:fs';

export async function waitUntil(condition: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitForFile(file: string, timeoutMs = 20_000): Promise<string> {
  await waitUntil(() => fs.existsSync(file), `${file} to be written`, timeoutMs);
  return fs.readFileSync(file, 'utf8');
}
