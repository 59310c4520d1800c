/**
 * An AcpConnection wired to VS Code: questions through the broker, permission
 * QuickPicks, workspace files through editor documents, the agent's output
 * channel; and the sign-in UI (method pick, key boxes, terminal login) with
 * the keys kept in SecretStorage. Shared by the agent panel and Resume Agent
 * Session, which starts the agent before a panel exists.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentOrigin, type AgentConfig } from '../../acp/config';
import { withOrigin } from '../../core/origin';
import { AcpConnection } from '../../acp/connection';
import { retryRefusedKey, withSignIn, type RefusedKeyOptions, type SignInOptions, type SignInUi } from '../../acp/signIn';
import type { Services } from '../services';
import { localFolders } from '../localFolders';
import type { AgentKeys } from './agentKeys';
import type { AgentServerOffers } from './agentServers';
import { askVariables } from './keyPrompt';
import { askPermission } from './permissionPrompt';
import { askSignIn } from './signInPrompt';
import { runTerminalLogin } from './terminalLogin';
import { readWorkspaceText, writeWorkspaceText } from './workspaceFiles';

export interface AgentContext {
  agent: AgentConfig;
  services: Services;
  keys: AgentKeys;
  /** The agent's output channel, "Elicit agent: name". */
  log: vscode.LogOutputChannel;
  /** The session folder: the process's working directory unless the configuration names one. */
  cwd: string;
  clientVersion: string;
  /** The person's MCP servers, offered to each session (agentServers.ts). */
  servers: AgentServerOffers;
}

export function createAgentConnection(context: AgentContext, secretEnv: Record<string, string>): AcpConnection {
  const { agent, services, log, cwd } = context;
  const connection = new AcpConnection(agent, {
    // Saved answers go back only to the same agent destination, not to another agent of that name.
    ask: (request) => services.broker.ask(withOrigin(request, agentOrigin(agent))),
    permission: (prompt, signal) => askPermission(services.broker, prompt, signal),
    readTextFile: (file) => readWorkspaceText(file),
    writeTextFile: (file, content) => writeWorkspaceText(file, content, vscode.l10n.t('{0}: write {1}', agent.name, path.basename(file))),
    roots: () => localFolders().map((f) => f.uri.fsPath),
    log: (line) => log.info(line),
    urlWaits: services.urlWaits,
    clientInfo: { name: 'elicit', version: context.clientVersion },
    defaultCwd: cwd,
    secretEnv,
    terminalLogins: true,
  });
  // "This session" of the agent's remembered answers ends with its process.
  connection.onEvent((event) => {
    if (event.kind === 'exit') services.memory.endSession({ kind: 'acp', name: agent.name, origin: agentOrigin(agent) });
  });
  return connection;
}

export function signInUi(context: AgentContext): SignInUi {
  const { agent, services, cwd } = context;
  return {
    pickMethod: (methods, problem, signal) => askSignIn(services.broker, agent.name, [...methods], problem, signal),
    askVariables: (method, reason, signal) => askVariables(services.broker, agent.name, method, reason, signal),
    runTerminalLogin: (login, signal) => runTerminalLogin(login, cwd, signal),
  };
}

/** withSignIn with the VS Code UI and this agent's saved keys. */
export function signedIn<T>(
  context: AgentContext,
  options: Pick<SignInOptions<T>, 'start' | 'started' | 'attempt' | 'signInFirst' | 'notice' | 'signal'>,
) {
  return withSignIn<T>({ ...options, agent: context.agent, ui: signInUi(context), keys: context.keys.for(context.agent) });
}

/** retryRefusedKey with the VS Code key box and this agent's saved keys. */
export function refusedKeyRetried<R>(
  context: AgentContext,
  options: Pick<RefusedKeyOptions<R>, 'connection' | 'method' | 'run' | 'notice' | 'signal'>,
): Promise<R> {
  return retryRefusedKey<R>({ ...options, agent: context.agent, ui: signInUi(context), keys: context.keys.for(context.agent) });
}
