/**
 * The API `activate()` returns to other extensions (see src/api.ts). The asker
 * is the calling extension, found from the call stack: the first frame in
 * another installed extension's folder. That is advisory only: any extension in
 * the host can shape a stack (`Error.prepareStackTrace`, calling through
 * another's code), so it names the asker for the person and is trusted with
 * nothing; secretKeys.ts keeps and offers no saved secret to an 'extension' asker.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ElicitApi, ElicitApiRequest, ElicitApiResult, ElicitLocationRequest, ElicitLocationResult } from '../api';
import { askLocationQuestion } from '../core/askUser/locationQuestions';
import { readToolQuestion } from '../core/askUser/toolQuestions';
import { locationAccess } from './locationPrompt';
import type { Broker } from '../core/broker/broker';
import { InvalidRequestError } from '../core/errors';
import type { Asker } from '../core/request';

export function createPublicApi(broker: Broker, ownId: string): ElicitApi {
  async function elicit(request: ElicitLocationRequest, options?: { signal?: AbortSignal }): Promise<ElicitLocationResult>;
  async function elicit(request: ElicitApiRequest, options?: { signal?: AbortSignal }): Promise<ElicitApiResult>;
  async function elicit(
    request: ElicitApiRequest | ElicitLocationRequest,
    options?: { signal?: AbortSignal },
  ): Promise<ElicitApiResult | ElicitLocationResult> {
    const asker = callerAsker(ownId, typeof request?.detail === 'string' ? request.detail : undefined);
    if (typeof request !== 'object' || request === null || typeof request.message !== 'string') {
      throw new InvalidRequestError('elicit() needs a request with a "message" string');
    }
    const signal = options?.signal;
    if (request.mode === 'location') {
      // The tool's own rules: an accuracy, and a reason the phone can show whole.
      const question = readToolQuestion({ kind: 'location', question: request.message, accuracy: request.accuracy });
      const { action, answer, note } = await askLocationQuestion(locationAccess(broker), asker, question, signal);
      const location = answer as ElicitLocationResult['location'];
      return {
        action: action === 'accept' || action === 'denied' ? action : 'cancel',
        ...(location ? { location } : {}),
        ...(note ? { note } : {}),
      };
    }
    const result =
      request.mode === 'url'
        ? await broker.ask({
            mode: 'url',
            asker,
            message: request.message,
            url: request.url,
            elicitationId: request.elicitationId ?? randomUUID(),
            signal,
          })
        : await broker.ask({ mode: 'form', asker, message: request.message, requestedSchema: request.requestedSchema, signal });
    return result.content ? { action: result.action, content: result.content } : { action: result.action };
  }
  return { version: 1, elicit };
}

/** Named by its id (which no extension can take from another), with its display name as detail. */
function callerAsker(ownId: string, detail: string | undefined): Asker {
  const caller = callingExtension(ownId);
  if (!caller) return { kind: 'extension', name: 'an unknown extension', ...(detail ? { detail } : {}) };
  const displayName = typeof caller.packageJSON?.displayName === 'string' ? caller.packageJSON.displayName : undefined;
  const details = [displayName, detail].filter((d): d is string => !!d);
  return { kind: 'extension', name: caller.id, ...(details.length ? { detail: details.join(' · ') } : {}) };
}

function callingExtension(ownId: string): vscode.Extension<unknown> | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const files = [...stack.matchAll(/\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?/g)].map((m) =>
    m[1]!.startsWith('file://') ? vscode.Uri.parse(m[1]!).fsPath : m[1]!,
  );
  const others = vscode.extensions.all.filter((e) => e.id.toLowerCase() !== ownId.toLowerCase());
  for (const file of files) {
    const owner = others.find((e) => file.startsWith(e.extensionUri.fsPath + path.sep));
    if (owner) return owner;
  }
  return undefined;
}
