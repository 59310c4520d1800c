/**
 * The closing lines of `npm test` when end-to-end files failed and passed when run again: read from
 * what the failure summary reporter itself writes, so a change of its format shows here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import failureSummary from '../support/failureSummary.mjs';
import { failedFiles, failures, flakyLines, forgivenFiles } from '../support/flakeReport.mjs';

type Event = { type: string; data: Record<string, unknown> };

/** A failed test as the test runner reports it: its start events, then its failure. */
function failed(file: string, names: string[], error: Error): Event[] {
  const starts = names.map((name, nesting) => ({ type: 'test:start', data: { name, nesting, file } }));
  return [...starts, { type: 'test:fail', data: { name: names.at(-1), nesting: names.length - 1, file, details: { error } } }];
}

/** What failureSummary.mjs writes for these events. */
async function summaryOf(events: Event[]): Promise<string> {
  async function* source(): AsyncGenerator<Event> {
    yield* events;
  }
  let text = '';
  for await (const chunk of failureSummary(source())) text += chunk;
  return text;
}

const renderers = `${process.cwd()}/test/e2e/elicitationRenderers.test.ts`;
const runTool = `${process.cwd()}/test/e2e/runTool.test.ts`;

describe('the flaky files named last', () => {
  it('names each forgiven file with its first failed test and the first line of its error', async () => {
    const summary = await summaryOf([
      ...failed(
        renderers,
        ['Elicitation renderers in code-server', 'looks like VS Code in a dark and a light theme'],
        new Error('no field after 30000 ms\n  more detail'),
      ),
      ...failed(renderers, ['Elicitation renderers in code-server', 'declines from the form'], new Error('no tab "ask-server asks"')),
      ...failed(runTool, ['Run MCP Tool', 'names the file and the problem'], new Error('quick input not as expected after 20000 ms')),
    ]);
    assert.deepEqual(failedFiles(summary), ['test/e2e/elicitationRenderers.test.ts', 'test/e2e/runTool.test.ts']);
    assert.deepEqual(failures(summary)[0], {
      file: 'test/e2e/elicitationRenderers.test.ts',
      test: 'Elicitation renderers in code-server › looks like VS Code in a dark and a light theme',
      error: 'Error: no field after 30000 ms',
    });
    const forgiven = forgivenFiles(summary, { status: 0, failures: '' });
    assert.deepEqual(forgiven, ['test/e2e/elicitationRenderers.test.ts', 'test/e2e/runTool.test.ts']);
    assert.equal(
      flakyLines(summary, forgiven),
      [
        '▶ flaky (forgiven this time, a finding to fix): 2 files failed, then passed when run again',
        '  test/e2e/elicitationRenderers.test.ts: "Elicitation renderers in code-server › looks like VS Code in a dark and a light theme": Error: no field after 30000 ms (and 1 more failed test in it)',
        '  test/e2e/runTool.test.ts: "Run MCP Tool › names the file and the problem": Error: quick input not as expected after 20000 ms',
        '',
      ].join('\n'),
    );
  });

  it('forgives only the files that passed when run again', async () => {
    const first = await summaryOf([
      ...failed(renderers, ['renderers', 'theme'], new Error('first')),
      ...failed(runTool, ['run tool', 'bad entry'], new Error('second')),
    ]);
    const again = { status: 1, failures: await summaryOf(failed(runTool, ['run tool', 'bad entry'], new Error('again'))) };
    const forgiven = forgivenFiles(first, again);
    assert.deepEqual(forgiven, ['test/e2e/elicitationRenderers.test.ts']);
    assert.match(
      flakyLines(first, forgiven),
      /^▶ flaky \(forgiven this time, a finding to fix\): 1 file failed, then passed when run again\n {2}test\/e2e\/elicitationRenderers\.test\.ts: "renderers › theme": Error: first\n$/,
    );
  });

  it('forgives nothing when the second run failed without naming a file, and prints nothing when nothing was forgiven', async () => {
    const first = await summaryOf(failed(renderers, ['renderers', 'theme'], new Error('first')));
    assert.deepEqual(forgivenFiles(first, { status: 1, failures: '' }), []);
    assert.equal(flakyLines(first, []), '');
  });
});
