#!/usr/bin/env node
// The demo MCP server (official SDK, stdio): a songwriting helper whose tools ask
// the person questions through elicitation, one of each kind Elicit renders.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'song-sketch', version: '1.0.0' }, { capabilities: { tools: {} } });

const noArguments = { type: 'object', properties: {} };
const tools = [
  {
    name: 'name_song',
    title: 'Name a song',
    description: 'Asks for a working title (one text field) and starts a sketch.',
    inputSchema: noArguments,
  },
  {
    name: 'pick_key',
    title: 'Pick a key',
    description: 'Asks which key the song is in (a single choice).',
    inputSchema: noArguments,
  },
  {
    name: 'set_tempo',
    title: 'Set the tempo',
    description: 'Asks for the BPM, a whole number from 60 to 180.',
    inputSchema: noArguments,
  },
  {
    name: 'new_project',
    title: 'New project',
    description: 'Asks for everything a new song project needs, in one form.',
    inputSchema: noArguments,
  },
  {
    name: 'write_lyrics',
    title: 'Write lyrics',
    description: 'Takes a theme as an argument, then asks how many verses.',
    inputSchema: {
      type: 'object',
      properties: { theme: { type: 'string', title: 'Theme', description: 'What the song is about' } },
      required: ['theme'],
    },
  },
];

const questions = {
  name_song: {
    message: 'What is the working title of the song?',
    requestedSchema: {
      type: 'object',
      properties: { title: { type: 'string', title: 'Title', minLength: 1, maxLength: 80 } },
      required: ['title'],
    },
  },
  pick_key: {
    message: 'Pick a key',
    requestedSchema: {
      type: 'object',
      properties: {
        key: {
          type: 'string',
          title: 'Key',
          oneOf: [
            { const: 'C', title: 'C major' },
            { const: 'Am', title: 'A minor' },
            { const: 'F', title: 'F major' },
            { const: 'G', title: 'G major' },
          ],
          default: 'C',
        },
      },
      required: ['key'],
    },
  },
  set_tempo: {
    message: 'Enter the BPM (60–180)',
    requestedSchema: {
      type: 'object',
      properties: { bpm: { type: 'integer', title: 'Tempo (BPM)', minimum: 60, maximum: 180, default: 120 } },
      required: ['bpm'],
    },
  },
  new_project: {
    message: 'Fill in the new project form',
    requestedSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title', description: 'Working title of the song', minLength: 1 },
        artist: { type: 'string', title: 'Artist', default: 'The Elicits' },
        email: { type: 'string', title: 'Contact email', format: 'email' },
        bpm: { type: 'integer', title: 'Tempo (BPM)', minimum: 60, maximum: 180, default: 96 },
        key: { type: 'string', title: 'Key', enum: ['C', 'Am', 'F', 'G'], default: 'Am' },
        instruments: {
          type: 'array',
          title: 'Instruments',
          items: { type: 'string', enum: ['Guitar', 'Piano', 'Drums', 'Bass', 'Strings'] },
          minItems: 1,
          maxItems: 3,
          default: ['Piano'],
        },
        explicit: { type: 'boolean', title: 'Explicit lyrics', default: false },
        code: { type: 'string', title: 'Catalog code', description: 'Three capital letters and three digits', pattern: '^[A-Z]{3}-\\d{3}$' },
      },
      required: ['title', 'email'],
    },
  },
};

const describe = (content) =>
  Object.entries(content ?? {})
    .map(([k, v]) => `- ${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
    .join('\n');

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  const question =
    name === 'write_lyrics'
      ? {
          message: `How many verses about "${args.theme}"?`,
          requestedSchema: {
            type: 'object',
            properties: { verses: { type: 'integer', title: 'Verses', minimum: 1, maximum: 6, default: 2 } },
            required: ['verses'],
          },
        }
      : questions[name];
  if (!question) return { content: [{ type: 'text', text: `Unknown tool ${name}` }], isError: true };
  const result = await server.elicitInput(question, { timeout: 3_600_000 });
  if (result.action !== 'accept') {
    return { content: [{ type: 'text', text: `No problem — you chose ${result.action}. Nothing was changed.` }] };
  }
  const text = name === 'name_song' ? `🎵 New sketch: "${result.content.title}"` : `Got it:\n${describe(result.content)}`;
  return { content: [{ type: 'text', text }], structuredContent: result.content };
});

await server.connect(new StdioServerTransport());
