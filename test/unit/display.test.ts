/** Untrusted asker text made safe and short for native widgets. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { askerTitle, cleanText, clip, inertText, isInvisible, noIcons, oneLine, questionTitle } from '../../src/core/display';
import { asksOnBehalf, type ElicitRequest } from '../../src/core/request';

describe('cleanText', () => {
  it('removes the same characters from long text as from short, and nothing else', () => {
    const invisible = /^[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]$/;
    const all: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      assert.equal(isInvisible(c), invisible.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
      all.push(String.fromCharCode(c));
    }
    // Every code unit once (lone surrogates included), as one long text: the long path keeps what the short one keeps.
    const long = all.join('');
    assert.equal(cleanText(long), all.filter((ch) => cleanText(ch) === ch).join(''));
    assert.equal(cleanText(`${'a\u202e'.repeat(300)}z`), `${'a'.repeat(300)}z`);
  });

  it('strips bidi overrides, embeddings and isolates', () => {
    // "Trojan Source": U+202E makes "txt.exe" look like "exe.txt".
    assert.equal(cleanText('invoice\u202Etxt.exe'), 'invoicetxt.exe');
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F']) {
      assert.equal(cleanText(`a${c}b`), 'ab', `U+${c.codePointAt(0)!.toString(16)}`);
    }
  });

  it('strips zero-width and invisible format characters', () => {
    for (const c of ['\u200B', '\u200C', '\u200D', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\uFEFF']) {
      assert.equal(cleanText(`pay${c}pal`), 'paypal', `U+${c.codePointAt(0)!.toString(16)}`);
    }
  });

  it('strips C0 controls and DEL but keeps tab and line breaks', () => {
    assert.equal(cleanText('a\u0000b\u0007c\u001bd\u007fe'), 'abcde');
    assert.equal(cleanText('a\tb\nc\rd'), 'a\tb\nc\rd');
  });

  it('leaves ordinary text, accents, right-to-left letters and emoji alone', () => {
    const text = 'Grüße — שלום — مرحبا 😀 ✓';
    assert.equal(cleanText(text), text);
  });
});

describe('oneLine', () => {
  it('joins lines with single spaces and trims', () => {
    assert.equal(oneLine('  first line\n\n   second\r\nthird  '), 'first line second third');
  });

  it('cleans before joining', () => {
    assert.equal(oneLine('a\u202E\nb\u200B'), 'a b');
  });

  it('cuts to 300 characters by default, and to max when given', () => {
    const long = 'x'.repeat(500);
    const cut = oneLine(long);
    assert.equal(cut.length, 300);
    assert.ok(cut.endsWith('…'));
    assert.equal(oneLine(long, 10), `${'x'.repeat(9)}…`);
    assert.equal(oneLine('short', 10), 'short');
  });

  it('counts the length after joining and cleaning', () => {
    assert.equal(oneLine('abc\n\n\n\ndef', 7), 'abc def');
    assert.equal(oneLine(`${'\u200B'.repeat(50)}hello`, 5), 'hello');
  });
});

describe('clip', () => {
  it('keeps text that fits, exactly at the limit too', () => {
    assert.equal(clip('hello', 5), 'hello');
    assert.equal(clip('', 0), '');
  });

  it('cuts with an ellipsis, within the limit', () => {
    assert.equal(clip('hello world', 8), 'hello w…');
    assert.equal(clip('hello world', 8).length, 8);
  });

  it('does not leave a space before the ellipsis', () => {
    assert.equal(clip('hello world', 7), 'hello…');
  });

  it('a limit of 0 or 1 leaves only the ellipsis', () => {
    assert.equal(clip('hello', 1), '…');
    assert.equal(clip('hello', 0), '…');
  });
});

describe('questionTitle', () => {
  const asker = { kind: 'mcp' as const, name: 'song-sketch', detail: 'arguments for write_lyrics' };
  const schema = { type: 'object', properties: {} };

  it('is who asks, for a question from a server', () => {
    const request: ElicitRequest = { mode: 'form', asker, message: 'm', requestedSchema: schema };
    assert.equal(questionTitle(request), 'song-sketch asks · arguments for write_lyrics');
    assert.equal(asksOnBehalf(request), false);
  });

  it('is what it is for when Elicit asks for the person, never "<server> asks"', () => {
    const request: ElicitRequest = {
      mode: 'form',
      asker,
      message: 'm',
      requestedSchema: schema,
      onBehalf: { title: 'Run MCP Tool · song-sketch · write_lyrics' },
    };
    assert.equal(questionTitle(request), 'Run MCP Tool · song-sketch · write_lyrics');
    assert.equal(asksOnBehalf(request), true);
  });

  it('is inert and on one line, since the title holds server and tool names', () => {
    const request: ElicitRequest = {
      mode: 'form',
      asker,
      message: 'm',
      requestedSchema: schema,
      onBehalf: { title: 'Run MCP Tool · [x](command:evil)\n$(flame)' },
    };
    assert.equal(questionTitle(request), 'Run MCP Tool · [x]\u200b(command:evil) $\u200b(flame)');
  });
});

describe('askerTitle', () => {
  it('"name asks · detail"', () => {
    assert.equal(
      askerTitle({ kind: 'mcp', name: 'weather-server', detail: 'tool get_forecast' }),
      'weather-server asks · tool get_forecast',
    );
  });

  it('without detail, or with an empty one', () => {
    assert.equal(askerTitle({ kind: 'acp', name: 'agent' }), 'agent asks');
    assert.equal(askerTitle({ kind: 'acp', name: 'agent', detail: '' }), 'agent asks');
  });

  it('cleans, joins and cuts name and detail to 80 characters each', () => {
    const title = askerTitle({ kind: 'mcp', name: `evil\u202E\n${'n'.repeat(200)}`, detail: 'd'.repeat(200) });
    const [name, detail] = title.split(' asks · ');
    assert.equal(name!.length, 80);
    assert.ok(name!.startsWith('evil n'));
    assert.ok(!title.includes('\u202E') && !title.includes('\n'));
    assert.equal(detail!.length, 80);
    assert.ok(detail!.endsWith('…'));
  });

  it('cannot draw icons', () => {
    const title = askerTitle({ kind: 'mcp', name: '$(check) Verified', detail: '$(lock)' });
    assert.ok(!title.includes('$('), title);
    assert.equal(title, '$\u200b(check) Verified asks · $\u200b(lock)');
  });

  it('a zero-width character cannot be used to smuggle an icon past noIcons', () => {
    assert.ok(!askerTitle({ kind: 'mcp', name: '$\u200b(check)' }).includes('$('));
  });
});

describe('noIcons', () => {
  it('breaks every $( so quick input labels show it as text', () => {
    assert.equal(noIcons('$(zap) fast $(zap)'), '$\u200b(zap) fast $\u200b(zap)');
    assert.equal(noIcons('costs $5 (approx.)'), 'costs $5 (approx.)');
    assert.equal(noIcons('$$(x)'), '$$\u200b(x)');
  });
});

/**
 * How VS Code reads text it shows (src/vs/base/common/linkedText.ts for links in quick input
 * messages, notifications and dialogs; src/vs/base/common/iconLabels.ts for `$(icon)`), as
 * code-server 4.139.1 ships them.
 */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const VSCODE_ICON = /(\\)?\$\((\w[\w-]*(?:~[\w-]+)?)\)/g;

describe('inertText', () => {
  const hostile =
    'Your session expired. [Open Settings](command:workbench.action.openSettings "https://example.com/login") $(shield) verified';

  it('leaves no link and no icon VS Code would draw, and reads the same', () => {
    const inert = inertText(hostile);
    assert.equal(inert.match(VSCODE_LINK), null);
    assert.equal(inert.match(VSCODE_ICON), null);
    assert.equal(inert.replace(/\u200b/g, ''), hostile);
  });

  it('breaks every link scheme VS Code opens, and terminal commands', () => {
    for (const target of [
      'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D',
      'https://evil.example',
      'file:///etc/passwd',
      'COMMAND:x',
    ]) {
      assert.equal(inertText(`[click](${target})`).match(VSCODE_LINK), null, target);
    }
  });

  it('cannot be undone by invisible characters placed inside the syntax', () => {
    assert.equal(inertText('[a]\u200b(command:x)').match(VSCODE_LINK), null);
    assert.equal(inertText('$\u200b(shield)').match(VSCODE_ICON), null);
    assert.equal(inertText('[a]\u202e(command:x)').match(VSCODE_LINK), null);
  });

  it('is idempotent, and noIcons is the same function', () => {
    assert.equal(inertText(inertText(hostile)), inertText(hostile));
    assert.equal(noIcons, inertText);
  });

  it('leaves ordinary text alone', () => {
    for (const text of ['costs $5 (approx.)', 'array[0] (first)', 'f(x) = [a, b]', 'Grüße 😀']) assert.equal(inertText(text), text);
  });

  it('no generated text keeps a link or an icon', () => {
    const piece = fc.constantFrom('[', ']', '(', ')', '$', '\\', ' ', '"', 'a', 'command:', 'https://', 'file:', '\u200b', '\u202e', '\n');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('')),
        (text) => {
          const inert = inertText(text);
          assert.equal(inert.match(VSCODE_LINK), null, JSON.stringify(inert));
          assert.equal(inert.match(VSCODE_ICON), null, JSON.stringify(inert));
        },
      ),
      { seed: 20_261_122, numRuns: 5_000 },
    );
  });
});

describe('askerTitle', () => {
  it('cannot carry a link', () => {
    assert.equal(askerTitle({ kind: 'mcp', name: '[github](command:x)', detail: '[y](https://e.com)' }).match(VSCODE_LINK), null);
  });
});
