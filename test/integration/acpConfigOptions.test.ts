/**
 * Boolean session config options end to end at the protocol level: Elicit's
 * ACP client (AcpConnection) advertises `session.configOptions.boolean`, so
 * the fixture agent (written with the ACP SDK, offering its Fast mode toggle
 * only to a client that advertises it, as codex-acp does) sends one; the
 * panel's reading keeps it, and the request the panel builds for a toggle is
 * one the agent takes. Assertions are also on what the agent recorded.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { configOptionRequest } from '../../src/acp/configOptions';
import type { AcpConnection } from '../../src/acp/connection';
import { SessionControls } from '../../src/acp/sessionControls';
import { fixtureAgent, fixtureConnection, tempDir } from '../support/acpFixture';
import { newRecordFile, readRecords } from '../support/records';

describe('boolean config options through AcpConnection and the fixture agent', () => {
  let workspace: string;
  let record: string;
  let connection: AcpConnection;
  let sessionId: string;
  const controls = new SessionControls();

  before(async () => {
    workspace = tempDir('elicit-acp-config-');
    record = newRecordFile();
    connection = fixtureConnection(fixtureAgent('tuner', { RECORD_FILE: record, CONFIG_OPTIONS: '1' }), workspace);
    await connection.start();
    const opened = await connection.newSession(workspace);
    sessionId = opened.sessionId;
    controls.opened(opened);
  });

  after(async () => {
    await connection?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  /** Sends the request the panel builds for this change, and keeps the agent's answer as the panel does. */
  async function change(configId: string, value: string | boolean): Promise<void> {
    const request = configOptionRequest(sessionId, controls.configOption(configId)!, value);
    assert.ok(request, `a request for ${configId} = ${String(value)}`);
    const response = await connection.request('session/set_config_option', request);
    assert.equal(controls.setConfigOptions(response.configOptions), true);
  }

  it('advertises boolean config options at initialize, and the agent then offers Fast mode as a toggle', () => {
    const init = readRecords(record).find((r) => r.kind === 'initialize')!;
    assert.deepEqual((init.clientCapabilities as { session?: unknown }).session, { configOptions: { boolean: {} } });
    assert.deepEqual(
      controls.configOptions?.map((o) => [o.id, o.type, o.current]),
      [
        ['model', 'select', 'sol'],
        ['reasoning_effort', 'select', 'low'],
        ['fast', 'boolean', false],
      ],
    );
  });

  it('a toggle goes as { type: "boolean", value } and the agent answers with it on; a select still goes by value id', async () => {
    await change('fast', true);
    assert.equal(controls.configOption('fast')?.current, true);
    await change('fast', false);
    assert.equal(controls.configOption('fast')?.current, false);
    await change('model', 'luna');
    const sent = readRecords(record)
      .filter((r) => r.kind === 'set-config-option')
      .map(({ configId, value, type }) => ({ configId, value, type }));
    assert.deepEqual(sent, [
      { configId: 'fast', value: true, type: 'boolean' },
      { configId: 'fast', value: false, type: 'boolean' },
      { configId: 'model', value: 'luna', type: undefined },
    ]);
  });

  it('a refused toggle leaves the value in force: the agent says why, and its options still say off', async () => {
    const request = configOptionRequest(sessionId, controls.configOption('fast')!, true)!;
    await assert.rejects(connection.request('session/set_config_option', request), /Fast mode is not available for Luna/);
    const options = await connection.request(
      'session/set_config_option',
      configOptionRequest(sessionId, controls.configOption('model')!, 'sol')!,
    );
    controls.setConfigOptions(options.configOptions);
    assert.equal(controls.configOption('fast')?.current, false);
  });
});
