/**
 * One HTTP/1.1 request written by hand, for what node's client will not send (two Host
 * headers): the status code of the answer.
 */
import type { Duplex } from 'node:stream';

/** Writes `head` (lines without the final blank one) and `body` on `socket`; resolves with the status code. */
export function rawStatus(socket: Duplex, head: string[], body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a status line: ${JSON.stringify(text.slice(0, 200))}`)));
    socket.write(`${[...head, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`);
  });
}
