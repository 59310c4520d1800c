/**
 * The soak's askers (issue #37), named by kind and number:
 *
 *   s01…  2025-11-25 over stdio, asking on their own (Elicit starts them)
 *   h01…  2025-11-25 over Streamable HTTP, asking on their own on a session's GET stream
 *   m01…  2026-07-28 over stdio, asking in rounds when the soak's agent calls their tool
 *   w01…  2026-07-28 over Streamable HTTP, the same
 *   t01…  2026-07-28 over stdio with MCP's tasks extension: the agent's call runs as a task that
 *         asks its question at input_required
 *   v01…  the same over Streamable HTTP
 *   r01   2025-11-25 over stdio, asking the same question each time: answered in the editor once
 *         with Remember: always, then by Elicit from memory (one, in a run of six askers or more)
 *
 * The HTTP ones run as the harness's own processes behind a proxy that drops connections
 * (httpAsker.ts); the stdio ones are started by Elicit from mcp.json.
 */
import { HttpAsker } from './httpAsker';

export interface AskerCounts {
  stdio: number;
  recurring: number;
  http: number;
  roundsStdio: number;
  roundsHttp: number;
  tasksStdio: number;
  tasksHttp: number;
}

export interface Askers {
  /** Every asker's name. */
  names: string[];
  /** The 2026-07-28 ones' tools as the gateway names them ("<server>__<tool>"), which the agent calls. */
  agentTools: string[];
  http: HttpAsker[];
  /** mcp.json's `servers`. */
  config: Record<string, unknown>;
}

const named = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);

/** Splits `servers` among the kinds: `http`, `rounds` and `tasks` of them, rounds and tasks half over HTTP. */
export function splitAskers(servers: number, http: number, rounds: number, tasks: number): AskerCounts {
  const roundsHttp = Math.floor(rounds / 2);
  const tasksHttp = Math.floor(tasks / 2);
  const stdio = Math.max(0, servers - http - rounds - tasks);
  const recurring = servers >= 6 && stdio >= 2 ? 1 : 0;
  return {
    stdio: stdio - recurring,
    recurring,
    http,
    roundsStdio: rounds - roundsHttp,
    roundsHttp,
    tasksStdio: tasks - tasksHttp,
    tasksHttp,
  };
}

export async function startAskers(counts: AskerCounts, script: string, env: Record<string, string>): Promise<Askers> {
  const stdio = named('s', counts.stdio);
  const recurring = named('r', counts.recurring);
  const roundsStdio = named('m', counts.roundsStdio);
  const tasksStdio = named('t', counts.tasksStdio);
  const http = await Promise.all([
    ...named('h', counts.http).map((name) => HttpAsker.start(name, script, env)),
    ...named('w', counts.roundsHttp).map((name) => HttpAsker.start(name, script, env, ['--modern'])),
    ...named('v', counts.tasksHttp).map((name) => HttpAsker.start(name, script, env, ['--tasks'])),
  ]);
  const stdioEntry = (name: string, args: string[] = []): [string, unknown] => [
    name,
    { type: 'stdio', command: process.execPath, args: [script, '--name', name, ...args], env },
  ];
  const config = Object.fromEntries([
    ...stdio.map((name) => stdioEntry(name)),
    ...recurring.map((name) => stdioEntry(name, ['--recurring'])),
    ...roundsStdio.map((name) => stdioEntry(name, ['--modern'])),
    ...tasksStdio.map((name) => stdioEntry(name, ['--tasks'])),
    ...http.map((asker) => [asker.name, { type: 'http', url: asker.url }]),
  ]);
  const names = [...stdio, ...recurring, ...roundsStdio, ...tasksStdio, ...http.map((asker) => asker.name)];
  const agentTools = names.flatMap((name) =>
    /^[mw]/.test(name) ? [`${name}__soak_round`] : /^[tv]/.test(name) ? [`${name}__soak_task`] : [],
  );
  return { names, agentTools, http, config };
}
