/**
 * A saved secret goes only where the person allowed it: the one rule for a
 * saved `${secret:NAME}` and a saved `${input:id}` password. A reference in a
 * config is an address anyone who can edit that config (an agent with file
 * access, too) may write; so the first time a destination would receive a
 * saved value, the person is asked, naming the value, the server and where it
 * goes, and the answer is remembered per value and destination: the whole
 * destination (core/origin.ts), so a changed env, cwd, envFile, URL or header
 * is asked about again, with what changed since it was allowed. A `command`
 * input's grant is for its command and args too: edited args are asked about
 * again like a changed destination.
 */
import { commandArgsDigest, destinationChanges, destinationDigests, type DestinationLine } from '../core/origin';
import type { SecretDestination } from './launch';

/** The shape of `vscode.Memento`: the remembered answers (names and digests only, never values). */
export interface GrantStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/**
 * What would be given: a named secret, a password input saved for a config
 * file, or the result of a `command` input: the VS Code command it runs with
 * its `args` (absent when the input has none), both part of the grant, since
 * the args decide what the command does.
 */
export type GrantSubject =
  | { kind: 'secret'; name: string }
  | { kind: 'input'; file: string; id: string }
  | { kind: 'command'; file: string; id: string; command: string; args?: unknown };

/**
 * true: allowed, false: refused, undefined: the person closed the question without answering.
 * `changes`: what differs from where this value was allowed before for the same server (empty the first time).
 */
export type AskGrant = (
  subject: GrantSubject,
  destination: SecretDestination,
  changes: readonly DestinationLine[],
) => Promise<boolean | undefined>;

export class SecretNotGrantedError extends Error {}

const GRANTS_KEY = 'elicit.secretGrants';
/** Per value, file and server: the digests of the destination last allowed, to say what changed. */
const ALLOWED_KEY = 'elicit.allowedDestinations';

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
    return this.release({ kind: 'secret', name }, destination, () => this.read(name));
  }

  /** A saved value (`read`) for this destination, asking the person the first time; throws when refused. */
  release(subject: GrantSubject, destination: SecretDestination, read: () => Promise<string | undefined>): Promise<string | undefined> {
    const run = this.queue.then(() => this.decide(subject, destination, read));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Records that the person gave this value for this very destination (they typed it when it asked). */
  async allow(subject: GrantSubject, destination: SecretDestination): Promise<void> {
    await this.remember(subject, destination, true);
  }

  /** Forgets every answer about a secret (when the secret itself is forgotten). */
  async forget(name: string): Promise<void> {
    await this.forgetSubject(subjectId({ kind: 'secret', name }));
  }

  /** Forgets every answer about a saved input (when the input is forgotten). */
  async forgetInput(file: string, id: string): Promise<void> {
    await this.forgetSubject(subjectId({ kind: 'input', file, id }));
  }

  private async forgetSubject(id: string): Promise<void> {
    const mine = (key: string): boolean => (JSON.parse(key) as string[])[0] === id;
    await this.store.update(GRANTS_KEY, Object.fromEntries(Object.entries(this.grants()).filter(([key]) => !mine(key))));
    await this.store.update(ALLOWED_KEY, Object.fromEntries(Object.entries(this.allowed()).filter(([key]) => !mine(key))));
  }

  private async decide(
    subject: GrantSubject,
    destination: SecretDestination,
    read: () => Promise<string | undefined>,
  ): Promise<string | undefined> {
    const value = await read();
    if (value === undefined) return undefined; // the caller says it is not saved
    let allowed: boolean | undefined = this.grants()[grantKey(subject, destination)];
    if (allowed === undefined) {
      const before = this.allowed()[allowedKey(subject, destination)];
      allowed = await this.ask(subject, destination, before ? destinationChanges(before, destination.destination) : []);
      if (allowed === undefined)
        throw new SecretNotGrantedError(`${reference(subject)} was not given to it: the question was closed unanswered`);
      await this.remember(subject, destination, allowed);
    }
    if (!allowed)
      throw new SecretNotGrantedError(
        `${reference(subject)} was not given to it: you refused (Elicit: Manage Saved Secrets forgets the answer)`,
      );
    return value;
  }

  private async remember(subject: GrantSubject, destination: SecretDestination, allowed: boolean): Promise<void> {
    await this.store.update(GRANTS_KEY, { ...this.grants(), [grantKey(subject, destination)]: allowed });
    if (allowed) {
      const digests = destinationDigests(destination.destination);
      await this.store.update(ALLOWED_KEY, { ...this.allowed(), [allowedKey(subject, destination)]: digests });
    }
  }

  private grants(): Record<string, boolean> {
    return this.store.get<Record<string, boolean>>(GRANTS_KEY, {});
  }

  private allowed(): Record<string, Record<string, string>> {
    return this.store.get<Record<string, Record<string, string>>>(ALLOWED_KEY, {});
  }
}

/**
 * A secret by its name (as before); an input by its file and id, under a prefix no secret name can have;
 * a command input by its whole definition, so a grant kept before its args were part of it asks again.
 */
function subjectId(subject: GrantSubject): string {
  if (subject.kind === 'command')
    return `command:${JSON.stringify([subject.file, subject.id, subject.command, commandArgsDigest(subject.args)])}`;
  return subject.kind === 'secret' ? subject.name : `input:${JSON.stringify([subject.file, subject.id])}`;
}

function grantKey(subject: GrantSubject, destination: SecretDestination): string {
  return JSON.stringify([subjectId(subject), destination.origin]);
}

function allowedKey(subject: GrantSubject, destination: SecretDestination): string {
  return JSON.stringify([subjectId(subject), destination.destination.file, destination.server]);
}

function reference(subject: GrantSubject): string {
  if (subject.kind === 'command') return `the result of the command ${subject.command} (\${input:${subject.id}})`;
  return subject.kind === 'secret' ? `\${secret:${subject.name}}` : `the saved input \${input:${subject.id}}`;
}
