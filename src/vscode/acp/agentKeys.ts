/**
 * The variables a person typed for an agent's env_var sign-in (API keys), kept
 * in VS Code's SecretStorage and bound to that agent configuration: its name
 * and its whole destination (acp/config.ts agentOrigin: settings file, command,
 * args, env, cwd), so a changed entry (another program under the same name, a
 * workspace's entry, an added NODE_OPTIONS) is asked again instead of being
 * handed the key.
 * An index of the names (never the values) in global state lets Manage Saved
 * Secrets list and forget them.
 */
import * as vscode from 'vscode';
import { agentOrigin, type AgentConfig } from '../../acp/config';
import type { SavedKeys } from '../../acp/signIn';
import type { SavedAgentKey, SavedAgentKeys } from '../savedAgentKeys';

const INDEX_KEY = 'elicit.savedAgentKeys';

export class AgentKeys implements SavedAgentKeys, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    /** Settles once destination digests use the install's key (secrets/originKey.ts). */
    private readonly ready: Promise<unknown> = Promise.resolve(),
  ) {}

  list(): SavedAgentKey[] {
    return this.state.get<SavedAgentKey[]>(INDEX_KEY, []);
  }

  /** The keys of one agent configuration, for its sign-in. */
  for(agent: AgentConfig): SavedKeys {
    const bound = async (): Promise<string> => (await this.ready, bindingOf(agent));
    const mine = async (): Promise<SavedAgentKey[]> => {
      const binding = await bound();
      return this.list().filter((k) => k.agent === agent.name && k.binding === binding);
    };
    return {
      load: async () => {
        const values: Record<string, string> = {};
        for (const entry of await mine()) {
          const value = await this.secrets.get(storageKey(entry));
          if (value !== undefined) values[entry.variable] = value;
        }
        return values;
      },
      save: async (values) => {
        const binding = await bound();
        const saved = Object.entries(values).map(([variable, value]) => ({
          entry: { agent: agent.name, binding, variable, savedAt: Date.now() },
          value,
        }));
        for (const { entry, value } of saved) await this.secrets.store(storageKey(entry), value);
        const names = new Set(Object.keys(values));
        const others = this.list().filter((k) => !(k.agent === agent.name && k.binding === binding && names.has(k.variable)));
        await this.state.update(INDEX_KEY, [...others, ...saved.map((s) => s.entry)]);
        this.changes.fire();
      },
      forget: async (names) => {
        const gone = (await mine()).filter((k) => names.includes(k.variable));
        if (gone.length > 0) await this.forget(gone);
      },
    };
  }

  /** Whether any key is saved for this agent configuration. */
  has(agent: AgentConfig): boolean {
    const binding = bindingOf(agent);
    return this.list().some((k) => k.agent === agent.name && k.binding === binding);
  }

  /** Forgets every key of this agent configuration (Sign Out). */
  async forgetAgent(agent: AgentConfig): Promise<void> {
    const binding = bindingOf(agent);
    await this.forget(this.list().filter((k) => k.agent === agent.name && k.binding === binding));
  }

  async forget(entries: readonly SavedAgentKey[]): Promise<void> {
    for (const entry of entries) await this.secrets.delete(storageKey(entry));
    const gone = new Set(entries.map(storageKey));
    await this.state.update(
      INDEX_KEY,
      this.list().filter((k) => !gone.has(storageKey(k))),
    );
    this.changes.fire();
  }

  /** The SecretStorage keys of the saved keys. */
  storageKeys(): string[] {
    return this.list().map(storageKey);
  }

  dispose(): void {
    this.changes.dispose();
  }
}

export function bindingOf(agent: AgentConfig): string {
  return agentOrigin(agent).slice(0, 32);
}

/** JSON keeps "a:b" + "c" apart from "a" + "b:c". */
export function storageKey(entry: Pick<SavedAgentKey, 'agent' | 'binding' | 'variable'>): string {
  return `elicit.agentKey:${JSON.stringify([entry.agent, entry.binding, entry.variable])}`;
}
