/**
 * codex-acp run offline as the tests run it: a custom model provider in its CODEX_HOME that points
 * codex at a scripted Responses endpoint (responsesEndpoint.ts), needing no sign-in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const codexAcp = join(__dirname, '..', '..', 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');

/** Makes `codexHome` with a config.toml whose model provider is `modelUrl`; its key is the variable SCRIPTED_MODEL_KEY. */
export function scriptedCodexHome(codexHome: string, modelUrl: string): void {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = "${modelUrl}/v1"`,
      'env_key = "SCRIPTED_MODEL_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
}
