/**
 * The one-minute soak (issue #37) in `npm test`: the soak of `npm run soak` (test/soak/runSoak.ts),
 * shorter and with faults more often. A real code-server with the built VSIX; ten askers
 * (2025-11-25 stdio and Streamable HTTP asking on their own, 2026-07-28 stdio and HTTP asking in
 * rounds or from a task of the tasks extension when the soak's agent calls them through the
 * gateway); a paired phone answering through the device API; servers killed, hung and restarted,
 * connections dropped and cut, the network down, Reload Window (the first while a round of a tool
 * the person ran waits, answered in the editor after it) and a second window. The ledger
 * must find every question's fate right, no answer refused, no asker silenced, nothing left
 * running, no window's socket left behind, and the driver must have measured the host.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatResult, passed, runSoak } from '../soak/runSoak';

describe('the one-minute soak', { timeout: 600_000 }, () => {
  it('gives every question one right fate while servers die, hang and lose their connections', async () => {
    const result = await runSoak({
      minutes: 1,
      servers: 10,
      http: 3,
      rounds: 3,
      tasks: 2,
      meanMs: 1500,
      faultMs: 3000,
      windowFaults: 0.1,
      // At most one reload in 40 s, the first after 20 s; one by 24 s, none in the second half.
      reloadFaults: 0.3,
    });
    const printed = formatResult(result);
    console.log(printed);
    assert.ok(passed(result), printed);
    assert.ok(result.report.asked >= 100, `only ${result.report.asked} questions asked\n${printed}`);
    assert.ok(result.report.fates.answered > 0 && result.report.fates.declined > 0, printed);
    const faults = Object.values(result.report.faults).reduce((sum, n) => sum + n, 0);
    assert.ok(faults >= 5, `only ${faults} faults\n${printed}`);
    assert.ok(result.host, `the driver did not measure the host\n${printed}`);
    // The first reload comes while a round of a tool the person ran waits; the person answers it after.
    assert.equal(result.report.keptRounds.kept, 1, printed);
    assert.equal(result.report.keptRounds.answered, 1, printed);
  });
});
