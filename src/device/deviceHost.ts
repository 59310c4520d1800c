/**
 * Everything the editor needs to serve paired devices, loaded when devices are
 * first turned on (it travels in dist/devices.js with the VS Code layer's
 * DeviceController, see esbuild.mjs), so activation never loads the server,
 * the certificate maker or the QR encoder.
 */
export { DeviceServer, isLoopback } from './deviceServer';
export { certificateFacts, certificateFits, createDeviceCertificate } from './certificate';
export { devicePage } from './page';
export { qrRows } from './qr';
export { Pairing, shouldListen } from '../core/device/pairing';
export { DeviceRegistry } from '../core/device/devices';
export { brokerDeviceQuestions } from '../core/device/deviceQuestions';
export { withOtherWindows } from '../core/windows/otherWindowQuestions';
export { freeLoopbackPort } from './freePort';
