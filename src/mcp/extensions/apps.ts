/**
 * App questions (draft SEP-3118 on MCP Apps; `elicit.experimental.appQuestions`) as an extension of
 * the client: declared as `extensions["io.modelcontextprotocol/ui"]` when on, and the app a form
 * question names, read from this server only (core/apps/appQuestion.ts draws the rest).
 */
import type { Client } from '@modelcontextprotocol/client';
import { ANY_RESULT } from '../anyResult';
import { UI_EXTENSION, UI_EXTENSION_SETTINGS, appUriIn, readAppResource, serverUrlIsLocal, type AppRef } from '../../core/apps/appQuestion';
import type { LaunchConfig } from '../launch';
import type { Capabilities, ClientExtension } from './clientExtension';

/** How long reading a question's app from its server may take before the question is drawn natively. */
const APP_READ_TIMEOUT_MS = 15_000;

export interface AppParts {
  /** The connection's client while it is connected. */
  client(): Pick<Client, 'request'> | undefined;
}

export class AppQuestions implements ClientExtension {
  readonly capabilities: Capabilities;
  /** The server runs on this machine or the person's network (stdio, or a local URL): only its apps may reach there. */
  private serverIsLocal = false;

  /** `declared`: app questions are on for this start (read once: a question names an app only if the connection declared apps). */
  constructor(
    private readonly declared: boolean,
    private readonly parts: AppParts,
  ) {
    this.capabilities = declared ? { extensions: { [UI_EXTENSION]: UI_EXTENSION_SETTINGS } } : {};
  }

  onTransport(_transport: unknown, launch: LaunchConfig): void {
    this.serverIsLocal = launch.type === 'stdio' || serverUrlIsLocal(launch.url);
  }

  /**
   * The app a question's `_meta.ui.resourceUri` names, read from this server only (SEP-3118's
   * binding), when app questions are on and were declared as this connection opened. Its page
   * may reach the person's own machine or network only when this server runs there.
   */
  appFor(params: Record<string, unknown>): AppRef | undefined {
    const client = this.parts.client();
    if (!client || !this.declared) return undefined;
    const resourceUri = appUriIn(params._meta);
    if (resourceUri === undefined) return undefined;
    const server = { isLocal: this.serverIsLocal };
    return {
      resourceUri,
      read: async (signal) => {
        const result = await client.request({ method: 'resources/read', params: { uri: resourceUri } }, ANY_RESULT, {
          signal,
          timeout: APP_READ_TIMEOUT_MS,
        });
        return readAppResource(result, resourceUri, server);
      },
    };
  }
}
