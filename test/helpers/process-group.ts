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

/** Sends SIGTERM to the child's whole group: what it started may outlive a child that exited. */
export function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // The group is gone already.
  }
}

export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child);
  await exited;
}
