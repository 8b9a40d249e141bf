// Starts a Worker with `wrangler dev` (workerd underneath, as on Cloudflare) on free loopback
// ports, with its local state in a temporary folder, and stops it with its workerd.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wrangler = join(root, 'node_modules/.bin/wrangler');

export interface RunningWorker {
  origin: string;
  output: () => string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** `vars` become the Worker's environment variables (`--var NAME:VALUE`), as .dev.vars would set them. */
export async function startWranglerDev(config: string, timeoutMs = 90_000, vars: Record<string, string> = {}): Promise<RunningWorker> {
  if (!existsSync(wrangler)) throw new Error('wrangler is not installed: run `npm install` (it is a devDependency).');
  const state = mkdtempSync(join(tmpdir(), 'chatbot-wrangler-'));
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    wrangler,
    ['dev', '--config', config, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort), '--persist-to', state, '--show-interactive-dev-session=false', '--log-level', 'warn', ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`])],
    {
      cwd: root,
      // Its own process group, so stopping it stops the workerd it started too.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // No metrics and no download of the Request.cf sample: the tests stay off the network.
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true', NO_COLOR: '1' },
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(state, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  // --log-level warn hides the "Ready on" line: poll the port instead.
  while (true) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(origin, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`wrangler dev did not answer on ${origin} within ${timeoutMs / 1000} s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return { origin, output: () => output, stop };
}
