/**
 * Real MCP servers for integration tests: fixture servers over stdio, and
 * server-everything over Streamable HTTP or legacy SSE on a free loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { McpConnection } from '../../src/mcp/connection';
import { scriptedBroker, type Script, type ScriptedRenderer } from './scriptedRenderer';
import type { Broker } from '../../src/core/broker/broker';
import { freePort } from './freePort';

export { freePort };

export const repoRoot = join(__dirname, '..', '..');
export const fixture = (file: string): string => join(repoRoot, 'test', 'fixtures', file);
export const everythingEntry = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

export function stdioServer(name: string, file: string, env: Record<string, string> = {}, args: string[] = []): ServerConfig {
  return { name, source: 'test', transport: { type: 'stdio', command: process.execPath, args: [file, ...args], env } };
}

export function httpServer(name: string, url: string, type: 'http' | 'sse' = 'http'): ServerConfig {
  return { name, source: 'test', transport: { type, url, headers: {} } };
}

export interface Connected {
  connection: McpConnection;
  broker: Broker;
  renderer: ScriptedRenderer;
  logs: string[];
}

/** A connection whose questions go to the real broker with a scripted answerer. */
export function connectScripted(config: ServerConfig, script: Script, opened: McpConnection[]): Connected {
  const { broker, renderer } = scriptedBroker(script);
  const logs: string[] = [];
  const connection = new McpConnection(config, { ask: (r) => broker.ask(r), log: (l) => logs.push(l) });
  opened.push(connection);
  return { connection, broker, renderer, logs };
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
}

export interface HttpEverything {
  /** The endpoint: …/mcp for Streamable HTTP, …/sse for SSE. */
  url: string;
  stop(): Promise<void>;
}

/** server-everything over `streamableHttp` or `sse`, listening on a free port. */
export async function startEverythingHttp(transport: 'streamableHttp' | 'sse'): Promise<HttpEverything> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server-everything ${transport} did not start: ${output}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${transport} exited (${code}): ${output}`));
    });
  });
  child.stderr!.resume();
  return { url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A fixture of ours serving Streamable HTTP (`<file> --http`, test/fixtures/serveHttp.mjs). */
export interface HttpFixture {
  url: string;
  process: ChildProcess;
}

/** Starts `test/fixtures/<file> --http` on a free loopback port; resolves once it listens. */
export async function startHttpFixture(file: string, env: Record<string, string> = {}): Promise<HttpFixture> {
  const port = await freePort();
  const child = spawn(process.execPath, [fixture(file), '--http'], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('listening on port') && resolve());
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, process: child };
}
