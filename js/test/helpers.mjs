// What the tests share: the repository's vectors, and the `notate` command, whose outputs are
// the library's (the Rust tests check those against the vectors; these check that the
// JavaScript API gives the same).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const vectors = join(root, 'vectors');

export function read(path) {
  return readFileSync(join(vectors, path), 'utf8');
}

export function readBytes(path) {
  return readFileSync(join(vectors, path));
}

/** The `notate` command of this checkout (built by `cargo test --release`, or $NOTATE_CLI). */
export function cliPath() {
  const candidates = [
    process.env.NOTATE_CLI,
    process.env.CARGO_TARGET_DIR && join(process.env.CARGO_TARGET_DIR, 'release', 'notate'),
    join(root, 'target', 'release', 'notate'),
  ].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`the notate command is not built (looked at ${candidates.join(', ')}): cargo build --release`);
  return found;
}

/** Runs `notate ARGS` on `input`: {status, stdout (text), stderr}. */
export function cli(args, input) {
  try {
    const stdout = execFileSync(cliPath(), args, { input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
    return { status: 0, stdout: stdout.toString('utf8'), stderr: '' };
  } catch (e) {
    if (typeof e.status !== 'number') throw e;
    return { status: e.status, stdout: e.stdout.toString('utf8'), stderr: e.stderr.toString('utf8') };
  }
}

/**
 * Serves `dir` over HTTP on the loopback (a free port) with the MIME types browsers need:
 * `{server, origin}`. `extra(path, res)` may answer a path first (true when it did).
 */
export async function serveStatic(dir, extra = () => false) {
  const { createServer } = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const { extname, sep } = await import('node:path');
  const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html; charset=utf-8', '.json': 'application/json' };
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (extra(path, res)) return;
    if (path === '/favicon.ico') return res.writeHead(204).end(); // asked for by every page
    const file = join(dir, path);
    if (!file.startsWith(dir + sep)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}
