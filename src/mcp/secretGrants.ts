/**
 * A saved secret goes only where the person allowed it. `${secret:NAME}` in a
 * config is an address anyone who can edit that config (an agent with file
 * access, too) may write; so the first time a server would receive a secret,
 * the person is asked, naming the secret, the server and where the value goes,
 * and the answer is remembered per secret and destination (the server's
 * origin: config file plus command and args, or URL origin).
 */
import type { SecretDestination } from './launch';

/** The shape of `vscode.Memento`: the remembered answers (names and origins only, never values). */
export interface GrantStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** true: allowed, false: refused, undefined: the person closed the question without answering. */
export type AskGrant = (name: string, destination: SecretDestination) => Promise<boolean | undefined>;

export class SecretNotGrantedError extends Error {}

const GRANTS_KEY = 'elicit.secretGrants';

export class SecretGrants {
  /** One question at a time: two servers starting together must not ask twice for the same grant. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: GrantStore,
    private readonly read: (name: string) => Promise<string | undefined>,
    private readonly ask: AskGrant,
  ) {}

  /** The secret's value for this destination, asking the person the first time; throws when refused. */
  lookup(name: string, destination: SecretDestination): Promise<string | undefined> {
    const run = this.queue.then(() => this.decide(name, destination));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Forgets every answer about a secret (when the secret itself is forgotten). */
  async forget(name: string): Promise<void> {
    const kept = Object.entries(this.grants()).filter(([key]) => (JSON.parse(key) as string[])[0] !== name);
    await this.store.update(GRANTS_KEY, Object.fromEntries(kept));
  }

  private async decide(name: string, destination: SecretDestination): Promise<string | undefined> {
    const value = await this.read(name);
    if (value === undefined) return undefined; // launch.ts says it is not saved
    const key = JSON.stringify([name, destination.origin]);
    let allowed: boolean | undefined = this.grants()[key];
    if (allowed === undefined) {
      allowed = await this.ask(name, destination);
      if (allowed === undefined)
        throw new SecretNotGrantedError(`\${secret:${name}} was not given to it: the question was closed unanswered`);
      await this.store.update(GRANTS_KEY, { ...this.grants(), [key]: allowed });
    }
    if (!allowed)
      throw new SecretNotGrantedError(
        `\${secret:${name}} was not given to it: you refused (Elicit: Manage Saved Secrets forgets the answer)`,
      );
    return value;
  }

  private grants(): Record<string, boolean> {
    return this.store.get<Record<string, boolean>>(GRANTS_KEY, {});
  }
}
