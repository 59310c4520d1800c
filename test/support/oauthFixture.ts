/** Starts test/fixtures/oauth-server.mjs (an authorization server + a protected MCP server). */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { newRecordFile } from './records';

export interface OAuthFixture {
  mcpUrl: string;
  authorizationServerUrl: string;
  /** JSON lines of registrations, authorizations, token grants (with the tokens) and answers. */
  recordFile: string;
  stop(): void;
}

const script = join(__dirname, '..', 'fixtures', 'oauth-server.mjs');

export async function startOAuthFixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const recordFile = newRecordFile();
  const child: ChildProcess = spawn(process.execPath, [script], {
    env: { ...process.env, ...env, RECORD_FILE: recordFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`oauth-server.mjs exited with ${code} before it started`)));
  });
  const { mcpUrl, authorizationServerUrl } = JSON.parse(firstLine) as { mcpUrl: string; authorizationServerUrl: string };
  return { mcpUrl, authorizationServerUrl, recordFile, stop: () => child.kill() };
}
