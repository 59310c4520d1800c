/**
 * Prompt arguments and resource-template variables are strings: as a form
 * for the broker, one string field each, required as the server says.
 */
import { loadSdk } from './loadSdk';
import type { Prompt, ResourceTemplate } from './types';

export interface ArgumentSpec {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

export function promptArguments(prompt: Prompt): ArgumentSpec[] {
  // Newer servers send a `title` the SDK's type does not list yet.
  return (prompt.arguments ?? []).map((arg: { name: string; title?: unknown; description?: string; required?: boolean }) => ({
    name: arg.name,
    ...(typeof arg.title === 'string' && arg.title ? { title: arg.title } : {}),
    ...(arg.description ? { description: arg.description } : {}),
    required: arg.required === true,
  }));
}

/** Every variable of an RFC 6570 template, all required (a URI needs them). */
export async function templateArguments(template: ResourceTemplate): Promise<ArgumentSpec[]> {
  const { UriTemplate } = await loadSdk();
  return [...new Set(new UriTemplate(template.uriTemplate).variableNames)].map((name) => ({ name, required: true }));
}

export async function expandTemplate(template: ResourceTemplate, values: Record<string, string>): Promise<string> {
  const { UriTemplate } = await loadSdk();
  return new UriTemplate(template.uriTemplate).expand(values);
}

export function argumentFormSchema(args: readonly ArgumentSpec[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const arg of args) {
    properties[arg.name] = {
      type: 'string',
      title: arg.title ?? arg.name,
      ...(arg.description ? { description: arg.description } : {}),
      // A required argument must not be sent empty.
      ...(arg.required ? { minLength: 1 } : {}),
    };
  }
  const required = args.filter((a) => a.required).map((a) => a.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The answer as prompt arguments: strings only, optional ones left out when empty. */
export function argumentValues(args: readonly ArgumentSpec[], content: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const arg of args) {
    const value = content[arg.name];
    if (typeof value === 'string' && (value !== '' || arg.required)) values[arg.name] = value;
  }
  return values;
}
