/** Which port a window's gateway tries and keeps: one per workspace, and the old shared one handed to one workspace. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterStart, choosePort, standsBy } from '../../src/gateway/portChoice';

describe('gateway port choice', () => {
  it('tries the setting, else the workspace’s own port, else the shared one, else any', () => {
    assert.deepEqual(choosePort({ configured: 4100, workspace: 4200, shared: 4300 }), { port: 4100, source: 'setting' });
    assert.deepEqual(choosePort({ configured: 0, workspace: 4200, shared: 4300 }), { port: 4200, source: 'workspace' });
    assert.deepEqual(choosePort({ configured: 0, workspace: 0, shared: 4300 }), { port: 4300, source: 'shared' });
    assert.deepEqual(choosePort({ configured: 0, workspace: 0, shared: 0 }), { port: 0, source: 'none' });
  });

  it('keeps a new workspace’s first port, so its address stays the same next time', () => {
    const tried = choosePort({ configured: 0, workspace: 0, shared: 0 });
    assert.deepEqual(afterStart(tried, 45123, undefined), { keepForWorkspace: true, forgetShared: false });
  });

  it('hands the shared port to the first workspace that binds it, and forgets it for the others', () => {
    const tried = choosePort({ configured: 0, workspace: 0, shared: 4300 });
    assert.deepEqual(afterStart(tried, 4300, undefined), { keepForWorkspace: true, forgetShared: true });
  });

  it('leaves the shared port to the window that serves it, and keeps a port of its own', () => {
    const tried = choosePort({ configured: 0, workspace: 0, shared: 4300 });
    assert.deepEqual(afterStart(tried, 45123, 'elicit'), { keepForWorkspace: true, forgetShared: false });
  });

  it('forgets a shared port a stranger holds, so no other workspace offers it a token', () => {
    const tried = choosePort({ configured: 0, workspace: 0, shared: 4300 });
    assert.deepEqual(afterStart(tried, 45123, 'other'), { keepForWorkspace: true, forgetShared: true });
  });

  it('does not move a workspace’s address away from a second window on the same workspace that serves it', () => {
    const tried = choosePort({ configured: 0, workspace: 4200, shared: 0 });
    assert.deepEqual(afterStart(tried, 45123, 'elicit'), { keepForWorkspace: false, forgetShared: false });
  });

  it('moves a workspace’s address that a stranger took (the person is told and the token replaced)', () => {
    const tried = choosePort({ configured: 0, workspace: 4200, shared: 0 });
    assert.deepEqual(afterStart(tried, 45123, 'other'), { keepForWorkspace: true, forgetShared: false });
  });

  it('never forgets the shared port for a window on the configured port', () => {
    const tried = choosePort({ configured: 4100, workspace: 0, shared: 4300 });
    assert.deepEqual(afterStart(tried, 4100, undefined), { keepForWorkspace: true, forgetShared: false });
  });
});

describe('a configured gateway port and several windows', () => {
  const tried = choosePort({ configured: 4100, workspace: 0, shared: 0 });

  it('stands by while another workspace’s window served the port last (it may be reloading)', () => {
    assert.equal(standsBy(tried, { workspace: 'ws-a', port: 4100 }, 'ws-b'), true);
  });

  it('serves at once in the window that served it last, or when no window has', () => {
    assert.equal(standsBy(tried, { workspace: 'ws-a', port: 4100 }, 'ws-a'), false);
    assert.equal(standsBy(tried, undefined, 'ws-b'), false);
  });

  it('serves at once when the port changed since', () => {
    assert.equal(standsBy(tried, { workspace: 'ws-a', port: 4099 }, 'ws-b'), false);
  });

  it('never stands by without a configured port: each workspace has its own', () => {
    const own = choosePort({ configured: 0, workspace: 4200, shared: 0 });
    assert.equal(standsBy(own, { workspace: 'ws-a', port: 4200 }, 'ws-b'), false);
  });
});
