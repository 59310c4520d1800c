/**
 * What a server is started with: its configured transport with `${input:…}`
 * values filled in and its `envFile` read (the configured `env` wins over the
 * file). Done at start time, so an edited `.env` applies on the next restart.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInputs, type HttpServerConfig, type ServerConfig, type StdioServerConfig } from './config';
import { parseDotenv } from './dotenv';

export type LaunchConfig = StdioServerConfig | HttpServerConfig;

export interface LaunchOptions {
  /** Values of the server's `inputs`, by id. */
  inputValues?: Readonly<Record<string, string>>;
  /** Notes for the server's log (never a value from the env file). */
  log?: (line: string) => void;
  readText?: (file: string) => Promise<string>;
}

export async function resolveLaunch(config: ServerConfig, options: LaunchOptions = {}): Promise<LaunchConfig> {
  const transport = resolveInputs(config.transport, options.inputValues ?? {});
  if (transport.type !== 'stdio' || transport.envFile === undefined) return transport;
  const file = envFilePath(transport.envFile, config.origin?.folder ?? transport.cwd);
  let text: string;
  try {
    text = await (options.readText ?? ((f: string) => readFile(f, 'utf8')))(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `envFile not found: ${file}` : `envFile ${file} could not be read (${code ?? (error as Error).message})`);
  }
  const parsed = parseDotenv(text);
  for (const problem of parsed.problems) options.log?.(`envFile ${file}: ${problem} (skipped)`);
  return { ...transport, env: { ...parsed.env, ...transport.env } };
}

/** A relative `envFile` is relative to the workspace folder (or, without one, to `cwd`). */
export function envFilePath(envFile: string, base: string | undefined): string {
  if (path.isAbsolute(envFile)) return envFile;
  if (base === undefined) throw new Error(`envFile "${envFile}" is relative, but there is no workspace folder to resolve it against`);
  return path.resolve(base, envFile);
}
