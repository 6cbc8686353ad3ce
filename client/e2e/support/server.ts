// Starts `campus serve` for the e2e run: a free port, a fresh data dir (the
// embedded Postgres starts inside it), rate limits off, the built client.
// Builds nothing: `npm run build` (and `make build` for the binary) come first.

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLIENT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  logFile: string;
  stop: () => Promise<void>;
}

/** A free loopback port (for a server that must keep its address across a restart). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitReady(baseURL: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`campus serve exited (${exited}) before it was ready:\n${tail(logFile)}`);
    try {
      const res = await fetch(`${baseURL}/api/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`campus serve was not ready within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      ok();
    });
    child.kill('SIGTERM');
  });
}

/** Where a server keeps its data: a fresh temporary dir by default; keepData leaves it after stop (to restart on it). */
export interface ServerOptions {
  dataDir?: string;
  keepData?: boolean;
  /** The port (default a free one): a restart on the same origin keeps what identity providers registered. */
  port?: number;
  /** More environment for the server (university sign-in's variables, switches). */
  env?: Record<string, string>;
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const bin = resolve(CLIENT_DIR, process.env.CAMPUS_BIN ?? '../bin/campus');
  const dist = join(CLIENT_DIR, 'dist');
  if (!existsSync(bin)) throw new Error(`No campus binary at ${bin}: run \`make build\` first or set CAMPUS_BIN.`);
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`No built client in ${dist}: run \`npm run build\` first.`);

  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'campus-e2e-')));
  // The embedded Postgres runs as the unprivileged `postgres` user when we are
  // root: it must be able to traverse into the data dir (not list it).
  await chmod(dataDir, 0o711);
  const port = opts.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile, { flags: 'a' });

  const child = spawn(bin, ['serve'], {
    env: {
      ...process.env,
      CAMPUS_ADDR: `127.0.0.1:${port}`,
      CAMPUS_DATA_DIR: dataDir,
      CAMPUS_RATE_LIMITS: 'off',
      CAMPUS_CLIENT_DIR: dist,
      CAMPUS_PUBLIC_ORIGIN: baseURL,
      CAMPUS_LOG_FORMAT: 'json',
      CAMPUS_LOG_LEVEL: process.env.CAMPUS_LOG_LEVEL ?? 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async () => {
    await stopChild(child);
    log.end();
    if (opts.keepData || process.env.E2E_KEEP_DATA === '1') {
      console.log(`e2e: kept data dir ${dataDir}`);
    } else {
      await rm(dataDir, { recursive: true, force: true });
    }
  };

  try {
    // The embedded Postgres runs initdb on a fresh dir: give it up to 60 s.
    await waitReady(baseURL, child, logFile, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, dataDir, logFile, stop };
}
