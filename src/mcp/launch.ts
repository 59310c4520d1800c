/**
 * What a server is started with: its configured transport with `${input:…}`
 * values filled in, `${secret:…}` references in `env` and `headers` filled in
 * where the person allowed it (secretGrants.ts), and its `envFile` read (the
 * configured `env` wins over the file; a reference inside the file stays as
 * written). Done at start time, so an edited `.env` applies on the next restart.
 */
import { readFile } from 'node:fs/promises';
import { destinationOrigin, type Destination } from '../core/origin';
import {
  checkHttpUrl,
  resolveInputs,
  type HttpServerConfig,
  type ServerConfig,
  type StdioServerConfig,
} from '../core/mcpConfig/serverConfig';
import { expandTransport } from '../core/mcpConfig/envExpansion';
import { parseDotenv } from './dotenv';
import { envFilePath, serverDestination } from './serverOrigin';
import { errorText } from '../core/errors';

export { envFilePath } from './serverOrigin';

export type LaunchConfig = StdioServerConfig | HttpServerConfig;

export interface LaunchOptions {
  /** Values of the server's `inputs`, by id. */
  inputValues?: Readonly<Record<string, string>>;
  /** Notes for the server's log (never a value from the env file). */
  log?: (line: string) => void;
  readText?: (file: string) => Promise<string>;
  /** The value behind `${secret:NAME}` for this destination, if saved (and allowed there: it may throw). */
  secret?: SecretLookup;
  /** The environment `${VAR}` of a portable file reads (the extension host's by default). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A portable file's `${VAR}` and `${VAR:-default}`, filled in now, at start, like VS Code does; never kept in the config. */
function withEnvironment(config: ServerConfig, transport: LaunchConfig, env: Readonly<Record<string, string | undefined>>): LaunchConfig {
  if (!config.environmentReferences) return transport;
  const filled = expandTransport(transport, env);
  if (filled.type !== 'stdio') checkHttpUrl(filled.url);
  return filled;
}

/** Who would receive a secret, as the person is told before it goes there. */
export interface SecretDestination {
  /** The destination's key (core/origin.ts): what an answer is remembered for. */
  origin: string;
  /** The whole destination as written (references unfilled, envFile contents as read now): shown, and compared with a grant's. */
  destination: Destination;
  server: string;
  /** The config file (or setting) that puts the reference there. */
  source: string;
  /** Where the value goes: "the environment (API_KEY) of `npx weather-mcp`", "a header (Authorization) sent to https://…". */
  target: string;
}

export type SecretLookup = (name: string, destination: SecretDestination) => Promise<string | undefined>;

const SECRET_REFERENCE = /\$\{secret:([A-Za-z0-9][A-Za-z0-9._-]{0,63})\}/g;

export async function resolveLaunch(config: ServerConfig, options: LaunchOptions = {}): Promise<LaunchConfig> {
  const transport = withEnvironment(config, resolveInputs(config.transport, options.inputValues ?? {}), options.env ?? process.env);
  // Read once: the grant is for the contents this process gets.
  const envFileText = await readEnvFile(config, transport, options);
  const destination = serverDestination(config, envFileText);
  // Secrets first, in the configured env only: an envFile is not a place the person reviewed.
  const withSecrets = await resolveSecrets(transport, options.secret, (keys) => secretDestination(config, destination, keys));
  return envFileText === undefined ? withSecrets : withEnvFile(withSecrets, envFileText);
}

async function readEnvFile(config: ServerConfig, transport: LaunchConfig, options: LaunchOptions): Promise<string | undefined> {
  if (transport.type !== 'stdio' || transport.envFile === undefined) return undefined;
  const file = envFilePath(transport.envFile, config.origin?.folder ?? transport.cwd);
  let text: string;
  try {
    text = await (options.readText ?? ((f: string) => readFile(f, 'utf8')))(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `envFile not found: ${file}` : `envFile ${file} could not be read (${code ?? errorText(error)})`);
  }
  for (const problem of parseDotenv(text).problems) options.log?.(`envFile ${file}: ${problem} (skipped)`);
  return text;
}

/** The configured `env` wins over the file. */
function withEnvFile(transport: LaunchConfig, text: string): LaunchConfig {
  if (transport.type !== 'stdio') return transport;
  return { ...transport, env: { ...parseDotenv(text).env, ...transport.env } };
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

/** Who would receive the value of `${input:id}`: the places of the config that name it, told as written. */
export function inputDestination(config: ServerConfig, id: string, destination: Destination): SecretDestination {
  const reference = `\${input:${id}}`;
  const written = config.transport;
  const names = (map: Record<string, string>): string[] => Object.keys(map).filter((key) => map[key]!.includes(reference));
  const places =
    written.type === 'stdio'
      ? [
          ...names(written.env).map((key) => `env ${key}`),
          ...([written.command, ...written.args].some((part) => part.includes(reference)) ? ['the command line'] : []),
          ...(written.cwd?.includes(reference) ? ['cwd'] : []),
          ...(written.envFile?.includes(reference) ? ['envFile'] : []),
        ]
      : [...names(written.headers).map((key) => `header ${key}`), ...(written.url.includes(reference) ? ['the URL'] : [])];
  const where = written.type === 'stdio' ? `\`${[written.command, ...written.args].join(' ')}\`` : written.url;
  return {
    origin: destinationOrigin(destination),
    destination,
    server: config.name,
    source: config.source,
    target: `${where} (as ${places.join(', ')})`,
  };
}

/** Who would receive a value placed in `keys` of env (stdio) or headers (http), told as written: no input value shows. */
export function secretDestination(config: ServerConfig, destination: Destination, keys: readonly string[]): SecretDestination {
  const written = config.transport;
  const target =
    written.type === 'stdio'
      ? `the environment (${keys.join(', ')}) of \`${[written.command, ...written.args].join(' ')}\``
      : `a header (${keys.join(', ')}) sent to ${written.url}`;
  return { origin: destinationOrigin(destination), destination, server: config.name, source: config.source, target };
}
