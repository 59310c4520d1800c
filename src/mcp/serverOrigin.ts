/**
 * A configured server's destination and origin (see core/origin.ts): its
 * config file plus everything that decides what runs or what is reached —
 * command, args, env, cwd, the envFile's path and contents; or the whole URL
 * and headers — as written in the file (before `${input:…}` and `${secret:…}`
 * values are filled in), so no such value is part of it and it stays the same
 * from start to start until the configuration changes.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { destinationOrigin, envFileDigest, type Destination } from '../core/origin';
import type { ServerConfig } from '../core/mcpConfig/serverConfig';

export function serverOrigin(config: ServerConfig): string {
  return destinationOrigin(serverDestination(config));
}

/**
 * The server's destination. `envFileText`: the envFile's text as the launch
 * read it (so the grant is for what the process gets); read here when not given.
 */
export function serverDestination(config: ServerConfig, envFileText?: string): Destination {
  const file = config.origin?.file ?? config.source;
  const transport = config.transport;
  if (transport.type !== 'stdio') return { file, url: transport.url, headers: transport.headers };
  const destination: Destination = { file, command: transport.command, args: transport.args, env: transport.env };
  if (transport.cwd !== undefined) destination.cwd = transport.cwd;
  if (transport.envFile !== undefined) {
    const resolved = envFileLocation(config);
    const where = resolved ?? transport.envFile;
    const text = envFileText ?? (resolved === undefined ? undefined : readTextOrUndefined(resolved));
    destination.envFile = { path: where, contents: text === undefined ? undefined : envFileDigest(text) };
  }
  return destination;
}

/** The envFile's path, or undefined when it names an input (known only at start) or is relative to nothing. */
function envFileLocation(config: ServerConfig): string | undefined {
  const transport = config.transport;
  if (transport.type !== 'stdio' || transport.envFile === undefined || transport.envFile.includes('${input:')) return undefined;
  try {
    return envFilePath(transport.envFile, config.origin?.folder ?? transport.cwd);
  } catch {
    return undefined;
  }
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A relative `envFile` is relative to the workspace folder (or, without one, to `cwd`). */
export function envFilePath(envFile: string, base: string | undefined): string {
  if (path.isAbsolute(envFile)) return envFile;
  if (base === undefined) throw new Error(`envFile "${envFile}" is relative, but there is no workspace folder to resolve it against`);
  return path.resolve(base, envFile);
}
