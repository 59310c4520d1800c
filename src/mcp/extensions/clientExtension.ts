/**
 * A protocol extension of Elicit's MCP client, in one place: what it declares as a connection
 * opens and what it does on that connection (requests it answers, transports it marks). The
 * connection (connection.ts) gathers them and routes to them without knowing any of them, as the
 * SDK's client extensions do, so a new extension is a new file rather than lines in `open()`.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { LaunchConfig } from '../launch';
import type { ClientCapabilities, JSONRPCRequest, Result } from '../types';

/** A request of the server that an extension answers. */
export type ExtensionRequestHandler = (request: JSONRPCRequest, signal: AbortSignal) => Promise<Result>;

/** The client's capabilities, with room for drafts the SDK's types do not know yet (SEP-2356's `fileInputs`). */
export type Capabilities = ClientCapabilities & Record<string, unknown>;

export interface ClientExtension {
  /** Added to the client's capabilities as the connection opens; its `extensions` entries join the others'. */
  readonly capabilities: Capabilities;
  /** The server's requests it answers, by method (the SDK hands them over through its fallback handler). */
  readonly requests?: Readonly<Record<string, ExtensionRequestHandler>>;
  /** The HTTP headers a transport to the server is made with, from those configured. */
  httpHeaders?(headers: Record<string, string> | undefined): Record<string, string> | undefined;
  /** Each transport made for the server, before it connects. */
  onTransport?(transport: Transport, launch: LaunchConfig): void;
  /** The client has connected (and so has its transport). */
  onConnected?(client: Client): void;
  /** The client's connection closed. */
  onClose?(): void;
}

/** The client's capabilities: `base`, then each extension's, their `extensions` entries side by side. */
export function declaredCapabilities(base: Capabilities, extensions: readonly ClientExtension[]): Capabilities {
  let declared = base;
  for (const { capabilities } of extensions) {
    const { extensions: named, ...rest } = capabilities;
    declared = { ...declared, ...rest, ...(named ? { extensions: { ...declared.extensions, ...named } } : {}) };
  }
  return declared;
}

/** The extension's handler for a request of the server, if one answers `method`. */
export function extensionRequestHandler(extensions: readonly ClientExtension[], method: string): ExtensionRequestHandler | undefined {
  for (const extension of extensions) {
    const handler = extension.requests && Object.hasOwn(extension.requests, method) ? extension.requests[method] : undefined;
    if (handler) return handler;
  }
  return undefined;
}

/** The configured HTTP headers as the extensions make them. */
export function extensionHeaders(
  extensions: readonly ClientExtension[],
  configured: Record<string, string> | undefined,
): Record<string, string> | undefined {
  return extensions.reduce((headers, extension) => (extension.httpHeaders ? extension.httpHeaders(headers) : headers), configured);
}
