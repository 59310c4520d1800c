/**
 * The gateway's commands (Start, Stop, Copy Config, Rotate Token), and its
 * start at activation when `elicit.gateway.enabled` is on.
 */
import * as vscode from 'vscode';
import { settings } from '../settings';
import type { Services } from '../services';
import { GatewayController } from './gatewayController';

/** Returns the gateway, for the window's closing to end its calls. */
export function registerGateway(context: vscode.ExtensionContext, services: Services): GatewayController {
  const gateway = new GatewayController(context, services);
  context.subscriptions.push(
    gateway,
    vscode.commands.registerCommand('elicit.startGateway', () => gateway.start(true)),
    vscode.commands.registerCommand('elicit.stopGateway', () => gateway.stop()),
    vscode.commands.registerCommand('elicit.copyGatewayConfig', () => gateway.copyConfig()),
    vscode.commands.registerCommand('elicit.rotateGatewayToken', () => gateway.rotateToken()),
  );
  if (settings.gatewayEnabled()) void gateway.start(false);
  return gateway;
}
