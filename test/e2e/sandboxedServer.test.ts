/**
 * A server configured with "sandboxEnabled": true (issue #32, item 4), in a
 * real VS Code: Elicit runs it through VS Code's own sandbox runtime with the
 * file's `sandbox` rules, so its write inside `allowWrite` lands and its write
 * outside is refused, asserted on the disk. Before, it ran with no sandbox.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runMcpTool } from './harness/workbench';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { waitForRecords } from '../support/records';

describe('a sandboxed MCP server in code-server', { timeout: 600_000 }, () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-sandbox-e2e-'));
  const allowed = path.join(base, 'allowed');
  const denied = path.join(base, 'denied');
  const record = path.join(allowed, 'records.jsonl');
  let session: ElicitSession;

  before(async () => {
    fs.mkdirSync(allowed);
    fs.mkdirSync(denied);
    const mcpJson = {
      sandbox: { filesystem: { allowWrite: [allowed] }, network: { allowedDomains: [] } },
      servers: {
        boxed: {
          type: 'stdio',
          command: process.execPath,
          args: [path.join(fixtures, 'sandbox-server.mjs')],
          env: {
            RECORD_FILE: record,
            FIXTURE_NAME: 'boxed',
            ALLOWED_FILE: path.join(allowed, 'a.txt'),
            DENIED_FILE: path.join(denied, 'b.txt'),
          },
          sandboxEnabled: true,
        },
      },
    };
    session = await openElicitSession(JSON.stringify(mcpJson, null, 2));
  });

  after(async () => {
    await session?.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it("runs it in VS Code's sandbox: a write inside allowWrite lands, one outside is refused", async () => {
    const { page } = session.workbench;
    await runMcpTool(page, 'write_files');
    const entry = (await waitForRecords(record, 1, (r) => r.tool === 'write_files', 60_000)).at(-1)!;
    const outcome = entry.outcome as { allowed: string; denied: string };
    assert.equal(outcome.allowed, 'written');
    assert.match(outcome.denied, /^refused: (EROFS|EACCES|EPERM)/);
    assert.equal(fs.readFileSync(path.join(allowed, 'a.txt'), 'utf8'), 'written by boxed\n');
    assert.equal(fs.existsSync(path.join(denied, 'b.txt')), false, 'nothing was written outside allowWrite');
  });
});
