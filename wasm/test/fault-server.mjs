// Starts tests/faults/fault_server.py for a Node-side test and reads its ports; the server stops
// when its stdin closes (close(), or this process's exit).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const SERVER = new URL('../../tests/faults/fault_server.py', import.meta.url).pathname;

/** Returns { base, refused, openConnections(), close() }. */
export async function startFaultServer() {
  const proc = spawn('python3', [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const { port, refused_port: r } = JSON.parse((await lines.next()).value);
  const base = `http://127.0.0.1:${port}`;
  const open = async () => (await (await fetch(`${base}/_stats`, { cache: 'no-store' })).json()).open;
  return {
    base,
    refused: `http://127.0.0.1:${r}`,
    // Connections close a moment after a loop ends (the server sees a stalled or trickled one
    // closed at its next read or write); the count includes the _stats one. Up to 10 s on a busy
    // machine.
    async openConnections() {
      for (let i = 0; i < 200; i++) {
        const n = await open();
        if (n <= 1) return n;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return open();
    },
    close: () => proc.stdin.end(),
  };
}
