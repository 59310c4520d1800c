/**
 * The MCP protocol types Elicit uses, from the official v2 client package, in
 * one place: the rest of the code imports them from here.
 */
export type {
  CallToolResult,
  ClientCapabilities,
  CompleteRequest,
  GetPromptResult,
  JSONRPCMessage,
  JSONRPCRequest,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Result,
  Task,
  Tool,
} from '@modelcontextprotocol/client';
