#!/usr/bin/env node
// The demo MCP server: a songwriting helper written with the official v2 server
// package (@modelcontextprotocol/server). It speaks MCP 2026-07-28, where a tool
// asks its questions in rounds (it answers `input_required` and is called again
// with the answers), and serves older clients too. One tool per kind of question
// Elicit draws, and one that asks four questions at once, then a second round.
import { Server, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const noArguments = { type: 'object', properties: {} };
const tools = [
  {
    name: 'sketch_song',
    title: 'Sketch a song',
    description: 'Asks four questions at once, then a second round about the arrangement.',
    inputSchema: noArguments,
  },
  {
    name: 'name_song',
    title: 'Name a song',
    description: 'Asks for a working title (one text field) and starts a sketch.',
    inputSchema: noArguments,
  },
  { name: 'pick_key', title: 'Pick a key', description: 'Asks which key the song is in (a single choice).', inputSchema: noArguments },
  { name: 'set_tempo', title: 'Set the tempo', description: 'Asks for the BPM, a whole number from 60 to 180.', inputSchema: noArguments },
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

const form = (message, properties, required = []) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties, required } });

const KEYS = [
  { const: 'C', title: 'C major' },
  { const: 'Am', title: 'A minor' },
  { const: 'F', title: 'F major' },
  { const: 'G', title: 'G major' },
];

/** One question per tool: the key its answer comes back under, and the question. */
const single = {
  name_song: form('What is the working title of the song?', { title: { type: 'string', title: 'Title', minLength: 1, maxLength: 80 } }, [
    'title',
  ]),
  pick_key: form('Pick a key', { key: { type: 'string', title: 'Key', oneOf: KEYS, default: 'C' } }, ['key']),
  set_tempo: form('Enter the BPM (60–180)', { bpm: { type: 'integer', title: 'Tempo (BPM)', minimum: 60, maximum: 180, default: 120 } }, [
    'bpm',
  ]),
  new_project: form(
    'Fill in the new project form',
    {
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
      code: {
        type: 'string',
        title: 'Catalog code',
        description: 'Three capital letters, a hyphen and three digits, e.g. SNG-042',
        pattern: '^[A-Z]{3}-\\d{3}$',
      },
    },
    ['title', 'email'],
  ),
};

/** The four questions of a sketch's first round, asked at once. */
const SKETCH = {
  title: form('What is the song called?', { title: { type: 'string', title: 'Title', minLength: 1 } }, ['title']),
  key: form('Which key?', { key: { type: 'string', title: 'Key', oneOf: KEYS } }, ['key']),
  bpm: form('How fast?', { bpm: { type: 'integer', title: 'Tempo (BPM)', minimum: 60, maximum: 180, default: 96 } }, ['bpm']),
  loop: form('Loop the sketch while you write?', { loop: { type: 'boolean', title: 'Loop', default: true } }),
};

const text = (value, structured) => ({
  content: [{ type: 'text', text: value }],
  ...(structured ? { structuredContent: structured } : {}),
});
const accepted = (responses, key) => (responses?.[key]?.action === 'accept' ? (responses[key].content ?? {}) : undefined);
const describe = (content) =>
  Object.entries(content ?? {})
    .map(([k, v]) => `- ${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
    .join('\n');
const declined = (action) => text(`No problem — you chose ${action}. Nothing was changed.`);

/** Two rounds: four questions at once, then the arrangement; the state carries round one's answers. */
function sketchSong(responses, state) {
  if (state === undefined) {
    const answers = Object.keys(SKETCH).map((key) => responses?.[key]);
    if (answers.some((a) => a === undefined)) return inputRequired({ inputRequests: SKETCH });
    const refusal = answers.find((a) => a.action !== 'accept');
    if (refusal) return declined(refusal.action);
    const sketch = Object.assign({}, ...Object.keys(SKETCH).map((key) => accepted(responses, key)));
    return inputRequired({
      inputRequests: {
        arrangement: form(`How should "${sketch.title}" be arranged?`, {
          instruments: {
            type: 'array',
            title: 'Instruments',
            items: { type: 'string', enum: ['Guitar', 'Piano', 'Drums', 'Bass', 'Strings'] },
            minItems: 1,
            default: ['Piano'],
          },
          bars: { type: 'integer', title: 'Bars in the first section', minimum: 4, maximum: 64, default: 16 },
        }),
      },
      // A real server would protect this (spec: HMAC or AEAD); the demo keeps it readable.
      requestState: Buffer.from(JSON.stringify(sketch)).toString('base64'),
    });
  }
  const sketch = JSON.parse(Buffer.from(state, 'base64').toString('utf8'));
  const arrangement = accepted(responses, 'arrangement');
  if (!arrangement) return declined(responses?.arrangement?.action ?? 'cancel');
  const song = { ...sketch, ...arrangement };
  return text(`🎵 "${song.title}" in ${song.key} at ${song.bpm} BPM${song.loop ? ', looped' : ''}:\n${describe(arrangement)}`, song);
}

function createServer() {
  const server = new Server({ name: 'song-sketch', version: '2.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const responses = ctx.mcpReq.inputResponses;
    if (name === 'sketch_song') return sketchSong(responses, ctx.mcpReq.requestState());
    const question =
      name === 'write_lyrics'
        ? form(
            `How many verses about "${args.theme}"?`,
            { verses: { type: 'integer', title: 'Verses', minimum: 1, maximum: 6, default: 2 } },
            ['verses'],
          )
        : single[name];
    if (!question) return { ...text(`Unknown tool ${name}`), isError: true };
    const answer = responses?.question;
    if (!answer) return inputRequired({ inputRequests: { question } });
    if (answer.action !== 'accept') return declined(answer.action);
    return text(name === 'name_song' ? `🎵 New sketch: "${answer.content.title}"` : `Got it:\n${describe(answer.content)}`, answer.content);
  });
  return server;
}

serveStdio(() => createServer());
