/**
 * The shared parts every feature module is wired to. extension.ts builds them
 * once; each feature has a `register…(context, services)` function.
 */
import type * as vscode from 'vscode';
import type { TurnLane } from '../core/time/turnLane';
import type { Broker } from '../core/broker/broker';
import type { UrlWaits } from '../core/broker/urlWaits';
import type { AnswerMemory } from '../core/memory/answerMemory';
import type { SecretGrants } from '../mcp/secretGrants';
import type { McpServers } from './mcpServers';
import type { QuestionsOnScreen, ResultDocuments } from './resultDocuments';
import type { SavedSecrets } from './savedSecrets';

export interface Services {
  log: vscode.LogOutputChannel;
  broker: Broker;
  /** Answers the person chose to have remembered (core/memory). */
  memory: AnswerMemory;
  vault: SavedSecrets;
  /** Where saved secrets and saved password inputs may go (the one rule: mcp/secretGrants.ts). */
  grants: SecretGrants;
  /** Settled once destination digests use the install's key (secrets/originKey.ts). */
  originKeyLoaded: Promise<void>;
  urlWaits: UrlWaits;
  registry: McpServers;
  results: ResultDocuments;
  /** What a result opening must not cover (see ResultDocuments.show). */
  questionsOnScreen: QuestionsOnScreen;
  /** context.globalState, its updates made one after another (see serialMemento.ts). */
  globalState: vscode.Memento;
  /** `elicit.timeoutSeconds` in milliseconds. */
  timeoutMs(): number;
  /** The host's one lane for reading askers' requests (core/turnLane.ts), shared with the lazily loaded bundles. */
  readingLane: TurnLane;
}
