/**
 * A configured server's origin (see core/origin.ts): its config file plus its
 * command and arguments, or its URL's origin, as written in the file (before
 * `${input:…}` values are filled in), so it stays the same from start to start.
 */
import { commandOrigin, urlOrigin } from '../core/origin';
import type { ServerConfig } from '../core/serverConfig';

export function serverOrigin(config: ServerConfig): string {
  const file = config.origin?.file ?? config.source;
  const transport = config.transport;
  return transport.type === 'stdio' ? commandOrigin(file, transport.command, transport.args) : urlOrigin(file, transport.url);
}
