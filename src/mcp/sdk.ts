/**
 * Every runtime value Elicit takes from the official MCP client package. It is
 * built into a bundle of its own (dist/mcp-sdk.js) and loaded with loadSdk()
 * when the first server starts, so activating the extension does not load the
 * SDK. Types come from './types' and cost nothing at run time.
 */
export {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  ReadBuffer,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  UriTemplate,
  extractWWWAuthenticateParams,
  serializeMessage,
} from '@modelcontextprotocol/client';
// Elicit's own, here so it loads with the SDK: result schemas checked with bounded patterns.
export { WorkerCheckedSchemas } from './resultCheck/workerCheckedSchemas';
