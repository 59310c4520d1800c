/**
 * Issue #33, finding 9: without XDG_RUNTIME_DIR the windows' folder is in the shared temp dir,
 * where a name computed from the storage path could be taken first by another user (the queue
 * across windows then silently off). Its name there is random, kept where only this user reads.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { Uri } from './vscodeStandIn/vscode';
import { MESH_ID_FILE, meshDir } from '../../src/vscode/windows/otherWindows';

describe('meshDir', () => {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const made: string[] = [];
  afterEach(() => {
    if (runtime === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = runtime;
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const storage = (): Uri => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-storage-'));
    made.push(dir);
    return Uri.file(path.join(dir, 'globalStorage', 'elicit-dev.elicit'));
  };

  it('without a runtime dir: a random name, the same for every window of one VS Code, kept 0600', async () => {
    delete process.env.XDG_RUNTIME_DIR;
    const one = storage();
    const first = await meshDir(one as never);
    assert.equal(await meshDir(one as never), first, 'every window of this VS Code meets in the same folder');
    const name = path.basename(first);
    assert.match(name, /^elicit-[0-9a-f]{24}$/);
    const kept = path.join(one.fsPath, MESH_ID_FILE);
    assert.equal(`elicit-${fs.readFileSync(kept, 'utf8')}`, name);
    assert.equal(fs.statSync(kept).mode & 0o077, 0, 'only this user reads the name');
    assert.notEqual(path.basename(await meshDir(storage() as never)), name, 'another VS Code, another name');
  });

  it('in a runtime dir (private to the user already): named by the storage path, as before', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-xdg-'));
    made.push(dir);
    process.env.XDG_RUNTIME_DIR = dir;
    const mesh = await meshDir(storage() as never);
    assert.equal(path.dirname(mesh), dir);
    assert.match(path.basename(mesh), /^elicit-[0-9a-f]{12}$/);
  });
});
