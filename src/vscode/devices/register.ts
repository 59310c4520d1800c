/**
 * Answering on a paired device: its commands, and at activation
 * the devices paired earlier served again when `elicit.devices.enabled` is on.
 * The controller, the server and the QR encoder come from their own bundle
 * (dist/devices.js, see esbuild.mjs), loaded on first use: most people never
 * pair a device, and activation stays small.
 */
import * as vscode from 'vscode';
import type { OtherWindowsForDevices } from '../../core/windows/otherWindowQuestions';
import type { Services } from '../services';
import { settings } from '../settings';
import type { DeviceController } from './deviceController';

export function registerDevices(context: vscode.ExtensionContext, services: Services, otherWindows: OtherWindowsForDevices): void {
  let controller: DeviceController | undefined;
  const devices = (): DeviceController => {
    if (!controller) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
      const { DeviceController: Controller } = require('./deviceController') as typeof import('./deviceController');
      controller = new Controller(context, services, otherWindows);
    }
    return controller;
  };
  context.subscriptions.push(
    { dispose: () => controller?.dispose() },
    vscode.commands.registerCommand('elicit.answerOnDevice', () => devices().pair()),
    vscode.commands.registerCommand('elicit.manageDevices', () => devices().manage()),
    vscode.commands.registerCommand('elicit.stopAnswerOnDevice', () => devices().turnOffSetting()),
  );
  if (settings.devicesEnabled()) {
    void devices()
      .resume()
      .catch((error: unknown) => services.log.warn(`[elicit] paired devices: ${String(error)}`));
  }
}
