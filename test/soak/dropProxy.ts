/**
 * The soak's unreliable network (issue #37): a TCP proxy in front of one Streamable HTTP soak
 * server that forwards bytes both ways and, when the harness says so, drops a connection the way a
 * flaky network or a proxy restart does:
 *
 * - `dropOpen()`: cuts one of the connections open now (most often a client's long-lived GET
 *   stream, on which the server's questions come), both ends at once;
 * - `cutNextRequest(delivered)`: the next bytes a client sends are cut with their connection, either
 *   after they reached the server (a POST the server got, whose client never learns so) or before;
 * - `down(ms)`: the network is down for a while: every connection is cut and new ones are refused.
 */
import * as net from 'node:net';

export class DropProxy {
  private readonly server: net.Server;
  private readonly open = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private cutArmed: { delivered: boolean } | undefined;
  private downUntil = 0;
  private cutGetsUntil = 0;

  constructor(private readonly upstreamPort: number) {
    this.server = net.createServer((client) => this.accept(client));
  }

  /** Listens on a free loopback port; returns it. */
  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as net.AddressInfo).port)));
  }

  private accept(client: net.Socket): void {
    if (Date.now() < this.downUntil) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.upstreamPort, '127.0.0.1');
    const pair = { client, upstream };
    this.open.add(pair);
    const end = (): void => {
      this.open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (Date.now() < this.cutGetsUntil && chunk.subarray(0, 4).toString('latin1') === 'GET ') return end();
      const cut = this.cutArmed;
      this.cutArmed = undefined;
      if (cut && !cut.delivered) return end();
      upstream.write(chunk);
      // Once the server has read it: the request lands, its reply never does.
      if (cut) setTimeout(end, 20);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  /** Cuts one open connection at random; false when none is open. */
  dropOpen(): boolean {
    const pairs = [...this.open];
    const pair = pairs[Math.floor(Math.random() * pairs.length)];
    if (!pair) return false;
    this.open.delete(pair);
    pair.client.destroy();
    pair.upstream.destroy();
    return true;
  }

  /** The next request any client sends is cut, after it reached the server or before. */
  cutNextRequest(delivered: boolean): void {
    this.cutArmed = { delivered };
  }

  /** For `ms`, every GET (a client opening its stream of server messages) is cut before it arrives. */
  cutGets(ms: number): void {
    this.cutGetsUntil = Date.now() + ms;
  }

  /** Cuts every open connection and refuses new ones for `ms`. */
  down(ms: number): void {
    this.downUntil = Date.now() + ms;
    while (this.dropOpen());
  }

  close(): Promise<void> {
    for (const { client, upstream } of this.open) {
      client.destroy();
      upstream.destroy();
    }
    this.open.clear();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
