/**
 * The headless client the official MCP conformance suites run against. It is
 * Elicit's own code — McpConnection, the real broker, the OAuth provider with
 * its loopback redirect — with a scripted person: form questions are accepted
 * as they come (so defaults are filled in by the broker), and consent to sign
 * in is given by a simulated browser that follows the authorization server's
 * redirect back to the loopback receiver.
 *
 *   node --import tsx test/conformance/client.ts <server-url>
 *
 * The conformance tool sets MCP_CONFORMANCE_SCENARIO and, for some scenarios,
 * MCP_CONFORMANCE_CONTEXT (JSON, e.g. pre-registered client credentials).
 * It connects, lists the tools and calls each once with example arguments.
 */
import type { Tool } from '../../src/mcp/types';
import { McpConnection } from '../../src/mcp/connection';
import { MemorySecretStore, ServerCredentials } from '../../src/mcp/oauthStore';
import { scriptedBroker } from '../support/scriptedRenderer';
import { visitAuthorizationUrl } from '../support/simulatedBrowser';

/** A client ID metadata document URL (SEP-991), used when the authorization server supports those. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(no scenario)';
const log = (line: string): void => void process.stderr.write(`[elicit-conformance] ${line}\n`);

async function main(): Promise<void> {
  if (!serverUrl) throw new Error('usage: client.ts <server-url>');
  const store = new MemorySecretStore();
  await seedPreRegisteredClient(store);
  const { broker } = scriptedBroker(async (question) => {
    if (question.presentation !== 'url') return { action: 'accept', content: {} };
    const visit = await visitAuthorizationUrl(question.url!.url);
    log(`browser: ${visit.visited.length} page(s), landed with ${visit.status}`);
    return { action: 'accept' };
  });
  const connection = new McpConnection(
    { name: 'conformance', source: scenario, transport: { type: 'http', url: serverUrl, headers: {} } },
    {
      ask: (request) => broker.ask(request),
      log,
      clientInfo: { name: 'elicit-conformance', version: '0.0.0' },
      oauth: { store, clientName: 'Elicit (conformance)', clientMetadataUrl: CLIENT_METADATA_URL },
    },
  );
  try {
    const tools = await connection.listTools();
    log(`${scenario}: ${tools.length} tool(s)`);
    for (const tool of tools) {
      // A failed call is reported and the next tool still runs: the scenario's checks judge.
      try {
        const result = await connection.callTool(tool.name, exampleArguments(tool));
        log(`${tool.name}: ${result.isError ? 'error' : 'ok'}`);
      } catch (error) {
        log(`${tool.name}: failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await connection.stop();
  }
}

/** Pre-registered credentials from the scenario's context (the server offers no registration). */
async function seedPreRegisteredClient(store: MemorySecretStore): Promise<void> {
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as Record<string, unknown>) : {};
  if (typeof context.client_id !== 'string') return;
  const clientId = context.client_id;
  const clientSecret = typeof context.client_secret === 'string' ? context.client_secret : undefined;
  await new ServerCredentials(store, { name: 'conformance', url: serverUrl! }).update((c) => {
    c.client = { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
  });
}

/** Values for the required arguments: the default, else a plain example of the type. */
function exampleArguments(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  const args: Record<string, unknown> = {};
  for (const name of tool.inputSchema.required ?? []) {
    const schema = properties[name] ?? {};
    args[name] =
      schema.default ??
      schema.enum?.[0] ??
      ({ number: 2, integer: 2, boolean: true, array: [], object: {} } as Record<string, unknown>)[schema.type ?? ''] ??
      'example';
  }
  return args;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`${scenario}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
