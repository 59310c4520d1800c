/**
 * A Streamable HTTP soak asker as the soak runs it: soak-server.mjs --http, a process of the
 * harness's own (Elicit connects to it by URL and does not start it), behind a DropProxy, so that
 * Elicit's connections to it can be dropped. Killing it and starting it again on the same port is
 * a server restart as Elicit sees one: its sessions are gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { DropProxy } from './dropProxy';

export class HttpAsker {
  private child: ChildProcess | undefined;

  private constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
    private readonly args: string[],
    readonly proxy: DropProxy,
    private port: number,
    readonly url: string,
  ) {}

  /** Starts the server on a free port and the proxy in front of it. */
  static async start(name: string, script: string, env: Record<string, string>, args: string[] = []): Promise<HttpAsker> {
    const child = await HttpAsker.spawnServer(name, script, env, args, 0);
    const port = HttpAsker.portOf.get(child)!;
    const proxy = new DropProxy(port);
    const proxyPort = await proxy.listen();
    const asker = new HttpAsker(name, script, env, args, proxy, port, `http://127.0.0.1:${proxyPort}/mcp`);
    asker.child = child;
    return asker;
  }

  private static readonly portOf = new WeakMap<ChildProcess, number>();

  private static async spawnServer(
    name: string,
    script: string,
    env: Record<string, string>,
    args: string[],
    port: number,
  ): Promise<ChildProcess> {
    const child = spawn(process.execPath, [script, '--name', name, '--http', ...args], {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    const listening = new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const match = /listening on port (\d+)/.exec(said);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening: ${said.slice(-500)}`)));
    });
    const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      HttpAsker.portOf.set(child, await listening);
    } finally {
      clearTimeout(timeout);
    }
    return child;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  /** Kills the server at once (its open questions go with it). */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }

  /** Starts it again on its port (a restarted server: the sessions it had are gone). */
  async restart(): Promise<void> {
    await this.kill();
    this.child = await HttpAsker.spawnServer(this.name, this.script, this.env, this.args, this.port);
    this.port = HttpAsker.portOf.get(this.child)!;
  }

  async stop(): Promise<void> {
    await this.kill();
    await this.proxy.close();
  }
}
