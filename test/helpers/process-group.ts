// A child process started in its own process group (spawn with `detached: true`): its output
// collected, and a stop that ends the whole group (what it started too: workerd under wrangler,
// Next's workers) and waits for the child's exit.
import type { ChildProcess } from 'node:child_process';

export function collectOutput(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return () => output;
}

export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // The group is gone already; the exit event follows.
  }
  await exited;
}
