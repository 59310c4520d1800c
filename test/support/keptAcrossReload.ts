/**
 * A RoundKeeper for tests that keeps each round as KeptRounds does (through
 * JSON), as it would be read back after a window reload.
 */
import type { OpenRound, RoundKeeper } from '../../src/mcp/rounds';

export class KeptAcrossReload implements RoundKeeper {
  readonly rounds: OpenRound[] = [];
  keep(round: OpenRound): { id: string; release(): void } {
    this.rounds.push(JSON.parse(JSON.stringify(round)) as OpenRound);
    return { id: `kept-${this.rounds.length}`, release: () => undefined };
  }
}
