/**
 * An agent's stderr and its answers travel on two pipes (acp/agentProcess.ts): an error answer on
 * stdout can arrive before the line the agent wrote to stderr just before it (issue #60: the banner
 * read "[failing] ready" without the error). stderrSettled() waits for stderr to catch up.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentProcess } from '../../src/acp/agentProcess';

describe("an agent's last stderr lines", () => {
  it('include a line that reaches the pipe just after the answer, once stderr has caught up', async () => {
    // The agent answers on stdout, then its error line reaches stderr 30 ms later, as a busy pipe may deliver it.
    const script = [
      "process.stderr.write('[failing] ready\\n');",
      'setTimeout(() => { process.stdout.write(\'{"error":"Internal error"}\\n\');',
      "  setTimeout(() => process.stderr.write('[failing] Error handling request session/new\\n'), 30); }, 200);",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const agent = new AgentProcess('failing', process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '' } }, () => undefined);
    try {
      await agent.spawned();
      const reader = agent.streams().output.getReader();
      const { value } = await reader.read();
      assert.match(Buffer.from(value!).toString(), /Internal error/);
      assert.deepEqual(agent.stderrLines, ['[failing] ready'], 'at the answer, the error line is not in yet');
      assert.deepEqual(await agent.stderrSettled(), ['[failing] ready', '[failing] Error handling request session/new']);
      reader.releaseLock();
    } finally {
      await agent.terminate();
    }
  });

  it('does not wait long for an agent whose stderr is quiet, nor for ever for a chatty one', async () => {
    const chatty = "setInterval(() => process.stderr.write('tick\\n'), 10);";
    for (const [script, most] of [
      ['setInterval(() => {}, 1000);', 300],
      [chatty, 900],
    ] as const) {
      const agent = new AgentProcess('agent', process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '' } }, () => undefined);
      try {
        await agent.spawned();
        const started = performance.now();
        await agent.stderrSettled();
        const took = performance.now() - started;
        assert.ok(took < most, `took ${took.toFixed(0)} ms`);
      } finally {
        await agent.terminate();
      }
    }
  });
});
