/**
 * Starting an agent and getting past its sign-in. When the agent answers a
 * request with "authentication required", the person picks one of the ways it
 * offered (authMethods.ts) and Elicit does what that way needs:
 *  - agent:    `authenticate`;
 *  - env_var:  asks for the variables (or uses the ones saved for this agent),
 *              restarts the agent with them in its environment, `authenticate`s,
 *              and keeps them; a key the agent rejects is asked again, once,
 *              with the agent's reason, and is not kept;
 *  - terminal: runs the agent's own login in a terminal; exit status 0 is
 *              success, and the agent is restarted to read its new credentials.
 * An env_var method whose key is sent in `authenticate` (codex-acp's api-key)
 * is asked, kept and refused the same way, without a restart: the key goes
 * only in the request's `_meta`, never in the environment.
 * A gateway method (the person configured a gateway URL for this agent) is
 * signed in with first, before the agent is asked for anything (it may hold a
 * login of its own that would send the turns elsewhere), its key saved or asked for.
 * Then the request is tried again. Keys saved earlier are in the environment
 * from the first start, and their method is used without asking.
 * codex-acp 2.x takes any key at `authenticate` and refuses it only at the
 * first turn: retryRefusedKey forgets it, asks again with the agent's words,
 * authenticates again and retries the turn once. No vscode
 * import: the UI and the key store are passed in, so integration tests drive
 * this against the fixture agent.
 */
import type { AgentConfig } from './config';
import { AuthRequiredError, isAuthRequired, type AcpConnection } from './connection';
import {
  authenticateMeta,
  savedValuesFor,
  settableVariable,
  type AuthMethodView,
  type EnvVarAuthMethod,
  type TerminalAuthMethod,
} from './authMethods';
import { errorText } from '../core/errors';

export interface TerminalLogin {
  agent: string;
  method: string;
  command: string;
  args: string[];
  /** The configured env with the method's env over it (never saved keys). */
  env: Record<string, string>;
  /** The variables the agent's method adds: shown to the person before the terminal opens. */
  methodEnv: Record<string, string>;
  cwd?: string;
}

export interface SignInUi {
  /** The method the person picks, or undefined when they give up. `problem`: why the last try failed. */
  pickMethod(methods: readonly AuthMethodView[], problem: string | undefined, signal: AbortSignal): Promise<AuthMethodView | undefined>;
  /** The method's variables as the person typed them, or undefined when they give up. `reason`: why the agent refused the last ones. */
  askVariables(method: EnvVarAuthMethod, reason: string | undefined, signal: AbortSignal): Promise<Record<string, string> | undefined>;
  /**
   * Shows the person what the login runs and, once they agree, runs it where they can type: its exit code, undefined when
   * it ended without one (closed), `declined` when they did not agree.
   */
  runTerminalLogin(login: TerminalLogin, signal: AbortSignal): Promise<number | undefined | 'declined'>;
}

/** The variables saved for one agent configuration (SecretStorage in VS Code). */
export interface SavedKeys {
  load(): Promise<Record<string, string>>;
  save(values: Record<string, string>): Promise<void>;
  forget(names: readonly string[]): Promise<void>;
}

export interface SignInOptions<T> {
  agent: AgentConfig;
  /** Starts the agent, ending the one started before, with these variables added to its environment. */
  start(secretEnv: Record<string, string>): Promise<AcpConnection>;
  /** An agent that is already started (and maybe signed in): used instead of the first start. */
  started?: AcpConnection;
  /** What needs the sign-in: opening the session, listing sessions… Rejects with AuthRequiredError. */
  attempt(connection: AcpConnection): Promise<T>;
  /** The person asked to sign in (after a failure the agent did not call a sign-in problem): no first attempt. */
  signInFirst?: boolean;
  ui: SignInUi;
  keys: SavedKeys;
  notice(severity: 'info' | 'warning', text: string): void;
  /** Aborted when the panel closes: open prompts close and the sign-in gives up. */
  signal: AbortSignal;
}

export class NotSignedInError extends Error {}

export interface SignedIn<T> {
  connection: AcpConnection;
  result: T;
  /** The method whose key Elicit sent in `authenticate` (saved or typed), for a refusal at the first turn. */
  keyMethod?: EnvVarAuthMethod;
}

type Step = { ok: true } | { ok: false; problem?: string };

/** Runs `attempt`, signing in first when the agent asks for it (as often as the person retries). */
export async function withSignIn<T>(options: SignInOptions<T>): Promise<SignedIn<T>> {
  return new SignIn(options).run();
}

class SignIn<T> {
  private connection!: AcpConnection;
  /** The variables the running agent was started with. */
  private env: Record<string, string> = {};
  private saved: Record<string, string> = {};
  private keyMethod: EnvVarAuthMethod | undefined;

  constructor(private readonly o: SignInOptions<T>) {}

  private get name(): string {
    return this.o.agent.name;
  }

  async run(): Promise<SignedIn<T>> {
    this.saved = await this.o.keys.load();
    if (this.o.started) this.connection = this.o.started;
    else await this.restart(this.saved);
    // The person's gateway is where they want this agent's model requests to go: signed into before
    // anything else, even when the agent would start without a sign-in (a login it keeps of its own).
    const gateway = this.connection.authMethods.find((m) => m.kind === 'env_var' && m.gateway !== undefined);
    if (!this.o.signInFirst && !gateway) {
      try {
        return { connection: this.connection, result: await this.o.attempt(this.connection) };
      } catch (error) {
        if (!(error instanceof AuthRequiredError)) throw error;
      }
    }
    const methods = this.connection.authMethods;
    if (methods.length === 0) {
      throw new NotSignedInError(
        `${this.name} asks you to sign in but offers no way to do it from the editor: sign in as its documentation says, then Restart.`,
      );
    }
    // The gateway, or else a method whose keys are saved, is used without asking (unless the person asked to sign in).
    let next: AuthMethodView | undefined = this.o.signInFirst
      ? undefined
      : (gateway ?? methods.find((m) => m.kind === 'env_var' && this.savedFor(m) !== undefined));
    if (!next) this.o.notice('info', this.o.signInFirst ? `Choose how to sign in to ${this.name}.` : `${this.name} asks you to sign in.`);
    let problem: string | undefined;
    for (;;) {
      const method = next ?? (await this.o.ui.pickMethod(methods, problem, this.o.signal));
      next = undefined;
      if (!method) throw new NotSignedInError(this.connection.exitMessage ?? `Not signed in to ${this.name}. Restart to try again.`);
      const step = await this.signInWith(method);
      if (!step.ok) {
        problem = step.problem;
        if (problem) this.o.notice('warning', problem);
        continue;
      }
      this.o.notice('info', `Signed in to ${this.name} (${method.name}).`);
      this.keyMethod = method.kind === 'env_var' && method.sentIn === 'authenticate' ? method : undefined;
      try {
        const result = await this.o.attempt(this.connection);
        return { connection: this.connection, result, ...(this.keyMethod ? { keyMethod: this.keyMethod } : {}) };
      } catch (error) {
        if (!(error instanceof AuthRequiredError)) throw error;
        problem = `${this.name} still asks to sign in after ${method.name}`;
        this.o.notice('warning', problem);
      }
    }
  }

  private signInWith(method: AuthMethodView): Promise<Step> {
    switch (method.kind) {
      case 'agent':
        return this.authenticate(method);
      case 'env_var':
        return this.withVariables(method);
      case 'terminal':
        return this.inTerminal(method);
    }
  }

  private async authenticate(method: AuthMethodView, meta?: Record<string, unknown>): Promise<Step> {
    try {
      await this.connection.authenticate(method.id, meta);
      return { ok: true };
    } catch (error) {
      this.throwIfGone();
      return { ok: false, problem: `${method.name} failed: ${errorText(error)}` };
    }
  }

  private async withVariables(method: EnvVarAuthMethod): Promise<Step> {
    let values = this.savedFor(method) ?? (await this.o.ui.askVariables(method, undefined, this.o.signal));
    for (let asked = 0; values !== undefined; asked++) {
      const meta = authenticateMeta(method, values);
      if (meta === undefined && !includes(this.env, values)) await this.restart(values);
      const step = redacted(await this.authenticate(method, meta), values);
      if (step.ok) {
        await this.o.keys.save(values);
        Object.assign(this.saved, values);
        return step;
      }
      // A refused key is not kept, so the next start asks for it.
      const names = method.vars.map((v) => v.name);
      await this.o.keys.forget(names);
      for (const n of names) delete this.saved[n];
      if (asked >= 1) return step;
      values = await this.o.ui.askVariables(method, step.problem, this.o.signal);
      if (values === undefined) return step;
    }
    return { ok: false }; // the person closed the input box: back to the choice of methods
  }

  private async inTerminal(method: TerminalAuthMethod): Promise<Step> {
    const { agent } = this.o;
    const login: TerminalLogin = {
      agent: agent.name,
      method: method.name,
      command: agent.command,
      args: [...agent.args, ...method.args],
      env: { ...agent.env, ...method.env },
      methodEnv: { ...method.env },
    };
    if (agent.cwd !== undefined) login.cwd = agent.cwd;
    this.o.notice('info', `${method.name}: sign in in the terminal that opened; ${agent.name} continues when that program exits.`);
    const code = await this.o.ui.runTerminalLogin(login, this.o.signal);
    this.throwIfGone();
    if (code === 'declined') return { ok: false }; // back to the choice of methods
    if (code !== 0) {
      return {
        ok: false,
        problem: `${method.name} did not finish: ${code === undefined ? 'the terminal was closed' : `it exited with code ${code}`}`,
      };
    }
    // The agent reads the credentials its login wrote when it starts.
    await this.restart(this.env);
    return { ok: true };
  }

  private savedFor(method: AuthMethodView): Record<string, string> | undefined {
    if (method.kind !== 'env_var') return undefined;
    const values = savedValuesFor(method, this.saved);
    return values && (Object.keys(values).length > 0 || method.vars.length === 0) ? values : undefined;
  }

  private async restart(env: Record<string, string>): Promise<void> {
    // Only variables go in the environment: a key saved for `authenticate` does not.
    this.env = Object.fromEntries(Object.entries(env).filter(([name]) => settableVariable(name)));
    this.connection = await this.o.start(this.env);
  }

  private throwIfGone(): void {
    if (this.o.signal.aborted) throw new NotSignedInError(`Not signed in to ${this.name}.`);
    if (this.connection.status === 'exited') throw new Error(this.connection.exitMessage ?? `${this.name} exited`);
  }
}

export interface RefusedKeyOptions<R> {
  agent: AgentConfig;
  connection: AcpConnection;
  /** The method Elicit signed in with (SignedIn.keyMethod): its key goes in `authenticate`, so no restart is needed. */
  method: EnvVarAuthMethod;
  /** The turn: `session/prompt`. */
  run(): Promise<R>;
  ui: Pick<SignInUi, 'askVariables'>;
  keys: SavedKeys;
  notice(severity: 'info' | 'warning', text: string): void;
  signal: AbortSignal;
}

/**
 * Runs the turn; when the agent answers it "authentication required" (the key
 * it took at `authenticate` was refused by the model service), the saved key is
 * forgotten, the person is asked again with the agent's words, the new key is
 * sent in `authenticate` and the turn is run once more. A second refusal is
 * thrown as it came, with that key forgotten too.
 */
export async function retryRefusedKey<R>(o: RefusedKeyOptions<R>): Promise<R> {
  try {
    return await o.run();
  } catch (error) {
    if (!isAuthRequired(error) || o.method.sentIn !== 'authenticate') throw error;
    const names = o.method.vars.map((v) => v.name);
    const refusedValues = await o.keys.load();
    await o.keys.forget(names);
    const reason = masked(errorText(error), refusedValues);
    o.notice('warning', `${o.agent.name} refused the key at the first turn: ${reason}`);
    const values = await o.ui.askVariables(o.method, reason, o.signal);
    if (values === undefined) throw new NotSignedInError(`Not signed in to ${o.agent.name}: the key was refused and no other was given.`);
    await o.connection.authenticate(o.method.id, authenticateMeta(o.method, values));
    await o.keys.save(values);
    try {
      return await o.run();
    } catch (again) {
      if (isAuthRequired(again)) await o.keys.forget(names);
      throw again;
    }
  }
}

/** An agent that quotes the key it refused must not put it in the panel: its reason is shown with the key masked. */
function redacted(step: Step, values: Record<string, string>): Step {
  if (step.ok || step.problem === undefined) return step;
  return { ok: false, problem: masked(step.problem, values) };
}

function masked(text: string, values: Record<string, string>): string {
  let shown = text;
  for (const value of Object.values(values)) if (value.length >= 4) shown = shown.split(value).join('••••');
  return shown;
}

/** Whether the agent's environment already holds these values. */
function includes(env: Record<string, string>, values: Record<string, string>): boolean {
  return Object.entries(values).every(([k, v]) => env[k] === v);
}
