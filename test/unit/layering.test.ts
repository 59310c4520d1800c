/** The layering rules are real: linting core code that imports vscode or uses the DOM fails, and so does a VS Code feature importing another. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..');

async function lint(file: string, code: string): Promise<string[]> {
  // The files linted here exist only as text, so the type-aware rules (which need a program) are off.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off' },
    },
  });
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layering lint rule', () => {
  it('rejects a vscode import in src/core', async () => {
    const messages = await lint('src/core/example.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n");
    assert.ok(
      messages.some((m) => m.startsWith('no-restricted-imports')),
      messages.join('\n'),
    );
  });

  it('rejects files, sockets and processes in src/core, by node: name and bare name, type imports too', async () => {
    const planted = [
      "import * as fs from 'node:fs';\nexport const f = fs;\n",
      "import { readFile } from 'fs/promises';\nexport const r = readFile;\n",
      "import type * as net from 'node:net';\nexport type S = net.Socket;\n",
      "import { spawn } from 'child_process';\nexport const s = spawn;\n",
      "import * as https from 'node:https';\nexport const h = https;\n",
    ];
    for (const code of planted) {
      const messages = await lint('src/core/windows/example.ts', code);
      assert.ok(
        messages.some((m) => m.startsWith('no-restricted-imports') && m.includes('src/core does no I/O')),
        `${code}: ${messages.join('\n')}`,
      );
    }
    // Hashing, paths and URLs are no I/O; and a node folder beside the core may open sockets.
    assert.deepEqual(await lint('src/core/example.ts', "import { createHash } from 'node:crypto';\nexport const h = createHash;\n"), []);
    assert.deepEqual(await lint('src/windows/example.ts', "import * as net from 'node:net';\nexport const n = net;\n"), []);
  });

  it('rejects a circle of imports in src/core, naming its files', async () => {
    // request.ts is the ground floor: the form's state imports it, so it may not import the form's state.
    const messages = await lint('src/core/request.ts', "import type { FormDraft } from './form/formState';\nexport type D = FormDraft;\n");
    assert.ok(
      messages.some((m) => m.startsWith('elicit/no-import-cycle') && m.includes('src/core/form/formState.ts')),
      messages.join('\n'),
    );
    // A file importing itself is a circle too; an import down the layers is none.
    assert.ok(
      (await lint('src/core/display.ts', "import { oneLine } from './display';\nexport const o = oneLine;\n")).some((m) =>
        m.startsWith('elicit/no-import-cycle'),
      ),
    );
    assert.deepEqual(await lint('src/core/display.ts', "import type { Asker } from './request';\nexport type A = Asker;\n"), []);
  });

  it('rejects a vscode import in src/windows (the window mesh is node only)', async () => {
    const messages = await lint('src/windows/example.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n");
    assert.ok(
      messages.some((m) => m.startsWith('no-restricted-imports')),
      messages.join('\n'),
    );
  });

  it('rejects a vscode import in src/device (the phone server is node only)', async () => {
    const messages = await lint('src/device/example.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n");
    assert.ok(
      messages.some((m) => m.startsWith('no-restricted-imports')),
      messages.join('\n'),
    );
  });

  it('rejects DOM globals in src/core and src/mcp', async () => {
    const messages = await lint('src/mcp/example.ts', 'export const title = document.title;\n');
    assert.ok(
      messages.some((m) => m.startsWith('no-restricted-globals')),
      messages.join('\n'),
    );
  });

  it('rejects importing the VS Code layer from the core', async () => {
    const messages = await lint('src/core/example.ts', "import { runTool } from '../vscode/runTool';\nexport const r = runTool;\n");
    assert.ok(
      messages.some((m) => m.startsWith('no-restricted-imports')),
      messages.join('\n'),
    );
  });

  it('rejects one protocol adapter importing another (acp → mcp, mcp → gateway, gateway → acp)', async () => {
    const cases: [string, string][] = [
      ['src/acp/example.ts', "import { parseMcpConfig } from '../mcp/config';\nexport const p = parseMcpConfig;\n"],
      ['src/mcp/example.ts', "import type { GatewayServer } from '../gateway/gatewayServer';\nexport type G = GatewayServer;\n"],
      ['src/gateway/example.ts', "import { Transcript } from '../acp/transcript';\nexport const t = Transcript;\n"],
      ['src/core/form/example.ts', "import { McpConnection } from '../../mcp/connection';\nexport const c = McpConnection;\n"],
    ];
    for (const [file, code] of cases) {
      const messages = await lint(file, code);
      assert.ok(
        messages.some((m) => m.startsWith('no-restricted-imports') && m.includes('protocol adapters are independent')),
        `${file}: ${messages.join('\n')}`,
      );
    }
  });

  it('allows an adapter to import the core', async () => {
    const messages = await lint('src/acp/example.ts', "import { isObject } from '../core/json';\nexport const o = isObject;\n");
    assert.deepEqual(messages, []);
  });

  it('allows vscode in src/vscode', async () => {
    const messages = await lint('src/vscode/example.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n");
    assert.deepEqual(messages, []);
  });
});

describe('VS Code layer: one direction', () => {
  const crossing = (messages: string[]): string[] => messages.filter((m) => m.startsWith('elicit/feature-folders'));

  it('rejects a feature folder importing another, however it imports', async () => {
    const cases: [string, string][] = [
      ['src/vscode/secrets/example.ts', "import type { DraftKeeper } from '../questions/formPanel';\nexport type D = DraftKeeper;\n"],
      ['src/vscode/apps/example.ts', "export { askSignIn } from '../acp/signInPrompt';\n"],
      ['src/vscode/mcp/sources/example.ts', "import { KeptRounds } from '../../questions/keptRounds';\nexport const k = KeptRounds;\n"],
      ['src/vscode/devices/example.ts', "export type W = typeof import('../windows/otherWindows');\n"],
      ['src/vscode/tool/example.ts', "export const load = () => import('../gateway/gatewayController');\n"],
      [
        'src/vscode/acp/example.ts',
        "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const m = require('../mcp/serverRegistry');\n",
      ],
    ];
    for (const [file, code] of cases) {
      const messages = crossing(await lint(file, code));
      assert.equal(messages.length, 1, `${file}: ${messages.join('\n')}`);
      assert.match(messages[0]!, /reaches another only through a shared file/);
    }
  });

  it('rejects a shared file importing a feature folder', async () => {
    const messages = crossing(
      await lint(
        'src/vscode/services.ts',
        "import type { ServerRegistry } from './mcp/serverRegistry';\nexport type R = ServerRegistry;\n",
      ),
    );
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0]!, /src\/vscode\/services\.ts is shared by the features, so it imports none of them/);
  });

  it('allows a feature its own folder and the shared files, a shared file the others, and extension.ts every feature', async () => {
    const allowed: [string, string][] = [
      ['src/vscode/mcp/example.ts', "import type { McpServices } from './serverRegistry';\nexport type S = McpServices;\n"],
      [
        'src/vscode/mcp/sources/example.ts',
        "import { offerServerRestart } from '../../restartOffer';\nexport const o = offerServerRestart;\n",
      ],
      ['src/vscode/acp/example.ts', "import { setPickPrompt } from '../pickPrompt';\nexport const s = setPickPrompt;\n"],
      ['src/vscode/example.ts', "import type { Services } from './services';\nexport type S = Services;\n"],
      ['src/extension.ts', "import { ServerRegistry } from './vscode/mcp/serverRegistry';\nexport const r = ServerRegistry;\n"],
    ];
    for (const [file, code] of allowed) assert.deepEqual(crossing(await lint(file, code)), [], file);
  });

  it('rejects a circle of imports in src/vscode, naming its files', async () => {
    // arrivalNotice.ts imports pickPrompt.ts, so pickPrompt.ts may not import it back.
    const messages = await lint(
      'src/vscode/pickPrompt.ts',
      "import { arrivalNotice } from './arrivalNotice';\nexport const a = arrivalNotice;\n",
    );
    assert.ok(
      messages.some((m) => m.startsWith('elicit/no-import-cycle') && m.includes('src/vscode/arrivalNotice.ts')),
      messages.join('\n'),
    );
  });
});

// Issue #21: text from a server or agent never reaches V8's backtracking RegExp.
describe('bounded patterns lint rule', () => {
  const restricted = (messages: string[]): string[] => messages.filter((m) => m.startsWith('no-restricted-syntax'));

  it('rejects a RegExp built from a string, with or without new, in src and webview', async () => {
    const cases: [string, string][] = [
      ['src/core/example.ts', 'export const r = (p: string) => new RegExp(p);\n'],
      ['src/vscode/example.ts', 'export const r = (p: string) => RegExp(p, "u");\n'],
      ['webview/form/example.ts', 'export const r = (p: string) => new RegExp(`^${p}$`);\n'],
    ];
    for (const [file, code] of cases) {
      const messages = restricted(await lint(file, code));
      assert.equal(messages.length, 1, `${file}: ${messages.join('\n')}`);
      assert.match(messages[0]!, /compilePattern/);
    }
  });

  it('allows a RegExp from a literal', async () => {
    assert.deepEqual(restricted(await lint('src/core/example.ts', "export const r = new RegExp('^a+$', 'u');\n")), []);
  });

  it('rejects an ajv engine without the bounded engine, and allows one with it', async () => {
    const without = "import Ajv from 'ajv';\nexport const ajv = new Ajv({ strict: false });\n";
    const messages = restricted(await lint('src/mcp/example.ts', without));
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0]!, /boundedRegExp/);
    const withIt =
      "import Ajv2020 from 'ajv/dist/2020';\nimport { boundedRegExp } from '../core/form/ajvPatterns';\nexport const ajv = new Ajv2020({ code: { regExp: boundedRegExp() } });\n";
    assert.deepEqual(restricted(await lint('src/mcp/example.ts', withIt)), []);
  });
});
