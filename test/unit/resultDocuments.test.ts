/**
 * Result documents are inert: whatever a server writes in a tool, prompt or
 * resource result, the document VS Code opens as Markdown holds no link but to
 * an http(s) or file URL, and no raw HTML. Read with markdown-it, the parser of
 * VS Code's Markdown preview (with HTML and linkify on, as the preview has
 * them), and with the shapes the editor's Markdown link provider finds.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import type * as vscode from 'vscode';
import { standIn, type Uri } from './vscodeStandIn/vscode';
import { MAX_RENDERED_CHARS, ResultDocuments } from '../../src/vscode/resultDocuments';
import { inertMarkdown } from '../../src/core/display';
import { formatToolResult, type ResultDocument } from '../../src/mcp/resultText';
import { formatPromptResult } from '../../src/mcp/promptText';
import { formatResourceResult } from '../../src/mcp/resourceText';

interface Token {
  type: string;
  content: string;
  children: Token[] | null;
  attrGet(name: string): string | null;
}
const markdownIt = createRequire(__filename)('markdown-it') as (options: object) => { parse(text: string, env: object): Token[] };
const preview = markdownIt({ html: true, linkify: true });

const SAFE = /^(?:https?|file):\/\//i;
const OWN_HTML = ['<details>\n<summary>Structured content (JSON)</summary>\n', '</details>\n'];

/** Every link target and raw HTML piece a reader of this Markdown would make clickable. */
function linksIn(markdown: string): string[] {
  const found: string[] = [];
  const visit = (tokens: Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'link_open') found.push(token.attrGet('href') ?? '');
      if (token.type === 'image') found.push(token.attrGet('src') ?? '');
      // Elicit's own <details> around a folded part is the one HTML a document holds.
      const own = token.type === 'html_block' && OWN_HTML.includes(token.content);
      if ((token.type === 'html_inline' || token.type === 'html_block') && !own) found.push(`html:${token.content}`);
      if (token.children) visit(token.children);
    }
  };
  visit(preview.parse(markdown, {}));
  // The editor's Markdown link provider reads inline links, definitions (used or not) and autolinks from the text.
  for (const m of markdown.matchAll(/\]\(\s*<?([^\s)>]*)/g)) found.push(m[1]!);
  for (const m of markdown.matchAll(/\]:\s*<?([^\s>]*)/g)) found.push(m[1]!);
  for (const m of markdown.matchAll(/<([A-Za-z][\w+.-]*:[^\s<>]*)>/g)) found.push(m[1]!);
  return found;
}

function unsafeLinks(markdown: string): string[] {
  return linksIn(markdown).filter((target) => !SAFE.test(target));
}

const HOSTILE = [
  '[Open settings](command:workbench.action.openSettings)',
  '[run](<command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D>)',
  '![img](command:x)',
  '<command:workbench.action.reloadWindow>',
  '<vscode://vscode.git/clone?url=https%3A%2F%2Fevil>',
  '[ref link][r]\n\n[r]: command:editor.action.x',
  '[shortcut]\n\n[shortcut]:\n  <command:y>',
  '<a href="command:z">click</a>',
  '<img src="x" onerror="alert(1)">',
  '[entity](command&#58;x)',
  '[escaped](command\\:x)',
  '[spaced]( command:x )',
  '[CASE](COMMAND:x)',
  '[invisible]\u200b(command:x)',
  '[bidi]\u202e(command:x)',
  '<!-- hidden --> text',
].join('\n\n');

describe('result documents', () => {
  afterEach(() => standIn.reset());

  /** The text of the document the Markdown preview was asked to show. */
  function previewed(): { uri: Uri; text: string } {
    const call = standIn.commands.filter((c) => c[0] === 'vscode.openWith').at(-1);
    assert.ok(call, 'the result is shown in the Markdown preview');
    assert.equal(call[2], 'vscode.markdown.preview.editor', 'as the preview editor: it keeps showing this result');
    assert.deepEqual(
      call[3],
      { preview: false, preserveFocus: true },
      'a tab of its own, opened without taking the focus from the next question',
    );
    const uri = call[1] as Uri;
    return { uri, text: standIn.contentProviders.get(uri.scheme)!.provideTextDocumentContent(uri) };
  }

  async function shown(markdown: string | ResultDocument): Promise<string> {
    const documents = new ResultDocuments();
    try {
      await documents.show('result', markdown);
      return previewed().text;
    } finally {
      documents.dispose();
    }
  }

  /** Questions on screen as a run of answers to `showing()`, each noting how many commands had run when asked. */
  function questionsShowing(...answers: boolean[]) {
    const asked: number[] = [];
    let broughtForward = 0;
    return {
      asked,
      broughtForward: () => broughtForward,
      showing: () => {
        asked.push(standIn.commands.length);
        return answers[asked.length - 1] ?? answers.at(-1)!;
      },
      bringForward: () => void broughtForward++,
    };
  }

  // Issue #25 item 8: one tab per tool, a second run replacing what it shows.
  it('opens a result behind the editor in front when a question is on screen as it opens', async () => {
    const documents = new ResultDocuments();
    try {
      const questions = questionsShowing(true);
      await documents.show('result', 'done', { behind: questions });
      const call = standIn.commands.filter((c) => c[0] === 'vscode.openWith').at(-1);
      assert.deepEqual(call?.[3], { preview: false, preserveFocus: true, background: true });
      assert.equal(questions.broughtForward(), 0, 'the question was in front all along');
    } finally {
      documents.dispose();
    }
  });

  it('puts a form that showed while the result was opening back in front of it', async () => {
    const documents = new ResultDocuments();
    try {
      // No question as the result is asked to open; the server's next form shows before its tab is there.
      const questions = questionsShowing(false, true);
      await documents.show('result', 'done', { behind: questions });
      const call = standIn.commands.filter((c) => c[0] === 'vscode.openWith').at(-1);
      assert.deepEqual(call?.[3], { preview: false, preserveFocus: true }, 'the result comes to the front');
      assert.deepEqual(questions.asked, [0, 1], 'asked before the open and again once it is done');
      assert.equal(questions.broughtForward(), 1);
      // A result too large to render opens as text, behind the same way.
      const text = questionsShowing(false, true);
      await documents.show('large', 'x'.repeat(MAX_RENDERED_CHARS + 1), { behind: text });
      assert.equal(text.broughtForward(), 1);
    } finally {
      documents.dispose();
    }
  });

  it('leaves a result in front when no question showed while it opened', async () => {
    const documents = new ResultDocuments();
    try {
      const questions = questionsShowing(false, false);
      await documents.show('result', 'done', { behind: questions });
      assert.equal(questions.asked.length, 2);
      assert.equal(questions.broughtForward(), 0);
    } finally {
      documents.dispose();
    }
  });

  it('shows a second result of the same tool in the same document, and another tool in its own', async () => {
    const documents = new ResultDocuments();
    try {
      const changed: string[] = [];
      documents.onDidChange((uri) => changed.push(uri.toString()));
      await documents.show('songs-sketch_song', '# first');
      const first = previewed();
      standIn.openTabs.push(first.uri);
      await documents.show('songs-sketch_song', '# second');
      const second = previewed();
      assert.equal(second.uri.toString(), first.uri.toString());
      assert.equal(second.text, '# second');
      assert.deepEqual(changed, [first.uri.toString(), first.uri.toString()], 'an open tab is told to read it again');
      await documents.show('songs-pick_key', '# key');
      assert.notEqual(previewed().uri.toString(), first.uri.toString());
      assert.equal(
        documents.provideTextDocumentContent(first.uri as unknown as vscode.Uri),
        '# second',
        'kept while its tab may show it again',
      );
    } finally {
      documents.dispose();
    }
  });

  it('shows a result in a new document once the tab of the last one closed: a closed tab may leave its old text behind', async () => {
    const documents = new ResultDocuments();
    try {
      await documents.show('palette-pick_color', 'Painted it red.');
      const first = previewed();
      // The person closed the tab; the tool runs again.
      await documents.show('palette-pick_color', 'Painted it blue.');
      const second = previewed();
      assert.notEqual(second.uri.toString(), first.uri.toString(), 'a new document');
      assert.equal(second.uri.path, first.uri.path, 'its tab has the same title');
      assert.equal(second.text, 'Painted it blue.');
    } finally {
      documents.dispose();
    }
  });

  it("folds a tool's structured content away inside Elicit's own <details>, its JSON inert", async () => {
    const document = formatToolResult('weather', 'get_forecast', {
      content: [{ type: 'text', text: 'Sunny' }],
      structuredContent: { note: `</details><a href="command:x">x</a> [y](command:y) ${HOSTILE}` },
    });
    const text = await shown(document);
    assert.match(
      text,
      /^# weather › get_forecast\n\nSunny\n[\s\S]*<details>\n<summary>Structured content \(JSON\)<\/summary>\n\n````?json\n/,
    );
    assert.ok(text.endsWith('\n</details>\n'), text);
    assert.deepEqual(unsafeLinks(text), []);
    // The one <details> is Elicit's: the server's closing tag inside is text.
    assert.equal(text.split('</details>').length, 2, text);
  });

  it('a tool result: no command link from its text, a resource_link or its name', async () => {
    const markdown = formatToolResult('weather', 'get_forecast', {
      content: [
        { type: 'text', text: HOSTILE },
        { type: 'resource_link', name: 'report', uri: 'command:workbench.action.terminal.new' },
        { type: 'resource_link', name: '](command:x) [y', uri: 'vscode://evil', description: '<command:z>' },
      ],
    });
    assert.ok(unsafeLinks(markdown.markdown).length > 10, 'the test input does hold links');
    assert.deepEqual(unsafeLinks(await shown(markdown)), []);
  });

  it('a prompt and a resource result too', async () => {
    const prompt = formatPromptResult(
      'srv',
      'p',
      { a: '[x](command:y)' },
      {
        description: '[d](command:d)',
        messages: [{ role: 'user', content: { type: 'resource_link', name: 'n', uri: 'command:x' } }],
      },
    );
    const resource = formatResourceResult('srv', 'command:x', { contents: [{ uri: '<command:u>', text: 'ok' }] });
    assert.deepEqual(unsafeLinks(await shown(prompt)), []);
    assert.deepEqual(unsafeLinks(await shown(resource)), []);
  });

  it('http(s) and file links stay links, and the text reads the same', async () => {
    const markdown = formatToolResult('weather', 'get_forecast', {
      content: [
        {
          type: 'text',
          text: 'See [the docs](https://example.com/docs "docs") or <https://example.com>.\n\n[ref]: <http://example.com/r>',
        },
        { type: 'resource_link', name: 'log', uri: 'file:///tmp/log.txt' },
      ],
    });
    const text = await shown(markdown);
    assert.equal(text, markdown.markdown);
    assert.deepEqual(linksIn(text).filter((l) => l.startsWith('https://example.com/docs')).length > 0, true);
  });
});

// Issue #33: a 2 MB result took a minute in the Markdown preview. Past MAX_RENDERED_CHARS it opens as plain text.
describe('a result too large to render', () => {
  afterEach(() => standIn.reset());

  it('opens as plain text, read-only and whole, never in the Markdown preview', async () => {
    const documents = new ResultDocuments();
    try {
      const big = `${'line of a big result [x](command:evil)\n'.repeat(Math.ceil((MAX_RENDERED_CHARS + 1) / 39))}end`;
      await documents.show('big result', big);
      assert.equal(standIn.commands.filter((c) => c[0] === 'vscode.openWith').length, 0, 'not rendered');
      const [document] = standIn.shownDocuments;
      assert.ok(document, 'opened as a text document');
      assert.match(document.uri.path, /\.txt$/);
      assert.equal(document.uri.scheme, 'elicit-result', 'a content provider document: read-only');
      const text = document.getText();
      assert.ok(text.endsWith('end') && text.length > MAX_RENDERED_CHARS, 'whole');
      assert.ok(!text.includes('](command:'), 'still inert');
    } finally {
      documents.dispose();
    }
  });

  it('a result of ordinary size is still rendered', async () => {
    const documents = new ResultDocuments();
    try {
      await documents.show('small result', 'x'.repeat(10_000));
      assert.equal(standIn.commands.filter((c) => c[0] === 'vscode.openWith').length, 1);
      assert.equal(standIn.shownDocuments.length, 0);
    } finally {
      documents.dispose();
    }
  });
});

describe('inertMarkdown', () => {
  it('leaves ordinary Markdown alone', () => {
    for (const text of ['a < b and c > d', 'array[0] (first)', '**bold** `code` _em_', '# Title\n\n- item: value', 'x<3']) {
      assert.equal(inertMarkdown(text), text);
    }
  });

  it('reads the same but for zero-width spaces, and is idempotent', () => {
    assert.equal(inertMarkdown(HOSTILE).replace(/\u200b/g, ''), HOSTILE.replace(/[\u200b\u202e]/g, ''));
    assert.equal(inertMarkdown(inertMarkdown(HOSTILE)), inertMarkdown(HOSTILE));
  });

  it('no generated text keeps a link to another scheme or raw HTML', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      ':',
      ' ',
      '\n',
      '\\',
      '&#58;',
      'a',
      'command:x',
      'https://',
      'file:',
      'href=',
      '\u200b',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 24 }).map((parts) => parts.join('')),
        (text) => {
          assert.deepEqual(unsafeLinks(inertMarkdown(text)), [], JSON.stringify(text));
        },
      ),
      { seed: 20_261_121, numRuns: 3_000 },
    );
  });

  it('takes linear time on a megabyte of openers', () => {
    const start = performance.now();
    inertMarkdown('](<'.repeat(350_000));
    assert.ok(performance.now() - start < 2_000);
  });
});
