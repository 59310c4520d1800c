/**
 * A remembered round answers itself (issue #22), in code-server: the four
 * questions of a 2026-07-28 round (test/fixtures/mrtr-server.mjs) answered in
 * one form with "Remember: this session" are each remembered on their own;
 * the second time the round is answered with no UI, and the server receives
 * the same four answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  chooseInDropdown,
  pickQuickPickItem,
  readQuickInput,
  runCommandShowing,
  screenshot,
  waitForQuickInput,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, waitForRecords } from '../support/records';

const TITLE = 'songs asks · tool song_sketch';

describe('a remembered round in code-server', { timeout: 600_000 }, () => {
  const songs = newRecordFile();
  let session: ElicitSession;

  before(async () => {
    const songsServer = fixtureServer('mrtr-server.mjs', { RECORD_FILE: songs, FIXTURE_NAME: 'songs' });
    session = await openElicitSession(JSON.stringify({ servers: { songs: songsServer } }));
  });

  after(async () => {
    await session?.close();
  });

  const page = (): Page => session.workbench.page;

  async function runSketch(): Promise<void> {
    await runCommandShowing(page(), 'Elicit: Run MCP Tool', (q) => q.items.length > 0);
    await waitForQuickInput(page(), (q) => q.items.some((i) => i.label === 'song_sketch'));
    await pickQuickPickItem(page(), 'song_sketch');
  }

  it('answers a round of four remembered questions by itself, and the server gets the same four answers', async () => {
    await runSketch();
    const frame = await webviewFrame(page(), TITLE);
    await frame.locator('.field[data-name="0:name"] input.text-input').fill('Amber');
    await chooseInDropdown(page(), frame.locator('.field[data-name="1:key"] select'), 'A minor');
    await frame.locator('.field[data-name="2:bpm"] input.text-input').fill('96');
    await frame.locator('.field[data-name="3:loop"] label.checkbox-label').click();
    await chooseInDropdown(page(), frame.locator('footer select.remember'), 'Remember: this session');
    await screenshot(page(), 'remembered-round-first');
    await frame.getByRole('button', { name: 'Submit' }).click();
    const first = await waitForRecords(songs, 2, (r) => r.tool === 'song_sketch');
    const answers = {
      name: { action: 'accept', content: { name: 'Amber' } },
      key: { action: 'accept', content: { key: 'Am' } },
      bpm: { action: 'accept', content: { bpm: 96 } },
      loop: { action: 'accept', content: { loop: true } },
    };
    assert.deepEqual(first[1]!.inputResponses, answers);
    await page().locator('.tabs-container .tab', { hasText: TITLE }).waitFor({ state: 'detached', timeout: 20_000 });

    await runSketch();
    const again = await waitForRecords(songs, 4, (r) => r.tool === 'song_sketch');
    assert.equal(again[2]!.inputResponses, undefined, 'the first leg asks');
    assert.deepEqual(again[3]!.inputResponses, answers, 'the retry carries the same four answers');
    assert.equal(await page().locator('.tabs-container .tab', { hasText: TITLE }).count(), 0, 'no form was opened');
    assert.equal((await readQuickInput(page()))?.title, undefined, 'no question was shown');
    await page().locator('.statusbar-item', { hasText: 'Answered for songs' }).first().waitFor({ timeout: 10_000 });
  });
});
