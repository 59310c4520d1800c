/**
 * Import first in a unit test of src/vscode code: `require('vscode')` (which
 * only exists inside VS Code's extension host) then gets ./vscode.ts.
 */
import Module from 'node:module';

const standIn = require.resolve('./vscode');
const resolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const resolve = resolver._resolveFilename;
resolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? standIn : resolve.call(this, request, ...rest);
};
