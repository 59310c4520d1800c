/**
 * Runs the official MCP conformance client suites (@modelcontextprotocol/conformance)
 * against Elicit's headless client (client.ts) and reads their checks.json results.
 * The tool needs Node ≥ 22: install-node22.sh puts Node 22 into .vscode-test/node22
 * and installs the tool with it into test/conformance/tools; the client under
 * test runs on this project's Node.
 *
 * Two releases of the tool: 0.1.16 tests 2025-era clients (the `core` and `auth`
 * suites); 0.2.0-alpha.12 (installed as `@modelcontextprotocol/conformance-2026`)
 * tests 2026-07-28 clients (`--spec-version 2026-07-28`: the auth suite and the
 * revision's client scenarios, among them multi round-trip requests).
 *
 *   npm run conformance                 everything below
 *   npm run conformance -- auth         one 2025-era suite
 *   npm run conformance -- 2026         the 2026-07-28 runs
 *
 * The tool runs a suite's scenarios in parallel. On a busy machine a timing
 * check (sse-retry's reconnect delay) can miss its window, so a scenario that
 * fails there is run once more on its own, and reported as such.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
// Installed by install-node22.sh with Node 22, from test/conformance/tools/package-lock.json.
const tools = join(__dirname, 'tools', 'node_modules', '@modelcontextprotocol');
const tool2025 = join(tools, 'conformance', 'dist', 'index.js');
const tool2026 = join(tools, 'conformance-2026', 'dist', 'index.js');
const clientCommand = `"${process.execPath}" --import tsx test/conformance/client.ts`;

export const DEFAULT_SUITES = ['core', 'auth'];

/** The 2026-07-28 runs: the auth suite at that revision, and the revision's own client scenarios. */
export const REVISION_2026 = {
  suites: ['auth'],
  scenarios: [
    'tools_call',
    'request-metadata',
    'sep-2322-client-request-state',
    'http-standard-headers',
    'http-invalid-tool-headers',
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'auth/authorization-server-migration',
    'auth/iss-supported',
    'auth/iss-not-advertised',
    'auth/iss-supported-missing',
    'auth/iss-wrong-issuer',
    'auth/iss-unexpected',
    'auth/iss-normalized',
    'auth/metadata-issuer-mismatch',
  ],
};

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  /** "check-id: message" of each failed check. */
  failures: string[];
}

export interface SuiteResult {
  suite: string;
  scenarios: ScenarioResult[];
  /** Scenarios that failed in the parallel run and were run again on their own. */
  rerunAlone: string[];
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** The Node 22 binary for the tool, installed on first use together with the tool. */
export function node22(): string {
  return execFileSync('bash', [join(__dirname, 'install-node22.sh')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

export async function runSuite(suite: string, log: (line: string) => void = () => undefined): Promise<SuiteResult> {
  return runSelection(tool2025, suite, ['--suite', suite], log);
}

/** One 2026-07-28 run: a suite (`auth`) or the revision's scenarios (`scenarios`), with `--spec-version 2026-07-28`. */
export async function run2026(which: 'auth' | 'scenarios', log: (line: string) => void = () => undefined): Promise<SuiteResult> {
  const version = ['--spec-version', '2026-07-28'];
  if (which === 'auth') return runSelection(tool2026, '2026-07-28 auth', ['--suite', 'auth', ...version], log);
  const node = node22();
  const scenarios: ScenarioResult[] = [];
  for (const scenario of REVISION_2026.scenarios)
    scenarios.push(...(await runTool(tool2026, node, ['--scenario', scenario, ...version], log)));
  return { suite: '2026-07-28 scenarios', scenarios, rerunAlone: [] };
}

async function runSelection(tool: string, suite: string, selection: string[], log: (line: string) => void): Promise<SuiteResult> {
  const node = node22();
  const extra = selection.slice(2);
  const results = await runTool(tool, node, selection, log);
  const rerunAlone: string[] = [];
  for (const [index, result] of results.entries()) {
    if (result.failed === 0) continue;
    log(`${result.scenario} failed in the parallel run; running it again on its own`);
    rerunAlone.push(result.scenario);
    const [alone] = await runTool(tool, node, ['--scenario', result.scenario, ...extra], log);
    if (alone) results[index] = alone;
  }
  return { suite, scenarios: results, rerunAlone };
}

async function runTool(tool: string, node: string, selection: string[], log: (line: string) => void): Promise<ScenarioResult[]> {
  const outputDir = mkdtempSync(join(tmpdir(), 'elicit-conformance-'));
  try {
    const args = [tool, 'client', '--command', clientCommand, ...selection, '--output-dir', outputDir];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('error', reject);
      // The tool exits 1 when a check fails; the results say which.
      child.once('close', () => resolve(text));
    });
    const results = readResults(outputDir);
    if (results.length === 0) throw new Error(`the conformance tool produced no results:\n${output.slice(-2000)}`);
    for (const r of results)
      log(
        `${r.failed === 0 ? '✓' : '✗'} ${r.scenario}: ${r.passed} passed, ${r.failed} failed${r.warnings ? `, ${r.warnings} warnings` : ''}`,
      );
    return results;
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

/** One result per `<scenario>-<timestamp>/checks.json` (auth scenarios sit one folder deeper). */
function readResults(outputDir: string): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!statSync(path).isDirectory()) continue;
      const checksFile = join(path, 'checks.json');
      let checks: Check[];
      try {
        checks = JSON.parse(readFileSync(checksFile, 'utf8')) as Check[];
      } catch {
        visit(path);
        continue;
      }
      const scenario = relative(outputDir, path).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      results.push({
        scenario,
        passed: checks.filter((c) => c.status === 'SUCCESS').length,
        failed: checks.filter((c) => c.status === 'FAILURE').length,
        warnings: checks.filter((c) => c.status === 'WARNING').length,
        failures: checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`),
      });
    }
  };
  visit(outputDir);
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

export function summary(result: SuiteResult): string {
  const passed = result.scenarios.filter((s) => s.failed === 0).length;
  const checks = result.scenarios.reduce((n, s) => n + s.passed, 0);
  const failedChecks = result.scenarios.reduce((n, s) => n + s.failed, 0);
  return `${result.suite}: ${passed}/${result.scenarios.length} scenarios passed (${checks} checks passed, ${failedChecks} failed)`;
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const log = (line: string): void => console.log(`  ${line}`);
  const runs: Array<() => Promise<SuiteResult>> = [];
  for (const suite of asked.length > 0 ? asked.filter((a) => a !== '2026') : DEFAULT_SUITES) runs.push(() => runSuite(suite, log));
  if (asked.length === 0 || asked.includes('2026'))
    runs.push(
      () => run2026('auth', log),
      () => run2026('scenarios', log),
    );
  let failed = false;
  for (const run of runs) {
    const result = await run();
    console.log(summary(result));
    for (const s of result.scenarios) for (const f of s.failures) console.log(`  ✗ ${s.scenario} · ${f}`);
    failed ||= result.scenarios.some((s) => s.failed > 0);
  }
  process.exitCode = failed ? 1 : 0;
}

if (require.main === module) void main();
