// A real redis-server (Debian's package, protocol-compatible with Valkey) on 127.0.0.1 at an
// ephemeral port, which a test kills (SIGKILL, as a crashed node) and restarts on the same port.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

async function freePort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

const listening = (port) => new Promise((resolve) => {
  const socket = createConnection({ port, host: '127.0.0.1' }, () => {
    socket.destroy();
    resolve(true);
  });
  socket.on('error', () => resolve(false));
});

export async function redisServer() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-redis-'));
  const port = await freePort();
  let proc = null;
  const server = {
    port,
    async start() {
      proc = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no',
        '--dir', dir, '--maxclients', '1000'], { stdio: 'ignore' });
      const failed = new Promise((_, reject) => proc.once('error', reject));
      for (const end = Date.now() + 10_000; Date.now() < end;) {
        if (await Promise.race([listening(port), failed])) return;
        await sleep(20);
      }
      throw new Error(`redis-server did not listen on 127.0.0.1:${port} within 10 s`);
    },
    async kill() {
      if (!proc) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
      proc = null;
    },
    async close() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
