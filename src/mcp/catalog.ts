/**
 * What a server offers besides tools — prompts, resources, resource templates,
 * argument completions — read through its connection (which starts it if
 * needed). A server that does not declare a capability simply has none, no
 * request is sent for it.
 */
import { METHOD_NOT_FOUND } from '../core/errors';
import type { McpConnection } from './connection';
import { allPages } from './pages';
import type { CompleteRequest, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from './types';

/** Suggestions for one argument: at most 100 values, as the spec caps them. */
export interface Completions {
  values: string[];
  hasMore: boolean;
}

export async function listPrompts(connection: McpConnection): Promise<Prompt[]> {
  const client = await connection.connect();
  if (!client.getServerCapabilities()?.prompts) return [];
  return allPages((cursor) => client.listPrompts(cursor ? { cursor } : undefined).then((p) => ({ items: p.prompts, next: p.nextCursor })));
}

export async function listResources(connection: McpConnection): Promise<Resource[]> {
  const client = await connection.connect();
  if (!client.getServerCapabilities()?.resources) return [];
  return allPages((cursor) =>
    client.listResources(cursor ? { cursor } : undefined).then((p) => ({ items: p.resources, next: p.nextCursor })),
  );
}

/**
 * Templates are optional under the `resources` capability: a server that has none
 * often leaves `resources/templates/list` unanswered (-32601), which means "none",
 * not a failure of the whole listing.
 */
export async function listResourceTemplates(connection: McpConnection): Promise<ResourceTemplate[]> {
  const client = await connection.connect();
  if (!client.getServerCapabilities()?.resources) return [];
  try {
    return await allPages((cursor) =>
      client.listResourceTemplates(cursor ? { cursor } : undefined).then((p) => ({ items: p.resourceTemplates, next: p.nextCursor })),
    );
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === METHOD_NOT_FOUND) return [];
    throw error;
  }
}

/** `prompts/get`, with any rounds of questions the server asks on the way (2026-07-28). */
export function getPrompt(
  connection: McpConnection,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<GetPromptResult> {
  return connection.getPrompt(name, args, signal);
}

/** `resources/read`, with any rounds of questions the server asks on the way (2026-07-28). */
export function readResource(connection: McpConnection, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
  return connection.readResource(uri, signal);
}

export async function offersCompletions(connection: McpConnection): Promise<boolean> {
  const client = await connection.connect();
  return client.getServerCapabilities()?.completions !== undefined;
}

/**
 * `completion/complete` for one argument of a prompt or resource template, with
 * the arguments already given as context. Empty when the server offers none.
 */
export async function complete(
  connection: McpConnection,
  ref: CompleteRequest['params']['ref'],
  argument: { name: string; value: string },
  context: Record<string, string>,
  signal?: AbortSignal,
): Promise<Completions> {
  const client = await connection.connect();
  if (client.getServerCapabilities()?.completions === undefined) return { values: [], hasMore: false };
  const result = await client.complete(
    { ref, argument, ...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}) },
    { signal },
  );
  const values = result.completion.values.filter((v): v is string => typeof v === 'string').slice(0, 100);
  return { values, hasMore: result.completion.hasMore === true || (result.completion.total ?? 0) > values.length };
}
