/**
 * Answering on a paired device (issue #23): its commands, and at activation
 * the devices paired earlier served again when `elicit.devices.enabled` is on.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { DeviceController } from './deviceController';

export function registerDevices(context: vscode.ExtensionContext, services: Services): void {
  const devices = new DeviceController(context, services);
  context.subscriptions.push(
    devices,
    vscode.commands.registerCommand('elicit.answerOnDevice', () => devices.pair()),
    vscode.commands.registerCommand('elicit.manageDevices', () => devices.manage()),
    vscode.commands.registerCommand('elicit.stopAnswerOnDevice', () => devices.turnOffSetting()),
  );
  void devices.resume().catch((error: unknown) => services.log.warn(`[elicit] paired devices: ${String(error)}`));
}
