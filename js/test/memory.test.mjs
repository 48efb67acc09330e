// Large inputs stream: a 100 MB PGN file (written here a piece at a time, never held whole),
// read through fs.createReadStream by streamGames with the JavaScript heap and the
// WebAssembly memory both under 100 MB.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { streamGames } from '../dist/index.js';
import { wasmMemoryBytes } from '../dist/core.js';

// The heap is measured after a full collection: what is kept, not garbage V8 has not yet
// collected (how much it lets pile up depends on the machine's memory).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

const GAME =
  '[Event "Rated Blitz game"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n' +
  '1. e4 { [%clk 0:03:00] } e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 ' +
  '8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 ' +
  '16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 1-0\n\n';

/** Writes at least `bytes` of games to `path`, 64 KB at a time. */
async function writePgn(path, bytes) {
  const chunk = Buffer.from(GAME.repeat(Math.ceil((64 << 10) / GAME.length)));
  const out = createWriteStream(path);
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

test('a 100 MB PGN file read with heap and WebAssembly memory under 100 MB', async (t) => {
  const size = 100 << 20;
  const dir = mkdtempSync(join(tmpdir(), 'notate-memory-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'games.pgn');
  await writePgn(path, size);
  assert.ok(statSync(path).size >= size);
  let games = 0;
  let plies = 0;
  let heap = 0;
  for await (const game of streamGames(createReadStream(path))) {
    games += 1;
    plies += game.moves.length;
    if (games % 2000 === 0) {
      collectGarbage();
      heap = Math.max(heap, process.memoryUsage().heapUsed);
    }
  }
  const wasm = wasmMemoryBytes();
  const mb = (n) => `${(n / (1 << 20)).toFixed(1)} MB`;
  process.stderr.write(`# ${games} games, ${plies} plies; heap kept at most ${mb(heap)}, wasm memory ${mb(wasm)}\n`);
  assert.ok(games * GAME.length >= size, `${games} games`);
  assert.equal(plies, games * 40);
  assert.ok(heap < 100 << 20, `heap ${mb(heap)}`);
  assert.ok(wasm < 100 << 20, `wasm memory ${mb(wasm)}`);
});
