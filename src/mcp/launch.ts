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
  /** The value behind `${secret:NAME}` (a secret an agent asked the person for), if saved. */
  secret?: (name: string) => Promise<string | undefined>;
}

const SECRET_REFERENCE = /\$\{secret:([A-Za-z0-9][A-Za-z0-9._-]{0,63})\}/g;

export async function resolveLaunch(config: ServerConfig, options: LaunchOptions = {}): Promise<LaunchConfig> {
  return resolveSecrets(await resolveFiles(config, options), options.secret);
}

async function resolveFiles(config: ServerConfig, options: LaunchOptions): Promise<LaunchConfig> {
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

/**
 * `${secret:NAME}` in `env` (stdio) or `headers` (http) becomes the saved value,
 * read from SecretStorage only now, at start, so it never sits in a config
 * object, a log line or a state file.
 */
export async function resolveSecrets(
  transport: LaunchConfig,
  secret: ((name: string) => Promise<string | undefined>) | undefined,
): Promise<LaunchConfig> {
  const values = transport.type === 'stdio' ? transport.env : transport.headers;
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    let text = value;
    for (const name of new Set([...value.matchAll(SECRET_REFERENCE)].map((m) => m[1]!))) {
      const saved = secret ? await secret(name) : undefined;
      if (saved === undefined) {
        throw new Error(`uses \${secret:${name}}, but no secret of that name is saved (an agent asks for it with the elicit tool, kind "secret")`);
      }
      text = text.split(`\${secret:${name}}`).join(saved);
    }
    resolved[key] = text;
  }
  return transport.type === 'stdio' ? { ...transport, env: resolved } : { ...transport, headers: resolved };
}

/** A relative `envFile` is relative to the workspace folder (or, without one, to `cwd`). */
export function envFilePath(envFile: string, base: string | undefined): string {
  if (path.isAbsolute(envFile)) return envFile;
  if (base === undefined) throw new Error(`envFile "${envFile}" is relative, but there is no workspace folder to resolve it against`);
  return path.resolve(base, envFile);
}
