#!/usr/bin/env node
// The benchmark's MCP server (official SDK, stdio). Tools:
//   ask_many {count, parallel}  sends `count` form elicitations with the full server-everything
//                               schema, one after another (or all at once), and reports outcomes;
//   series_pick / series_form   (no arguments: $BENCH_SERIES questions, one after another) record
//                               Date.now() just before each elicitation/create to $RECORD_FILE, so
//                               the browser's clock can time when the question became visible;
//                               series_form waits $BENCH_SETTLE_MS (300) after each answer;
//   cold_forms                  $BENCH_BLOCK forms as series_form does: the benchmark alternates such
//                               blocks of cold forms with blocks of the floor's bare webviews;
//   series_answer               $BENCH_SERIES forms whose fields all have defaults, one after
//                               another; records Date.now() when each answer arrives;
//   one_form                    one form (the first of a window, in a browser profile that has
//                               shown webviews before).
import { appendFileSync, readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';

const everythingSchema = JSON.parse(readFileSync(new URL('../fixtures/everything-schema.json', import.meta.url), 'utf8'));
const series = Number(process.env.BENCH_SERIES ?? 21);
const block = Number(process.env.BENCH_BLOCK ?? 7);
const settleMs = Number(process.env.BENCH_SETTLE_MS ?? 300);
const server = new Server({ name: 'bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });

const formParams = { message: 'Please provide inputs for the following fields:', requestedSchema: everythingSchema };
/** Every field has a default, so Submit sends at once. The first field is text (the bench's readiness mark). */
const answerParams = {
  message: 'Confirm the defaults',
  requestedSchema: {
    type: 'object',
    properties: {
      title: { type: 'string', title: 'Title', default: 'Bench' },
      bpm: { type: 'integer', title: 'BPM', minimum: 60, maximum: 180, default: 120 },
      key: { type: 'string', title: 'Key', enum: ['C', 'Am', 'F'], default: 'Am' },
      loop: { type: 'boolean', title: 'Loop', default: true },
    },
  },
};
const pickParams = {
  message: 'Pick a key',
  requestedSchema: {
    type: 'object',
    properties: { key: { type: 'string', title: 'Key', enum: ['C', 'G', 'D', 'A', 'E'] } },
    required: ['key'],
  },
};

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'ask_many',
      description: 'Sends many form elicitations.',
      inputSchema: { type: 'object', properties: { count: { type: 'number' }, parallel: { type: 'boolean' } } },
    },
    {
      name: 'series_pick',
      description: `Asks ${series} single-choice questions, one after another.`,
      inputSchema: { type: 'object', properties: {} },
    },
    { name: 'series_form', description: `Asks ${series} forms, one after another.`, inputSchema: { type: 'object', properties: {} } },
    { name: 'cold_forms', description: `Asks ${block} forms, one after another.`, inputSchema: { type: 'object', properties: {} } },
    {
      name: 'series_answer',
      description: `Asks ${series} forms with defaults, one after another.`,
      inputSchema: { type: 'object', properties: {} },
    },
    { name: 'one_form', description: 'Asks one form.', inputSchema: { type: 'object', properties: {} } },
  ],
}));

async function elicit(params, extra) {
  try {
    const result = await extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, { timeout: 3_600_000 });
    return result.action;
  } catch (error) {
    return `error ${error.code}`;
  }
}

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  const outcomes = {};
  const count = (action) => (outcomes[action] = (outcomes[action] ?? 0) + 1);
  if (name === 'ask_many') {
    const n = Number(args.count ?? 1);
    if (args.parallel) (await Promise.all(Array.from({ length: n }, () => elicit(formParams, extra)))).forEach(count);
    else for (let i = 0; i < n; i++) count(await elicit(formParams, extra));
  } else if (name === 'series_pick' || name === 'series_form' || name === 'cold_forms') {
    const n = name === 'cold_forms' ? block : series;
    for (let i = 0; i < n; i++) {
      // A person does not answer the next form within milliseconds: let the window finish closing the
      // last tab, so a cold form's time is its own and not the previous webview's teardown.
      if (i > 0 && name !== 'series_pick') await new Promise((resolve) => setTimeout(resolve, settleMs));
      appendFileSync(process.env.RECORD_FILE, JSON.stringify({ tool: name, i, sentAt: Date.now() }) + '\n');
      // Numbered, so the page can tell one pick from the next even when no frame shows none in between.
      count(
        await elicit(
          name === 'series_pick' ? { ...pickParams, message: `${pickParams.message} (${i + 1} of ${series})` } : formParams,
          extra,
        ),
      );
    }
  } else if (name === 'series_answer') {
    for (let i = 0; i < series; i++) {
      const action = await elicit({ ...answerParams, message: `${answerParams.message} (${i + 1} of ${series})` }, extra);
      appendFileSync(process.env.RECORD_FILE, JSON.stringify({ tool: name, i, answeredAt: Date.now(), action }) + '\n');
      count(action);
    }
  } else if (name === 'one_form') {
    appendFileSync(process.env.RECORD_FILE, JSON.stringify({ tool: name, i: 0, sentAt: Date.now() }) + '\n');
    count(await elicit(formParams, extra));
  } else {
    return { content: [{ type: 'text', text: `Unknown tool ${name}` }], isError: true };
  }
  return { content: [{ type: 'text', text: JSON.stringify(outcomes) }] };
});

await server.connect(new StdioServerTransport());
