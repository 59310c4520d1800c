#!/usr/bin/env node
// `npm test`: lint, format check, type-check, build the VSIX, make sure a real VS Code
// (code-server) is installed, then run every test layer in one node:test run:
// unit (pure core), integration (real MCP servers as processes), end to end
// (the VSIX installed into code-server, driven by Playwright + Chromium).
//
//   npm test                      everything
//   npm test -- --skip-e2e        unit + integration only (no browser, no code-server)
//   npm test -- test/unit/x.test.ts   just these files
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { failedFiles, flakyLines, forgivenFiles } from './support/flakeReport.mjs';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const skipE2e = args.includes('--skip-e2e') || process.env.ELICIT_SKIP_E2E === '1';
const explicit = args.filter((a) => !a.startsWith('--'));

function step(title, command, commandArgs) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function testFiles(layer) {
  const dir = join(root, 'test', layer);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => relative(root, join(dir, f)));
}

// Every temporary file of the run (tests, servers, agents, code-server) goes into one folder, removed
// when the run ends, pass or fail: nothing is left in the temp directory, whatever a test forgot.
const runTemp = mkdtempSync(join(tmpdir(), 'elicit-test-run-'));
process.env.TMPDIR = runTemp;
process.on('exit', () => rmSync(runTemp, { recursive: true, force: true }));

const files = explicit.length > 0 ? explicit : [...testFiles('unit'), ...testFiles('integration'), ...(skipE2e ? [] : testFiles('e2e'))];
const needsE2e = files.some((f) => f.includes('e2e'));

if (explicit.length === 0) {
  step('lint', 'npx', ['eslint', '.']);
  step('format', 'npx', ['prettier', '--check', '.']);
  step('type-check', 'npm', ['run', '--silent', 'typecheck']);
}
if (needsE2e) {
  step('package the VSIX', 'npm', ['run', '--silent', 'package']);
  step('install code-server (cached in .vscode-test/)', 'bash', ['test/e2e/install-code-server.sh']);
}
// Last, so the test runner's own summary closes the output (and the list of what failed follows it).
// Two reporters: TAP as always, and a short list of what failed, printed last, so the tail of a long
// log (all a CI page may keep) names each failed test and its error.
// A file's process that stays alive after its last test (a server or timer a test left behind) would
// hold the whole run until CI's own limit: past this it fails, named, and the run goes on. The longest
// files take about three minutes here. It is also every test's default limit; suites that need longer say so.
const FILE_TIMEOUT_MS = Number(process.env.ELICIT_TEST_FILE_TIMEOUT_MS) || 15 * 60_000;

function runTests(title, testFiles, failuresFile) {
  console.log(`\n▶ ${title} (${testFiles.length} files)`);
  const reporters = ['--test-reporter=tap', '--test-reporter-destination=stdout'];
  reporters.push('--test-reporter=./test/support/failureSummary.mjs', `--test-reporter-destination=${failuresFile}`);
  const runner = ['--import', 'tsx', '--test', '--test-concurrency=1', `--test-timeout=${FILE_TIMEOUT_MS}`];
  const run = spawnSync(process.execPath, [...runner, ...reporters, ...testFiles], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  const failures = existsSync(failuresFile) ? readFileSync(failuresFile, 'utf8') : '';
  // A run that failed without naming a file names none.
  return { status: run.status ?? 1, failures, failedFiles: failedFiles(failures) };
}

const first = runTests('tests', files, join(runTemp, 'failures.txt'));
if (first.status === 0) process.exit(0);

// An end-to-end file drives a real VS Code in a browser on a shared machine. In a whole run, when a few
// end-to-end files and nothing else failed, they are run once more, each starting its own code-server,
// and the run passes only if they pass then. That second chance is a report, not a pardon: each file it
// forgives is named in the run's last lines with its first failure, a flaky test to find and fix. Unit
// and integration failures are never run again, nor anything in a run of chosen files.
const MAX_FILES_AGAIN = 3;
const again =
  explicit.length === 0 &&
  first.failedFiles.length > 0 &&
  first.failedFiles.length <= MAX_FILES_AGAIN &&
  first.failedFiles.every((f) => f.startsWith('test/e2e/'))
    ? runTests('end-to-end files that failed, once more', first.failedFiles, join(runTemp, 'failures-again.txt'))
    : undefined;
const named = (failures) => failures || '(no test named: see the output above)\n';
if (!again) {
  console.log(`\n▶ what failed\n${named(first.failures)}`);
  process.exit(first.status);
}
console.log(`\n▶ what failed the first time\n${named(first.failures)}`);
if (again.status !== 0) console.log(`▶ what failed again\n${named(again.failures)}`);
const flaky = flakyLines(first.failures, forgivenFiles(first.failures, again));
if (flaky) console.log(`\n${flaky}`);
process.exit(again.status);
