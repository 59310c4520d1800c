/**
 * Values for `${input:id}` in mcp.json, asked through Elicit's own renderers
 * when a server that uses them starts (a `command` input runs its VS Code
 * command instead, once the person allowed that command with its args for the
 * destination). Password inputs are kept in SecretStorage per config file and
 * reused on later starts (Manage Saved Secrets forgets them), but only for a
 * destination the person gave them to (SecretGrants, the rule of `${secret:}`
 * too): typed for one server, a saved password reaches another server of the
 * same file, or the same server once its destination changed, only after the
 * person allows it there. Other values are kept for this window only.
 */
import * as vscode from 'vscode';
import type { Broker } from '../../core/broker/broker';
import {
  inputQuestionSchema,
  type CommandInput,
  type ConfigInput,
  type PickStringInput,
  type PromptStringInput,
  type ServerConfig,
} from '../../core/mcpConfig/serverConfig';
import { canonicalArgs } from '../../core/origin';
import { inputDestination } from '../../mcp/launch';
import type { GrantSubject, SecretGrants } from '../../mcp/secretGrants';
import { serverDestination } from '../../mcp/serverOrigin';
import { CONFIGURATION_INPUT, type SavedSecrets } from '../savedSecrets';

export class ConfigInputs {
  /** Non-password values of this window, by file and id. */
  private readonly sessionValues = new Map<string, string>();
  /** One question per input at a time, even when two servers that share it start together. */
  private readonly asking = new Map<string, Promise<string>>();

  constructor(
    private readonly broker: Broker,
    private readonly vault: SavedSecrets,
    private readonly grants: SecretGrants,
    /** Runs a VS Code command (vscode.commands.executeCommand; VS Code passes an input's `args` as one argument). */
    private readonly runCommand: (command: string, args: unknown) => Thenable<unknown> = (command, args) =>
      args === undefined ? vscode.commands.executeCommand(command) : vscode.commands.executeCommand(command, args),
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
    if (input.type === 'command') return this.commandValue(config, input, file);
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

  /**
   * A `command` input: the VS Code command's result. Any file can name any
   * command with any args, so it runs for a destination only once the person
   * allowed that command with those args there (SecretGrants, asked like a saved
   * secret); its value is kept for this window, for that command and args.
   */
  private async commandValue(config: ServerConfig, input: CommandInput, file: string): Promise<string> {
    const subject: GrantSubject = {
      kind: 'command',
      file,
      id: input.id,
      command: input.command,
      ...(input.args !== undefined ? { args: input.args } : {}),
    };
    const destination = inputDestination(config, input.id, serverDestination(config));
    // Asked before the kept value is used: the result may be a key, and another server gets it only once allowed too.
    await this.grants.release(subject, destination, async () => '');
    const key = JSON.stringify([file, input.id, input.command, input.args === undefined ? [] : [canonicalArgs(input.args)]]);
    const kept = this.sessionValues.get(key);
    if (kept !== undefined) return kept;
    const result: unknown = await this.runCommand(input.command, input.args);
    if (typeof result !== 'string' && typeof result !== 'number' && typeof result !== 'boolean') {
      throw new Error(`its input "${input.id}" runs the command ${input.command}, which gave no value`);
    }
    const value = String(result);
    this.sessionValues.set(key, value);
    return value;
  }

  private async ask(config: ServerConfig, input: PromptStringInput | PickStringInput, file: string): Promise<string> {
    const result = await this.broker.ask({
      mode: 'form',
      asker: { kind: 'mcp', name: config.askerName ?? config.name, detail: CONFIGURATION_INPUT },
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
