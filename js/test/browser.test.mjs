// The built package works in a real browser (Debian's chromium, driven by playwright-core):
// served over HTTP with the right MIME types, index.js and formatconverter.js load the
// WebAssembly themselves (top-level await), PGN errors keep their place, a download streams
// through streamGames (response.body), coordinates past
// 2^53 come back as BigInt, Shift_JIS bytes are read, and manual.js runs after
// `init(bytes)` in a page that never loaded the module otherwise. Every request stays on
// the loopback server and no page logs an error or a warning (a wrong wasm MIME type warns).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './helpers.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CHROMIUM = '/usr/bin/chromium';
const EMPTY = '<!doctype html><meta charset="utf-8"><title>empty</title>';

const STREAMED_GAMES = 2000;
/** Game `i` of /stream.pgn: the 13th is illegal. */
const streamedGame = (i) => `[Event "g${i}"]\n\n1. e4 e5 2. Nf3 ${i === 12 ? 'Ke3' : 'Nc6'} 3. Bb5 a6 *\n\n`;

let server, origin, browser, context, page;
const requests = [];
const problems = [];

before(async () => {
  ({ server, origin } = await serveStatic(root, (path, res) => {
    if (path === '/stream.pgn') {
      // Sent in pieces, as a large download arrives.
      res.writeHead(200, { 'content-type': 'application/vnd.chess-pgn' });
      for (let i = 0; i < STREAMED_GAMES; i++) res.write(streamedGame(i));
      res.end();
      return true;
    }
    if (path !== '/empty.html') return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(EMPTY);
    return true;
  }));
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: this test needs Debian's chromium (apt-get install chromium)`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  context = await browser.newContext();
  context.on('request', (request) => requests.push(request.url()));
  page = await open('/test/browser/page.html');
  await page.waitForFunction(() => window.notateReady === true, null, { timeout: 20000 });
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
});

/** A new page at `path`, its console errors and warnings and uncaught errors recorded. */
async function open(path) {
  const page = await context.newPage();
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`${path}: console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`${path}: uncaught: ${e.message}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${path}: HTTP ${r.status()} for ${r.url()}`));
  const response = await page.goto(origin + path);
  assert.equal(response.status(), 200, path);
  return page;
}

test('index.js: PGN to UCI, the illegal move collected with its place', async () => {
  const pgn = '[Event "one"]\n\n1. e4 e5 *\n\n[Event "two"]\n\n1. e4 e5 2. Ke3 *\n';
  const got = await page.evaluate(async (text) => {
    const { convert, NotateError } = await import('/dist/index.js');
    const { output, errors } = convert(text, { from: 'pgn', to: 'uci', errors: 'collect' });
    return { output, errors: errors.map((e) => ({ isNotateError: e instanceof NotateError, kind: e.kind, line: e.line, column: e.column, game: e.game, ply: e.ply, token: e.token })) };
  }, pgn);
  assert.equal(got.output, 'e2e4 e7e5\n');
  assert.deepEqual(got.errors, [{ isNotateError: true, kind: 'illegal', line: 7, column: 13, game: 2, ply: 3, token: 'Ke3' }]);
});

test('index.js: streamGames reads a download as it arrives (response.body)', async () => {
  const got = await page.evaluate(async () => {
    const { streamGames, NotateError } = await import('/dist/index.js');
    const response = await fetch('/stream.pgn');
    let games = 0;
    let plies = 0;
    const errors = [];
    for await (const item of streamGames(response.body, { errors: 'collect' })) {
      if (item instanceof NotateError) errors.push({ game: item.game, ply: item.ply, token: item.token });
      else {
        games += 1;
        plies += item.moves.length;
      }
    }
    return { games, plies, errors };
  });
  assert.deepEqual(got, { games: STREAMED_GAMES - 1, plies: (STREAMED_GAMES - 1) * 6, errors: [{ game: 13, ply: 4, token: 'Ke3' }] });
});

test('formatconverter.js: ShortToLong_Format keeps coordinates past 2^53 as BigInt', async () => {
  const got = await page.evaluate(async () => {
    const fc = await import('/dist/formatconverter.js');
    const icn = 'w 0/100 1 (9007199254740995|1) K1,1|k100000000000000000000000000000000000001,8 1,1>1,2';
    const long = fc.ShortToLong_Format(icn);
    const [rank] = long.gameRules.promotionRanks;
    return { type: typeof rank, rank: String(rank), squares: Object.keys(long.startingPosition), back: fc.LongToShort_Format(long, { compact_moves: 2, make_new_lines: false }) };
  });
  assert.equal(got.type, 'bigint');
  assert.equal(got.rank, '9007199254740995'); // a Number would be 9007199254740996
  assert.deepEqual(got.squares, ['1,1', '100000000000000000000000000000000000001,8']);
  assert.match(got.back, /\(9007199254740995\|1\)/);
});

test('index.js: a Shift_JIS KIF, given as bytes, to CSA', async () => {
  const base64 = readFileSync(join(root, '..', 'vectors', 'shogi', 'game1_sjis.kif')).toString('base64');
  const csa = await page.evaluate(async (b64) => {
    const { convert } = await import('/dist/index.js');
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return convert(bytes, { from: 'kif', to: 'csa' });
  }, base64);
  assert.match(csa, /^\+7776FU$/m);
  assert.match(csa, /^%TORYO$/m);
});

test('manual.js: nothing loads until init(bytes), then readPgn works', async () => {
  const fresh = await open('/empty.html');
  const got = await fresh.evaluate(async () => {
    const notate = await import('/dist/manual.js');
    const before = notate.isLoaded();
    let early;
    try { notate.readPgn('1. e4 *'); } catch (e) { early = e.kind; }
    const bytes = new Uint8Array(await (await fetch('/dist/wasm/notate_bg.wasm')).arrayBuffer());
    await notate.init(bytes);
    const [game] = notate.readPgn('[White "A"]\n\n1. e4 e5 2. Nf3 *\n');
    return { before, early, after: notate.isLoaded(), white: game.tags.White, uci: game.moves.map((m) => m.uci) };
  });
  await fresh.close();
  assert.deepEqual(got, { before: false, early: 'usage', after: true, white: 'A', uci: ['e2e4', 'e7e5', 'g1f3'] });
});

test('every request stayed on the loopback server, and no page logged an error', () => {
  assert.ok(requests.length >= 6, `too few requests recorded: ${requests}`);
  assert.deepEqual(requests.filter((url) => !url.startsWith(origin + '/')), []);
  assert.ok(requests.includes(`${origin}/dist/wasm/notate_bg.wasm`));
  assert.deepEqual(problems, []);
});
