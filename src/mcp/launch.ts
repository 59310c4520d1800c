/**
 * What a server is started with: its configured transport with `${input:…}`
 * values filled in, `${secret:…}` references in `env` and `headers` filled in
 * where the person allowed it (secretGrants.ts), and its `envFile` read (the
 * configured `env` wins over the file; a reference inside the file stays as
 * written). Done at start time, so an edited `.env` applies on the next restart.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInputs, type HttpServerConfig, type ServerConfig, type StdioServerConfig } from '../core/serverConfig';
import { parseDotenv } from './dotenv';
import { serverOrigin } from './serverOrigin';

export type LaunchConfig = StdioServerConfig | HttpServerConfig;

export interface LaunchOptions {
  /** Values of the server's `inputs`, by id. */
  inputValues?: Readonly<Record<string, string>>;
  /** Notes for the server's log (never a value from the env file). */
  log?: (line: string) => void;
  readText?: (file: string) => Promise<string>;
  /** The value behind `${secret:NAME}` for this destination, if saved (and allowed there: it may throw). */
  secret?: SecretLookup;
}

/** Who would receive a secret, as the person is told before it goes there. */
export interface SecretDestination {
  /** The server's origin (serverOrigin.ts): what an answer is remembered for. */
  origin: string;
  server: string;
  /** The config file (or setting) that puts the reference there. */
  source: string;
  /** Where the value goes: "the environment (API_KEY) of `npx weather-mcp`", "a header (Authorization) sent to https://…". */
  target: string;
}

export type SecretLookup = (name: string, destination: SecretDestination) => Promise<string | undefined>;

const SECRET_REFERENCE = /\$\{secret:([A-Za-z0-9][A-Za-z0-9._-]{0,63})\}/g;

export async function resolveLaunch(config: ServerConfig, options: LaunchOptions = {}): Promise<LaunchConfig> {
  const transport = resolveInputs(config.transport, options.inputValues ?? {});
  // Secrets first, in the configured env only: an envFile is not a place the person reviewed.
  const withSecrets = await resolveSecrets(transport, options.secret, (keys) => secretDestination(config, transport, keys));
  return readEnvFile(config, withSecrets, options);
}

async function readEnvFile(config: ServerConfig, transport: LaunchConfig, options: LaunchOptions): Promise<LaunchConfig> {
  if (transport.type !== 'stdio' || transport.envFile === undefined) return transport;
  const file = envFilePath(transport.envFile, config.origin?.folder ?? transport.cwd);
  let text: string;
  try {
    text = await (options.readText ?? ((f: string) => readFile(f, 'utf8')))(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT' ? `envFile not found: ${file}` : `envFile ${file} could not be read (${code ?? (error as Error).message})`,
    );
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
  secret: SecretLookup | undefined,
  destination: (keys: string[]) => SecretDestination,
): Promise<LaunchConfig> {
  const values = transport.type === 'stdio' ? transport.env : transport.headers;
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    let text = value;
    for (const name of new Set([...value.matchAll(SECRET_REFERENCE)].map((m) => m[1]!))) {
      const keys = Object.keys(values).filter((k) => values[k]!.includes(`\${secret:${name}}`));
      const saved = secret ? await secret(name, destination(keys)) : undefined;
      if (saved === undefined) {
        throw new Error(
          `uses \${secret:${name}}, but no secret of that name is saved (an agent asks for it with the elicit tool, kind "secret")`,
        );
      }
      text = text.split(`\${secret:${name}}`).join(saved);
    }
    resolved[key] = text;
  }
  return transport.type === 'stdio' ? { ...transport, env: resolved } : { ...transport, headers: resolved };
}

function secretDestination(config: ServerConfig, transport: LaunchConfig, keys: string[]): SecretDestination {
  const target =
    transport.type === 'stdio'
      ? `the environment (${keys.join(', ')}) of \`${[transport.command, ...transport.args].join(' ')}\``
      : `a header (${keys.join(', ')}) sent to ${urlOriginText(transport.url)}`;
  return { origin: serverOrigin(config), server: config.name, source: config.source, target };
}

function urlOriginText(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A relative `envFile` is relative to the workspace folder (or, without one, to `cwd`). */
export function envFilePath(envFile: string, base: string | undefined): string {
  if (path.isAbsolute(envFile)) return envFile;
  if (base === undefined) throw new Error(`envFile "${envFile}" is relative, but there is no workspace folder to resolve it against`);
  return path.resolve(base, envFile);
}
