/**
 * The requested schema of server-everything's `trigger-elicitation-request`
 * tool, copied verbatim from
 * node_modules/@modelcontextprotocol/server-everything/dist/tools/trigger-elicitation-request.js
 * (13 fields: every kind and option style a real server sends). The JSON file is
 * shared with the fixture servers.
 */
import schema from '../fixtures/everything-schema.json';

export const everythingSchema = schema as Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };
