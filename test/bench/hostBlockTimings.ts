/**
 * hostBlockWorstMs: the longest any asker's input blocked this process's event loop
 * (issue #33's invariant, goal 50 ms). Two searches, each after a warm-up (a host that
 * answers questions has long run this code): the stall server's costly forms, rounds,
 * floods and results through McpConnection and the broker, on both protocol revisions;
 * and the hostile generator's batches (test/support/hostileRequests.ts) through the burst
 * grouper, as rounds and straight to the broker. Reports the worst with what caused it.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { McpConnection } from '../../src/mcp/connection';
import { longestBlockDuring } from '../support/hostBlock';
import { describeBatch, hostileBatch, sendBatch } from '../support/hostileRequests';
import { scriptedBroker } from '../support/scriptedRenderer';

const stallServer = join(__dirname, '..', 'fixtures', 'stall-server.mjs');
const STALL_TOOLS = [
  'stall_form',
  'stall_examples',
  'stall_round',
  'stall_flood',
  // Issue #57: patterns new to the host, costly to compile (every call's are new).
  'stall_compile',
  'stall_compile_classes',
  'stall_compile_round',
  'stall_compile_flood',
  'stall_items_pattern',
  'stall_unique_items',
  'stall_big_schema',
];
const GENERATED_RUNS = 100;

export interface HostBlock {
  worstMs: number;
  cause: string;
  /** The worst of each search, for the note. */
  serverWorstMs: number;
  generatedWorstMs: number;
}

export async function worstHostBlock(generatedRuns = GENERATED_RUNS): Promise<HostBlock> {
  let worst = { ms: 0, cause: '' };
  let serverWorst = 0;
  for (const legacy of [false, true]) {
    const { broker } = scriptedBroker(() => ({ action: 'decline' }));
    const connection = new McpConnection(
      {
        name: 'stall-server',
        source: 'bench',
        transport: { type: 'stdio', command: process.execPath, args: [stallServer], env: legacy ? { STALL_LEGACY: 'only' } : {} },
      },
      { ask: (r) => broker.ask(r), log: () => undefined },
    );
    try {
      await connection.callTool('ping', {});
      for (const tool of STALL_TOOLS) await connection.callTool(tool, {}).catch(() => undefined); // warm-up
      for (const tool of STALL_TOOLS) {
        const { blockedMs } = await longestBlockDuring(() => connection.callTool(tool, {}).catch(() => undefined));
        serverWorst = Math.max(serverWorst, blockedMs);
        if (blockedMs > worst.ms) worst = { ms: blockedMs, cause: `${tool} from a ${legacy ? '2025-11-25' : '2026-07-28'} server` };
      }
    } finally {
      await connection.stop();
    }
  }
  let generatedWorst = 0;
  const batches = fc.sample(hostileBatch, { numRuns: generatedRuns, seed: 33 });
  for (const batch of batches.slice(0, 5)) await sendBatch(batch); // warm-up
  for (const batch of batches) {
    const { blockedMs } = await longestBlockDuring(() => sendBatch(batch));
    generatedWorst = Math.max(generatedWorst, blockedMs);
    if (blockedMs > worst.ms) worst = { ms: blockedMs, cause: describeBatch(batch) };
  }
  return { worstMs: worst.ms, cause: worst.cause, serverWorstMs: serverWorst, generatedWorstMs: generatedWorst };
}
