/**
 * Everything the editor needs to serve paired devices, in one bundle of its
 * own (dist/device-host.js, see esbuild.mjs): loaded when devices are first
 * turned on, so activation never loads the server, the certificate maker or
 * the QR encoder. The VS Code layer imports only types from here at the top.
 */
export { DeviceServer, isLoopback } from './deviceServer';
export { certificateFacts, certificateFits, createDeviceCertificate } from './certificate';
export { devicePage } from './page';
export { qrRows } from './qr';
export { Pairing, shouldListen } from '../core/device/pairing';
export { DeviceRegistry } from '../core/device/devices';
export { brokerDeviceQuestions } from '../core/device/deviceQuestions';
export { freeLoopbackPort } from './freePort';
