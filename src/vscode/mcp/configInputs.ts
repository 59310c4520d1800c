/**
 * Values for `${input:id}` in mcp.json, asked through Elicit's own renderers
 * when a server that uses them starts. Password inputs are kept in
 * SecretStorage per config file and reused on later starts (Manage Saved
 * Secrets forgets them), but only for a destination the person gave them to
 * (SecretGrants, the rule of `${secret:}` too): typed for one server, a saved
 * password reaches another server of the same file, or the same server once
 * its destination changed, only after the person allows it there. Other values
 * are kept for this window only.
 */
import type { Broker } from '../../core/broker/broker';
import { inputQuestionSchema, type ConfigInput, type ServerConfig } from '../../core/serverConfig';
import { inputDestination } from '../../mcp/launch';
import type { GrantSubject, SecretGrants } from '../../mcp/secretGrants';
import { serverDestination } from '../../mcp/serverOrigin';
import { CONFIGURATION_INPUT, type SecretVault } from '../secrets/secretVault';

export class ConfigInputs {
  /** Non-password values of this window, by file and id. */
  private readonly sessionValues = new Map<string, string>();
  /** One question per input at a time, even when two servers that share it start together. */
  private readonly asking = new Map<string, Promise<string>>();

  constructor(
    private readonly broker: Broker,
    private readonly vault: SecretVault,
    private readonly grants: SecretGrants,
  ) {}

  /** Every input the server uses, asked or remembered; rejects when one is not given. */
  async resolve(config: ServerConfig): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const input of config.inputs ?? []) values[input.id] = await this.valueOf(config, input);
    return values;
  }

  private async valueOf(config: ServerConfig, input: ConfigInput): Promise<string> {
    const file = config.origin?.file ?? config.source;
    const key = JSON.stringify([file, input.id]);
    if (input.type === 'promptString' && input.password) {
      const subject: GrantSubject = { kind: 'input', file, id: input.id };
      const destination = inputDestination(config, input.id, serverDestination(config));
      const saved = await this.grants.release(subject, destination, () => this.vault.getInput(file, input.id));
      if (saved !== undefined) return saved;
    } else if (this.sessionValues.has(key)) {
      return this.sessionValues.get(key)!;
    }
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.ask(config, input, file).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private async ask(config: ServerConfig, input: ConfigInput, file: string): Promise<string> {
    const result = await this.broker.ask({
      mode: 'form',
      asker: { kind: 'mcp', name: config.name, detail: CONFIGURATION_INPUT },
      noMemory: true,
      editorOnly: 'key',
      message: input.description,
      requestedSchema: inputQuestionSchema(input),
    });
    const value = result.action === 'accept' ? result.content?.[input.id] : undefined;
    if (typeof value !== 'string') {
      const why = result.action === 'accept' ? 'no value was given' : `you chose ${result.action}`;
      throw new Error(`it needs the input "${input.id}" and ${why}; start it again to enter it`);
    }
    if (input.type === 'promptString' && input.password) {
      await this.vault.saveInput(file, input.id, config.name, value);
      // Typed for this server: it may have it here, and nowhere else without asking.
      await this.grants.allow({ kind: 'input', file, id: input.id }, inputDestination(config, input.id, serverDestination(config)));
    } else this.sessionValues.set(JSON.stringify([file, input.id]), value);
    return value;
  }
}
