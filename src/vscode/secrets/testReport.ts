/**
 * End-to-end tests only (ELICIT_TEST_REPORT): key names and digests of what
 * SecretStorage holds, never values, written to a file the tests read.
 *
 * Written on every vault change and again every second: VS Code's extension
 * state can briefly show an older value after an update (a storage change
 * event from an earlier write lands afterwards), so the write that follows a
 * change may miss the entry just saved; the next one sees it. Writes run one
 * after another, and each change of the key set, or a failure, is noted in
 * <report>.log so a test that times out can say what happened.
 *
 * It lives in the extension, off unless the variable is set, because VS Code
 * lets only the extension that stored a secret read it: the test companion
 * extension cannot, and the public API must not tell other extensions even
 * digests of what is saved.
 */
import { createHash } from 'node:crypto';
import { appendFile, rename, writeFile } from 'node:fs/promises';
import type * as vscode from 'vscode';

/** What keeps secrets: the vault, the saved agent keys. */
export interface ReportSource {
  readonly onDidChange: vscode.Event<void>;
  storageKeys(): string[];
}

const REWRITE_MS = 1000;

export function writeTestReports(
  file: string,
  source: ReportSource,
  secrets: vscode.SecretStorage,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  let writing = Promise.resolve();
  let lastKeys: string | undefined;
  const note = (line: string): Promise<void> => appendFile(`${file}.log`, `${new Date().toISOString()} ${line}\n`).catch(() => undefined);
  const write = async (): Promise<void> => {
    try {
      const keys = (await writeReport(file, source.storageKeys(), secrets)).join(', ') || 'no keys';
      if (keys !== lastKeys) await note(`written: ${keys}`);
      lastKeys = keys;
    } catch (error) {
      log.error(`test report: ${String(error)}`);
      await note(`write failed: ${String(error)}`);
    }
  };
  const queue = (): void => void (writing = writing.then(write));
  const changes = source.onDidChange(queue);
  const timer = setInterval(queue, REWRITE_MS);
  return { dispose: () => (changes.dispose(), clearInterval(timer)) };
}

/** Each key with the SHA-256 digest of its value (null when it holds none), never the value. */
async function writeReport(file: string, keys: readonly string[], secrets: vscode.SecretStorage): Promise<string[]> {
  const report: Record<string, string | null> = {};
  for (const key of keys) {
    const value = await secrets.get(key);
    report[key] = value === undefined ? null : createHash('sha256').update(value).digest('hex');
  }
  // Whole or not at all: the test may read the report at any moment.
  await writeFile(`${file}.tmp`, JSON.stringify(report, null, 2));
  await rename(`${file}.tmp`, file);
  return Object.keys(report);
}
