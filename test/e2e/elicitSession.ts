/**
 * One end-to-end session: a temp workspace whose .vscode/mcp.json starts fixture
 * servers, the built VSIX installed into a fresh code-server, and a browser on it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { startCodeServer, repoRoot, type CodeServer } from './harness/codeServer';
import { openWorkbench, type Workbench } from './harness/workbench';
import { startFromKnownEditor } from './harness/knownEditor';

export const fixtures = path.join(repoRoot, 'test', 'fixtures');

/** The VSIX under test: the repository's build, or $ELICIT_VSIX (the soak's planted-bug runs build their own). */
export function builtVsix(): string {
  if (process.env.ELICIT_VSIX) return process.env.ELICIT_VSIX;
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const vsix = path.join(repoRoot, `elicit-${version}.vsix`);
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run "npm run package" (npm test does it first)`);
  return vsix;
}

/**
 * The sessions open now, and whether a test has run in each since it opened. A session's first test
 * gets the window as it opened (a first look at it is what some test files are about); every later
 * test starts from a known editor (harness/knownEditor.ts), whatever the test before it left.
 */
const openSessions = new Map<ElicitSession, { used: boolean }>();

/**
 * Only in a test run: the soak and the benchmark import this module as plain scripts, where a hook
 * would make node:test print a report of its own.
 */
function runByTheTestRunner(): boolean {
  return (
    process.env.NODE_TEST_CONTEXT !== undefined || process.execArgv.includes('--test') || /\.test\.[cm]?[jt]s$/.test(process.argv[1] ?? '')
  );
}

if (runByTheTestRunner()) {
  beforeEach(async (t) => {
    for (const [session, { used }] of openSessions) {
      if (!used || session.workbench.page.isClosed()) continue;
      const found = await startFromKnownEditor(session.workbench.page, session.sharedTabs);
      // What an earlier test left is a finding too: said in this test's output.
      if (found && 'diagnostic' in t) t.diagnostic(`started from a known editor after putting away what was left: ${found}`);
    }
  });
  afterEach(() => {
    for (const state of openSessions.values()) state.used = true;
  });
}

export interface ElicitSession {
  workspaceDir: string;
  server: CodeServer;
  workbench: Workbench;
  /**
   * Tabs the file's tests share on purpose, by title, kept open from one test to the next (the rest of
   * the known editor still holds): say why where it is set.
   */
  sharedTabs: string[];
  /** Closes the browser, stops code-server and removes the session's temp folders. */
  close(): Promise<void>;
}

/** `mcpJson` is written as .vscode/mcp.json text, so tests can also write broken files. */
export async function openElicitSession(
  mcpJson: string,
  userSettings: Record<string, unknown> = {},
  env: Record<string, string> = {},
  extraVsix: string[] = [],
  files: {
    /** More files of the workspace, by path relative to it (a `.mcp.json`, say). */
    workspace?: Record<string, string>;
    /** Files of the profile folder, by name (`mcp.json`: the user's MCP servers). */
    user?: Record<string, string>;
  } = {},
  /** How code-server itself runs (CodeServerOptions). */
  serverOptions: { portsOwnAddress?: boolean } = {},
): Promise<ElicitSession> {
  const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-ws-'));
  fs.mkdirSync(path.join(workspaceDir, '.vscode'));
  fs.writeFileSync(path.join(workspaceDir, '.vscode', 'mcp.json'), mcpJson);
  for (const [name, text] of Object.entries(files.workspace ?? {})) fs.writeFileSync(path.join(workspaceDir, name), text);
  let server: CodeServer;
  try {
    server = await startCodeServer({
      vsixPaths: [builtVsix(), ...extraVsix],
      workspaceDir,
      userSettings,
      env,
      userFiles: files.user,
      ...serverOptions,
    });
  } catch (error) {
    fs.rmSync(workspaceDir, { recursive: true, force: true });
    throw error;
  }
  // Nothing of a session stays in the temp folder once it ends (ELICIT_E2E_KEEP=1 keeps the server's, with its logs).
  const removeAll = async (): Promise<void> => {
    await server.removeDirs();
    await fs.promises.rm(workspaceDir, { recursive: true, force: true, maxRetries: 5 });
  };
  let workbench: Workbench;
  try {
    workbench = await openWorkbench(server.url);
  } catch (error) {
    await server.stop();
    await removeAll();
    throw error;
  }
  const session: ElicitSession = {
    workspaceDir,
    server,
    workbench,
    sharedTabs: [],
    async close() {
      openSessions.delete(session);
      await workbench.close().catch(() => undefined);
      await server.stop();
      await removeAll();
    },
  };
  openSessions.set(session, { used: false });
  return session;
}

/** A stdio server entry that runs a fixture with the machine's Node. */
export function fixtureServer(file: string, env: Record<string, string>): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args: [path.join(fixtures, file)], env };
}
