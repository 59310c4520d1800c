/**
 * A real ACP agent from npm (codex-acp, claude-agent-acp) run through Elicit's
 * own ACP client (AcpConnection) with the real broker and a scripted person,
 * behind the transparent tap (test/fixtures/acp-tap.mjs) so a test can read the
 * exact protocol lines both ways. Its model is a scripted endpoint (scriptedModel.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AcpConnection, type AcpEvent, type PermissionChoice, type PermissionPrompt } from '../../src/acp/connection';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { readRecords } from './records';
import { scriptedBroker } from './scriptedRenderer';

export const repoRoot = join(__dirname, '..', '..');
const tap = join(repoRoot, 'test', 'fixtures', 'acp-tap.mjs');
const questionFixtures = join(repoRoot, 'test', 'fixtures', 'agent-questions');

export type Answer = (question: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;
export type Permit = (prompt: PermissionPrompt, signal: AbortSignal) => PermissionChoice | Promise<PermissionChoice>;

export interface TapLine {
  dir: 'in' | 'out' | 'env';
  message?: { id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };
}

export interface RealAgent {
  connection: AcpConnection;
  /** The questions the scripted person saw, in order. */
  seen: Question[];
  prompts: PermissionPrompt[];
  events: AcpEvent[];
  /** What the next questions / permission requests are answered with, in order (one each). */
  answers: Answer[];
  permits: Permit[];
  /** Every protocol line, both ways ("in": to the agent). */
  lines(): TapLine[];
  /** The params of each request the agent sent with this method. */
  sent(method: string): Array<Record<string, unknown>>;
  /** The connection's log: the agent's stderr and Elicit's lines about it (for a failure's message). */
  logs: string[];
}

export interface RealAgentOptions {
  name: string;
  /** The program that runs the agent (a Node binary) and its arguments. */
  command: string;
  args: string[];
  env: Record<string, string>;
  workspace: string;
  /** The tap's record file (in the test's temp folder). */
  record: string;
  /** A gateway URL for the agent (elicit.agentGateways): Elicit then advertises the gateway sign-in. */
  gateway?: string;
}

export async function startRealAgent(options: RealAgentOptions): Promise<RealAgent> {
  const answers: Answer[] = [];
  const permits: Permit[] = [];
  const prompts: PermissionPrompt[] = [];
  const events: AcpEvent[] = [];
  const logs: string[] = [];
  const { broker, renderer } = scriptedBroker((question, signal) => {
    const next = answers.shift();
    assert.ok(next, `an unexpected question arrived: ${question.request.message}`);
    return next(question, signal);
  });
  const connection = new AcpConnection(
    {
      name: options.name,
      command: process.execPath,
      args: [tap, options.command, ...options.args],
      env: { ...options.env, TAP_RECORD: options.record },
      ...(options.gateway !== undefined ? { gateway: options.gateway } : {}),
    },
    {
      ask: (request) => broker.ask(request),
      permission: async (prompt, signal) => {
        prompts.push(prompt);
        const next = permits.shift();
        assert.ok(next, `an unexpected permission request arrived: ${prompt.toolTitle}`);
        return next(prompt, signal);
      },
      readTextFile: async (path) => readFileSync(path, 'utf8'),
      writeTextFile: async (path, content) => writeFileSync(path, content),
      roots: () => [options.workspace],
      log: (line) => void (logs.length < 5000 && logs.push(line)),
      defaultCwd: options.workspace,
    },
  );
  connection.onEvent((event) => events.push(event));
  await connection.start();
  const lines = (): TapLine[] => readRecords(options.record) as unknown as TapLine[];
  return {
    connection,
    seen: renderer.seen,
    prompts,
    events,
    answers,
    permits,
    lines,
    logs,
    sent: (method) =>
      lines().flatMap((l) => (l.dir === 'out' && l.message?.method === method && l.message.params ? [l.message.params] : [])),
  };
}

/**
 * Stops the agent and waits until every process of its group has gone: codex's
 * app-server still writes into CODEX_HOME while it shuts down, after the tap
 * (the group's leader) has exited, and would recreate a temp folder just removed.
 */
export async function stopRealAgent(agent: RealAgent | undefined): Promise<void> {
  const group = agent?.connection.pid;
  await agent?.connection.stop();
  if (group === undefined) return;
  const deadline = Date.now() + 10_000;
  while (groupAlive(group) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The agent's request params as they are kept in test/fixtures/agent-questions/:
 * session and tool call ids, and the test's temp folders, replaced by placeholders.
 */
export function normalized(params: unknown, temp: string): unknown {
  return JSON.parse(
    JSON.stringify(params, (key, value: unknown) => {
      if ((key === 'sessionId' || key === 'toolCallId') && typeof value === 'string') return `<${key}>`;
      return typeof value === 'string' ? value.split(temp).join('<temp>') : value;
    }),
  );
}

/**
 * Compares what an agent sent with its fixture file; with
 * ELICIT_RECORD_AGENT_QUESTIONS=1 (re)writes the file instead.
 */
export function matchesFixture(name: string, params: unknown, temp: string): void {
  const file = join(questionFixtures, `${name}.json`);
  const actual = normalized(params, temp);
  if (process.env.ELICIT_RECORD_AGENT_QUESTIONS === '1') {
    writeFileSync(file, JSON.stringify(actual, null, 2) + '\n');
    return;
  }
  assert.deepEqual(actual, JSON.parse(readFileSync(file, 'utf8')), `${name}: the agent now asks differently (see ${file})`);
}
