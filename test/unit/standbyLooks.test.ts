/**
 * What a window standing by for the configured gateway port makes of each look (src/gateway/portWatch.ts,
 * issue #57, finding 2): a stranger is reported at its first wrong answer, and only an Elicit window's
 * proof forgives it; a free look between its answers forgives nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HolderAnswer } from '../../src/process/portHolder';
import { StandbyLooks, type LookOutcome } from '../../src/gateway/portWatch';

const FREE_FOR = 30_000;

/** Each look `every` ms apart, from 0: what each one called for. */
function run(looks: StandbyLooks, holders: readonly HolderAnswer[], every = 5_000, from = 0): LookOutcome[] {
  return holders.map((holder, i) => looks.see(holder, from + i * every));
}

describe('a window standing by: what each look at the port calls for', () => {
  it('reports a stranger at its first wrong answer, once a second look a moment later finds no proof', () => {
    const looks = new StandbyLooks(FREE_FOR);
    assert.deepEqual(run(looks, ['elicit', 'other', 'other'], 1_000), ['wait', 'confirm', 'stranger']);
    assert.equal(looks.strangerSeen, true);
  });

  it('reports a squatter that lets one look in five find the port free, at once, and only once', () => {
    const looks = new StandbyLooks(FREE_FOR);
    const squatter: HolderAnswer[] = Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? 'free' : 'other'));
    const outcomes = run(looks, squatter);
    assert.deepEqual(outcomes.slice(0, 2), ['confirm', 'stranger']);
    assert.equal(outcomes.filter((o) => o === 'stranger').length, 1, 'told once, not at every answer');
    assert.ok(!outcomes.includes('take'));
  });

  it('takes a wrong answer followed by a free port for a stranger (it answered, then went), not for a reload', () => {
    const looks = new StandbyLooks(FREE_FOR);
    assert.deepEqual(run(looks, ['other', 'free'], 1_000), ['confirm', 'stranger']);
  });

  it('takes no window that just changed its token for a stranger: it proves itself with the new one', () => {
    const looks = new StandbyLooks(FREE_FOR);
    assert.deepEqual(run(looks, ['elicit', 'other', 'elicit', 'elicit'], 1_000), ['wait', 'confirm', 'wait', 'wait']);
    assert.equal(looks.strangerSeen, false);
  });

  it('counts a silent holder’s time from its first silence: free looks between forgive nothing', () => {
    const looks = new StandbyLooks(FREE_FOR);
    const dodging: HolderAnswer[] = ['silent', 'silent', 'free', 'silent', 'silent', 'free', 'silent', 'silent'];
    const outcomes = run(looks, dodging);
    assert.deepEqual(outcomes.slice(0, 6), ['wait', 'wait', 'wait', 'wait', 'wait', 'wait']);
    assert.equal(outcomes[6], 'stranger', 'silent 30 s after its first silence');
    assert.equal(outcomes[7], 'wait');
  });

  it('forgives a busy Elicit window that is slow to answer once: its next proof clears the silence', () => {
    const looks = new StandbyLooks(FREE_FOR);
    const outcomes = run(looks, ['silent', 'elicit', 'elicit', 'elicit', 'elicit', 'elicit', 'silent', 'elicit']);
    assert.ok(!outcomes.includes('stranger'));
    assert.equal(looks.strangerSeen, false);
  });

  it('tells again once an Elicit window has proved itself there in between', () => {
    const looks = new StandbyLooks(FREE_FOR);
    const outcomes = run(looks, ['other', 'other', 'other', 'elicit', 'other', 'other'], 1_000);
    assert.deepEqual(outcomes, ['confirm', 'stranger', 'wait', 'wait', 'confirm', 'stranger']);
  });

  it('takes the port over once it has stayed free long enough, not in a reload’s gap', () => {
    const looks = new StandbyLooks(FREE_FOR);
    assert.deepEqual(run(looks, ['elicit', 'free', 'free', 'elicit']), ['wait', 'wait', 'wait', 'wait']);
    const outcomes = run(
      looks,
      Array.from({ length: 8 }, (): HolderAnswer => 'free'),
      5_000,
      20_000,
    );
    assert.deepEqual(outcomes.slice(0, 6), ['wait', 'wait', 'wait', 'wait', 'wait', 'wait']);
    assert.equal(outcomes[6], 'take');
    assert.equal(looks.strangerSeen, false, 'only Elicit windows held it: the token stays');
  });

  it('says at the takeover that a stranger held the port while the window stood by, so the token is replaced', () => {
    const looks = new StandbyLooks(FREE_FOR);
    const outcomes = run(looks, ['other', 'other', ...Array.from({ length: 7 }, (): HolderAnswer => 'free')]);
    assert.equal(outcomes.at(-1), 'take');
    assert.equal(looks.strangerSeen, true);
  });

  it('takes a holder that went silent and left with no proof for a stranger at the takeover', () => {
    const looks = new StandbyLooks(FREE_FOR);
    const outcomes = run(looks, ['elicit', 'silent', ...Array.from({ length: 7 }, (): HolderAnswer => 'free')]);
    assert.ok(!outcomes.includes('stranger'), 'too short a silence to report');
    assert.equal(outcomes.at(-1), 'take');
    assert.equal(looks.strangerSeen, true);
  });
});
