/**
 * Elicit's entry point. Activation only wires things up: servers start when
 * first used, the configuration is read when first needed. The shared parts
 * are built here; each feature registers its own commands and views.
 */
import * as vscode from 'vscode';
import { Broker } from './core/broker/broker';
import { readingLane } from './core/time/turnLane';
import { AnswerMemory } from './core/memory/answerMemory';
import { UrlWaits } from './core/broker/urlWaits';
import { SecretGrants } from './mcp/secretGrants';
import type { ElicitApi } from './api';
import { registerAcp } from './vscode/acp/register';
import { registerDevices } from './vscode/devices/register';
import { registerGateway } from './vscode/gateway/register';
import { registerMcp } from './vscode/mcp/register';
import { ASKER_RULES_KEY, secretMemoryVault } from './vscode/memory/memoryVault';
import { registerMemory } from './vscode/memory/register';
import { secretGrantPrompt } from './vscode/mcp/secretGrantPrompt';
import { ServerRegistry } from './vscode/mcp/serverRegistry';
import { defaultLocations } from './vscode/mcp/sources/configSources';
import { createPublicApi } from './vscode/publicApi';
import { KeptRounds } from './vscode/questions/keptRounds';
import { LostQuestions } from './vscode/questions/lostQuestions';
import { createRenderers, registerQuestions } from './vscode/questions/register';
import { answerKeptRound } from './vscode/mcp/keptRoundAnswer';
import { OtherWindows } from './vscode/windows/otherWindows';
import { ResultDocuments, type QuestionsOnScreen } from './vscode/resultDocuments';
import { trackWalkthrough } from './vscode/walkthroughProgress';
import { registerSecrets } from './vscode/secrets/register';
import { loadOriginKey } from './vscode/secrets/originKey';
import { SecretVault } from './vscode/secrets/secretVault';
import { SerialMemento } from './vscode/secrets/serialMemento';
import type { Services } from './vscode/services';
import { readOnChange, SETTING, settings } from './vscode/settings';
import { registerElicitTool } from './vscode/tool/register';
import { acceptsFiles, registerFileFields } from './vscode/files/register';
import { registerAppQuestions } from './vscode/apps/register';

export function activate(context: vscode.ExtensionContext): ElicitApi {
  const started = performance.now(); // read back by `npm run bench` from the "Elicit" log
  const log = vscode.window.createOutputChannel('Elicit', { log: true });
  const globalState = new SerialMemento(context.globalState);
  const workspaceState = new SerialMemento(context.workspaceState);
  // Before any server is read: every grant and saved answer is keyed by a digest under this key.
  const originKeyLoaded = loadOriginKey(context.secrets, log);
  const vault = new SecretVault(context.secrets, globalState);
  const keptRounds = new KeptRounds(context.secrets, workspaceState, globalState, log);
  void keptRounds.sweepOrphans();
  const urlWaits = new UrlWaits();
  // Read on every question's path: read again only after they change.
  const timeoutMs = readOnChange(SETTING.timeoutSeconds, settings.timeoutMs);
  const rememberAnswers = readOnChange(SETTING.rememberAnswers, settings.rememberAnswers);
  const maxPendingPerAsker = readOnChange(SETTING.maxPendingPerAsker, settings.maxPendingPerAsker);
  const presentation = readOnChange(SETTING.presentation, settings.presentation);
  context.subscriptions.push(timeoutMs, rememberAnswers, maxPendingPerAsker, presentation);
  // Remembered answers: "always" ones in SecretStorage only, read before the first question can use them.
  const memory = new AnswerMemory(
    secretMemoryVault(context.secrets),
    rememberAnswers,
    Date.now,
    secretMemoryVault(context.secrets, ASKER_RULES_KEY),
  );
  void memory.load().catch((error: unknown) => log.warn(`[elicit] remembered answers could not be read: ${String(error)}`));
  void memory.rules.load().catch((error: unknown) => log.warn(`[elicit] rules per asker could not be read: ${String(error)}`));
  const renderers = createRenderers(context.extensionUri, { vault, keptRounds, urlWaits, timeoutMs, log, memory });
  const broker = new Broker(renderers.router, {
    timeoutMs,
    maxPendingPerAsker,
    presentation,
    memory,
    readingLane,
    acceptsFiles,
  });
  const results = new ResultDocuments();
  const questionsOnScreen: QuestionsOnScreen = {
    showing: () => broker.pending().some((question) => question.state === 'showing'),
    bringForward: () => renderers.forms.bringForward(),
  };
  const grants = new SecretGrants(
    globalState,
    (name) => vault.getNamed(name),
    secretGrantPrompt((title, text) => results.showPlain(title, text)),
  );
  const registry = new ServerRegistry(
    (request) => broker.ask(request),
    log,
    urlWaits,
    (name, destination) => grants.lookup(name, destination),
    defaultLocations(context.globalStorageUri),
  );
  registry.keepRoundsIn(keptRounds);
  context.subscriptions.push(registry.onDidEndProcess((asker) => memory.endSession(asker)));
  registry.readAfter(originKeyLoaded);
  const lostQuestions = new LostQuestions(broker, workspaceState);
  // Typed as built, not as Services: the features that own the vault and the registry get them whole.
  const services = {
    log,
    broker,
    memory,
    vault,
    grants,
    originKeyLoaded,
    urlWaits,
    registry,
    results,
    questionsOnScreen,
    globalState,
    timeoutMs,
    readingLane,
  } satisfies Services;

  context.subscriptions.push(
    { dispose: () => void closing?.() },
    log,
    vault,
    keptRounds,
    lostQuestions,
    registry,
    results,
    trackWalkthrough(services),
    vscode.commands.registerCommand('elicit.showLog', () => log.show()),
  );
  // One queue across every window: Pending Questions lists it, paired devices too.
  const otherWindows = new OtherWindows(
    broker,
    renderers.router,
    (question) => renderers.forms.reveal(question),
    context.globalStorageUri,
    log,
  );
  // One line per feature.
  registerQuestions(context, services, renderers, {
    keptRounds,
    lostQuestions,
    others: otherWindows,
    answerKept: (round) => answerKeptRound(services, keptRounds, round),
  });
  registerMcp(context, services);
  const agents = registerAcp(context, services);
  registerSecrets(context, services, agents.keys);
  const gateway = registerGateway(context, services);
  registerElicitTool(context, services);
  registerMemory(context, services);
  registerFileFields(context, services);
  registerAppQuestions(context, services.registry);
  registerDevices(context, services, otherWindows);

  // Before anything else is disposed as the window closes: questions ending with it stay kept or listed as lost.
  // HTTP sessions are ended too, at once (the host may be given little time; dispose() cannot wait for their DELETE).
  // Settled, not all: one failing (VS Code has already cut the host's channels) must not end the wait for the others.
  // The gateway's agents (and the agent sessions' calls to the person's servers) are told after the freeze,
  // so the questions their calls leave are listed as lost or kept;
  // the tasks their calls ran are cancelled at the servers, which nobody would do after the window.
  closing = async () => {
    await Promise.allSettled([
      keptRounds.freeze(),
      lostQuestions.freeze(),
      registry.endHttpSessions(),
      registry.taskCancelsSent(Promise.allSettled([gateway.closeWithWindow(), agents.servers.closeWithWindow()])),
    ]);
  };

  log.info(`activated in ${(performance.now() - started).toFixed(1)} ms`);
  return createPublicApi(broker, context.extension.id);
}

/** Set at activation: marks what is open as outliving the window, before the servers stop. */
let closing: (() => Promise<void>) | undefined;

export async function deactivate(): Promise<void> {
  await closing?.();
  // Everything else is disposed through context.subscriptions, which stops every server.
}
