// A node:test reporter that writes one short block per failed test: its file, the names that lead to
// it, and the start of its error. `npm test` prints that file after the TAP output, so the last lines
// of a long run (all a CI log may keep) name what failed.
import { relative } from 'node:path';

const MAX_ERROR_LINES = 40;

export default async function* failureSummary(source) {
  const names = [];
  const failures = [];
  for await (const event of source) {
    if (event.type === 'test:start') {
      names.length = event.data.nesting;
      names.push(event.data.name);
    } else if (event.type === 'test:fail') {
      const error = event.data.details?.error;
      // A suite fails because a test in it failed; that test has its own entry.
      if (error?.failureType === 'subtestsFailed') continue;
      const path = [...names.slice(0, event.data.nesting), event.data.name].join(' › ');
      const file = event.data.file ? relative(process.cwd(), event.data.file) : '(unknown file)';
      failures.push(`✖ ${file}\n  ${path}\n${describe(error)}`);
    }
  }
  yield failures.length === 0 ? '' : `${failures.length} failed:\n\n${failures.join('\n\n')}\n`;
}

function describe(error) {
  if (!error) return '    (no error)';
  const cause = error.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
  // Node's own frames say nothing about the test; dropping them leaves room for the message.
  const lines = text.split('\n').filter((line) => !/^\s+at .*\bnode:/.test(line) && !/^\s+at new Promise/.test(line));
  const shown = lines.slice(0, MAX_ERROR_LINES).map((line) => `    ${line}`);
  if (lines.length > MAX_ERROR_LINES) shown.push(`    … ${lines.length - MAX_ERROR_LINES} more lines`);
  return shown.join('\n');
}
