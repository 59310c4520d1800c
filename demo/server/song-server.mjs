#!/usr/bin/env node
// The demo MCP server: a songwriting helper written with the official v2 server
// package (@modelcontextprotocol/server). It speaks MCP 2026-07-28, where a tool
// asks its questions in rounds (it answers `input_required` and is called again
// with the answers), and serves older clients too. One tool per kind of question
// Elicit draws, and one that asks four questions at once, then a second round;
// one asks for a secret, one asks to open a page; a prompt and a resource.
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
    name: 'connect_library',
    title: 'Connect a sample library',
    description: 'Asks for the API key of a sample library (a password: masked, kept in SecretStorage, offered again).',
    inputSchema: noArguments,
  },
  {
    name: 'publish_song',
    title: 'Publish a song',
    description: 'Asks you to open the song store in your browser to sign in (a URL, opened only with your consent).',
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
  connect_library: form(
    'Paste the API key of your sample library (any text of 8 characters or more: it is a demo)',
    { apiKey: { type: 'string', title: 'API key', format: 'password', minLength: 8 } },
    ['apiKey'],
  ),
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
  lastSketch = song;
  return text(`🎵 "${song.title}" in ${song.key} at ${song.bpm} BPM${song.loop ? ', looped' : ''}:\n${describe(arrangement)}`, song);
}

/** The store's sign-in page: a URL the server asks the person to open, never opened without their consent. */
const STORE_SIGN_IN = 'https://example.com/song-store/sign-in?session=demo';

function publishSong(responses) {
  const answer = responses?.signIn?.action;
  if (answer === undefined) {
    return inputRequired({
      inputRequests: {
        signIn: inputRequired.elicitUrl({ message: 'Sign in to the song store to publish your song.', url: STORE_SIGN_IN }),
      },
    });
  }
  return answer === 'accept' ? text('🎵 Published: the store page opened in your browser.') : declined(answer);
}

/** The last song sketched in this session: the resource shows it. */
let lastSketch;

const LYRIC_PROMPT = {
  name: 'lyric_idea',
  title: 'Lyric idea',
  description: 'A prompt for four lines of lyrics about a theme, ready for any chat model.',
  arguments: [{ name: 'theme', description: 'What the song is about', required: true }],
};
const SKETCH_RESOURCE = { uri: 'song-sketch://sketches/latest', name: 'Latest sketch', mimeType: 'text/markdown' };

function createServer() {
  const server = new Server({ name: 'song-sketch', version: '2.0.0' }, { capabilities: { tools: {}, prompts: {}, resources: {} } });
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('prompts/list', () => ({ prompts: [LYRIC_PROMPT] }));
  server.setRequestHandler('prompts/get', (request) => {
    const theme = request.params.arguments?.theme ?? 'a long drive home';
    return {
      description: LYRIC_PROMPT.description,
      messages: [{ role: 'user', content: { type: 'text', text: `Write four lines of lyrics about ${theme}, easy to sing.` } }],
    };
  });
  server.setRequestHandler('resources/list', () => ({ resources: [SKETCH_RESOURCE] }));
  // The low-level Server answers only the methods given a handler; without this one a client's templates/list fails.
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', (request) => ({
    contents: [
      {
        uri: request.params.uri,
        mimeType: 'text/markdown',
        text: lastSketch
          ? `# ${lastSketch.title}

${describe(lastSketch)}`
          : 'No sketch yet: run *Sketch a song* first.',
      },
    ],
  }));
  server.setRequestHandler('tools/call', (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const responses = ctx.mcpReq.inputResponses;
    if (name === 'sketch_song') return sketchSong(responses, ctx.mcpReq.requestState());
    if (name === 'publish_song') return publishSong(responses);
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
    // The key is never repeated back: only how long it was.
    if (name === 'connect_library')
      return text(`🔑 Connected to the sample library (a key of ${answer.content.apiKey.length} characters).`);
    return text(name === 'name_song' ? `🎵 New sketch: "${answer.content.title}"` : `Got it:\n${describe(answer.content)}`, answer.content);
  });
  return server;
}

serveStdio(() => createServer());
