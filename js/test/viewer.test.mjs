// The board viewer in a real browser (Debian's chromium, driven by playwright-core), for every
// family: pages written by `notate render` are opened from files, every ply of chosen games is
// shown forward, backward and by seeking, and the pieces the page draws (read from the DOM:
// data-square / data-hand and data-kind) are compared with the position notate computes for
// that ply (`--to fen`, `--to sfen`, `position --to icn`). Also: animations end on the right
// squares, keyboard and clicks navigate, every control is reachable by keyboard, no console
// error and no request leaves the file; the viewer app (dist/viewer.html) reads dropped or
// pasted files through the WebAssembly package and shows errors with line and column. The
// screenshots it saves (docs/viewer/) are the README's.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { cli, cliPath, root, serveStatic } from './helpers.mjs';

const CHROMIUM = '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'notate-viewer-'));
const shots = join(root, 'docs', 'viewer');
const BIG = '10000000000000000000000000000000000000000'; // 10^40

// Our own games: castling both ways, en passant, promotion and under-promotion (a knight
// and a rook), a queen made by a capture.
const CRAFTED = `[White "Crafted"]
[Black "Test"]

1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Bf5 5. gxh8=N Qd7 6. Nf3 O-O-O 7. Be2 e5 8. O-O a5
9. b4 a4 10. b5 a3 11. Bb2 axb2 12. b6 bxa1=Q 13. bxc7 Qxa2 14. cxd8=R+ Kxd8 *
`;
// Shogi: captures, promotions, drops, a promoted piece captured (it goes to the hand
// unpromoted), and a start with pieces in hand.
const DROPS = 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e B*6e 4e3d 6e7f 3d2c+ 2b2c 8i7g 7f8g+ 7g8e 8g7h 6i7h 2c3d 8e7c+ 8a7c';
const HANDS = 'position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPP1PP1P/1B5R1/LNSGKGSNL b 2P 1 moves P*5e 3c3d 5e5d 5c5d P*2d 2c2d';
// Infinite chess 10^40 squares from the origin: en passant, long castling, a promotion, an
// amazon and a chancellor.
// A world border (2025 dialect), an obstacle and a void.
const BORDER = 'w 0/100 1 (8|1) -3,12,-2,11 K5,1+|R8,1+|k5,8+|r1,8+|ob4,4|vo6,4 8,1>8,7|1,8>1,7';
const FAR = `[Variant "Classical"] w 0/100 1 (8|1) K${BIG}5,1+|R${BIG}8,1+|R${BIG}1,1+|P${BIG}4,2+|P${BIG}7,7+|AM${BIG}2,3|k${BIG}5,8+|p${BIG}3,4+|r${BIG}1,8+|ch${BIG}8,6 ${BIG}4,2>${BIG}4,4|${BIG}3,4>${BIG}4,3|${BIG}5,1>${BIG}3,1|${BIG}5,8>${BIG}6,8|${BIG}7,7>${BIG}7,8=Q|${BIG}8,6>${BIG}7,8|${BIG}2,3>${BIG}7,8|${BIG}6,8>${BIG}7,8`;

// A tsume problem's start: every piece but the kings in gote's hand (18 pawns).
const TSUME = 'position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1 moves 5i4h';
// A rook three million squares up, then back to the start.
const FAR_HOME = 'w 0/100 1 (8|1) K5,1+|R8,1+|k5,8+ 8,1>8,3000000|5,8>4,8';

let browser;
const problems = [];
const requests = [];
const files = {};

function notate(args, input) {
  const run = cli(args, input);
  assert.equal(run.status, 0, `notate ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

before(async () => {
  const generated = execFileSync('cargo', ['run', '--release', '--quiet', '-p', 'notate-testdata', '--', '19', '200'],
    { cwd: root, maxBuffer: 1 << 28 }).toString();
  files.chess = join(dir, 'chess.pgn');
  writeFileSync(files.chess, `${CRAFTED}\n${generated}`);
  files.shogi = join(dir, 'shogi.usi');
  writeFileSync(files.shogi, `${DROPS}\n${HANDS}\n`);
  files.kif = join(root, 'examples', 'game1.kifu');
  files.far = join(dir, 'far.icn');
  writeFileSync(files.far, FAR);
  files.castle = join(root, 'examples', 'castle.icn');
  files.border = join(dir, 'border.icn');
  writeFileSync(files.border, BORDER);
  files.tsume = join(dir, 'tsume.usi');
  writeFileSync(files.tsume, `${TSUME}\n`);
  files.farHome = join(dir, 'far-home.icn');
  writeFileSync(files.farHome, FAR_HOME);
  for (const [name, input] of Object.entries(files)) {
    execFileSync(cliPath(), ['render', input, '-o', join(dir, `${name}.html`), '--quiet']);
  }
  // A page whose every game fails: written all the same (the command exits with 1).
  writeFileSync(join(dir, 'all-bad.pgn'), '1. e4 e5 2. Ke3 *\n');
  assert.equal(cli(['render', join(dir, 'all-bad.pgn'), '-o', join(dir, 'all-bad.html'), '--quiet']).status, 1);
  // A page with a game that fails between two good ones: listed in its place.
  writeFileSync(join(dir, 'some-bad.pgn'), '[Event "a"]\n\n1. e4 { [%clk 0:02:59.9] } e5 { [%clk 0:00:00.4] [%emt 0:00:01.25] } *\n\n[Event "b"]\n\n1. e4 e4 *\n\n[Event "c"]\n\n1. d4 d5 *\n');
  // With an input that breaks off as it is read (a cut gzip file): its error is listed, and
  // it takes no game's place.
  writeFileSync(join(dir, 'cut.pgn.gz'), gzipSync(Buffer.from(CRAFTED)).subarray(0, 40));
  assert.equal(cli(['render', join(dir, 'some-bad.pgn'), join(dir, 'cut.pgn.gz'), '-o', join(dir, 'some-bad.html'), '--quiet']).status, 1);
  // One game of the input: titled by its number in the input (it was "Game 1").
  assert.equal(cli(['render', join(dir, 'some-bad.pgn'), '--game', '3', '-o', join(dir, 'third.html'), '--quiet']).status, 0);
  assert.ok(statSync(CHROMIUM, { throwIfNoEntry: false }), `${CHROMIUM} is missing: apt-get install chromium`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--font-render-hinting=none'],
  });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(problems, [], 'console errors or warnings');
});

/** A rendered page, with its console problems and its requests recorded. */
async function open(name, viewport = { width: 1100, height: 860 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`${name}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`${name}: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(join(dir, `${name}.html`)).href;
  await page.goto(url);
  await page.waitForSelector('svg[data-ply]');
  await page.evaluate(() => { document.getElementById('notate').notateViewer.options.stepMs = 15; });
  return { page, url };
}

/** Runs in the page: the pieces it draws, `square or hand: kind` sorted. */
function readBoardInPage() {
  const board = document.querySelector('svg.nv-board');
  const pieces = [...board.querySelectorAll('[data-piece]')].map((e) => `${e.dataset.square ?? `hand ${e.dataset.hand}`}:${e.dataset.kind}`);
  return { game: Number(board.dataset.game), ply: Number(board.dataset.ply), pieces: pieces.sort() };
}

/**
 * Runs in the page: shows game `game` (1-based) and walks it — every ply forward by the → key,
 * back to the start by ←, then to each ply of `seeks` by clicking its move (0: Home, -1:
 * End) — reading the board once each animation has ended.
 */
async function walkInPage({ game, seeks }) {
  const viewer = document.getElementById('notate').notateViewer;
  const board = document.querySelector('svg.nv-board');
  const root = document.querySelector('.notate-viewer');
  const settled = (ply) => new Promise((done) => {
    const check = () => (board.getAttribute('data-ply') === String(ply) ? done() : requestAnimationFrame(check));
    check();
  });
  const read = () => {
    const pieces = [...board.querySelectorAll('[data-piece]')].map((e) => `${e.dataset.square ?? `hand ${e.dataset.hand}`}:${e.dataset.kind}`);
    return pieces.sort();
  };
  const key = (name) => root.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
  viewer.select(game - 1);
  await settled(0);
  const plies = viewer.plies;
  const forward = [read()];
  for (let ply = 1; ply <= plies; ply++) {
    key('ArrowRight');
    await settled(ply);
    forward.push(read());
  }
  const backward = [];
  for (let ply = plies - 1; ply >= 0; ply--) {
    key('ArrowLeft');
    await settled(ply);
    backward[ply] = read();
  }
  const seeked = [];
  for (const seek of seeks) {
    let ply = seek;
    if (seek === 0) key('Home');
    else if (seek === -1) {
      key('End');
      ply = plies;
    } else document.querySelector(`.nv-moves button[data-ply="${seek}"]`).click();
    await settled(ply);
    seeked.push([ply, read()]);
  }
  return { plies, forward, backward, seeked };
}

/** Positions per game from `notate convert --to fen|sfen`: blocks of lines split by blank lines. */
function positionBlocks(text) {
  return text.trim().split(/\n\s*\n/).map((block) => block.split('\n'));
}

function chessPieces(fen) {
  const pieces = [];
  fen.split(' ')[0].split('/').forEach((rank, row) => {
    let file = 0;
    for (const c of rank) {
      if (c >= '1' && c <= '9') file += Number(c);
      else {
        pieces.push(`${'abcdefgh'[file]}${8 - row}:${c === c.toUpperCase() ? 'w' : 'b'}${c.toUpperCase()}`);
        file += 1;
      }
    }
  });
  return pieces.sort();
}

function shogiPieces(sfen) {
  const [board, , hands] = sfen.split(' ');
  const pieces = [];
  board.split('/').forEach((rank, row) => {
    let file = 9;
    for (let i = 0; i < rank.length; i++) {
      const c = rank[i];
      if (c >= '1' && c <= '9') {
        file -= Number(c);
        continue;
      }
      const promoted = c === '+';
      const letter = promoted ? rank[++i] : c;
      const side = letter === letter.toUpperCase() ? 'b' : 'w';
      pieces.push(`${file}${'abcdefghi'[row]}:${side}${promoted ? '+' : ''}${letter.toUpperCase()}`);
      file -= 1;
    }
  });
  if (hands !== '-') {
    for (const [, count, letter] of hands.matchAll(/(\d*)([A-Za-z])/g)) {
      const side = letter === letter.toUpperCase() ? 'b' : 'w';
      for (let n = 0; n < Number(count || 1); n++) pieces.push(`hand ${side}:${side}${letter.toUpperCase()}`);
    }
  }
  return pieces.sort();
}

function infinitePieces(icn) {
  // The pieces field of short ICN: `K5,1+|p3,4|…`, upper case white, lower case black.
  const field = icn.trim().split(/\s+/).find((part) => /^[A-Za-z]+-?\d+,-?\d+/.test(part));
  return field.split('|').map((token) => {
    const [, code, x, y] = token.match(/^([A-Za-z]+)(-?\d+),(-?\d+)\+?$/);
    const side = ['ob', 'vo'].includes(code) ? 'n' : code === code.toUpperCase() ? 'w' : 'b';
    return `${x},${y}:${side}${code.toUpperCase()}`;
  }).sort();
}

/** Steps through `games` (1-based) of a page and checks every ply against `expected(game, ply)`. */
async function checkGames(name, games, expected, seeksOf) {
  const { page } = await open(name);
  for (const game of games) {
    const walk = await page.evaluate(walkInPage, { game, seeks: seeksOf(game) });
    const label = `${name} game ${game}`;
    for (let ply = 0; ply <= walk.plies; ply++) {
      assert.deepEqual(walk.forward[ply], expected(game, ply), `${label}: ply ${ply} stepping forward`);
      assert.deepEqual(walk.backward[ply] ?? walk.forward[ply], expected(game, ply), `${label}: ply ${ply} stepping back`);
    }
    for (const [ply, pieces] of walk.seeked) assert.deepEqual(pieces, expected(game, ply), `${label}: seeking ply ${ply}`);
  }
  return page;
}

async function screenshots(page, family, game) {
  await page.evaluate(({ game }) => {
    const viewer = document.getElementById('notate').notateViewer;
    viewer.select(game - 1);
  }, { game });
  const plies = await page.evaluate(() => document.getElementById('notate').notateViewer.plies);
  for (const [label, ply] of [['start', 0], ['middle', Math.floor(plies / 2)], ['end', plies]]) {
    await page.evaluate((p) => document.getElementById('notate').notateViewer.go(p), ply);
    await page.waitForSelector(`svg.nv-board[data-ply="${ply}"]`);
    await page.locator('.notate-viewer').screenshot({ path: join(shots, `${family}-${label}.png`) });
  }
}

test('chess: every ply of castling, en passant, promotions, null moves and a 300-ply game, forward, back and seeking', async () => {
  const views = notate(['convert', files.chess, '--to', 'view', '--quiet']).trim().split('\n').map((l) => JSON.parse(l));
  const fens = positionBlocks(notate(['convert', files.chess, '--to', 'fen', '--quiet']));
  assert.equal(views.length, 201);
  assert.equal(fens.length, 201);
  const types = (view) => new Set(view.positions.slice(1).map((p) => p.move_type ?? 'null'));
  const sans = (view) => view.tracks.moves.map((m) => m.san).join(' ');
  const pick = (test) => views.findIndex((v, i) => i > 0 && test(v)) + 1;
  const games = [...new Set([
    1,
    pick((v) => v.tracks.moves.length >= 300),
    pick((v) => types(v).has('ep_capture')),
    pick((v) => types(v).has('long_castle') && types(v).has('short_castle')),
    pick((v) => /=[NBR]/.test(sans(v))),
    pick((v) => types(v).has('promotion_capture')),
    pick((v) => types(v).has('null')),
    pick((v) => v.tracks.game_tags.FEN !== undefined),
  ])];
  assert.ok(games.every((g) => g > 0), `every kind of game is among the generated ones: ${games}`);
  assert.ok(views[games[1] - 1].tracks.moves.length >= 300);
  const seeksOf = (game) => {
    const plies = views[game - 1].tracks.moves.length;
    return [-1, Math.ceil(plies / 3), 1, 0, plies, Math.ceil((2 * plies) / 3), 0];
  };
  const page = await checkGames('chess', games, (game, ply) => chessPieces(fens[game - 1][ply]), seeksOf);
  await screenshots(page, 'chess', 1);
  await page.close();
});

test('shogi: drops, promotions, captured promoted pieces and hands, every ply', async () => {
  for (const [name, input] of [['shogi', files.shogi], ['kif', files.kif]]) {
    const sfens = positionBlocks(notate(['convert', input, '--to', 'sfen', '--quiet']));
    const games = sfens.map((_, i) => i + 1);
    const seeksOf = (game) => [-1, 2, 0, Math.max(1, sfens[game - 1].length - 2)];
    const page = await checkGames(name, games, (game, ply) => shogiPieces(sfens[game - 1][ply]), seeksOf);
    if (name === 'shogi') await screenshots(page, 'shogi', 1);
    await page.close();
  }
});

test('infinite chess: a game 10^40 squares from the origin and one near it, every ply', async () => {
  for (const name of ['far', 'castle', 'border']) {
    const plies = JSON.parse(notate(['convert', files[name], '--to', 'view', '--quiet']).split('\n')[0]).tracks.moves.length;
    const positions = [];
    for (let ply = 0; ply <= plies; ply++) positions.push(notate(['position', files[name], '--ply', String(ply), '--to', 'icn', '--dialect', '2025', '--quiet']));
    const page = await checkGames(name, [1], (_, ply) => infinitePieces(positions[ply]), () => [-1, 1, 0, plies - 1]);
    if (name === 'far') {
      // The view follows the game: the last move's square is on screen, labelled in full.
      const shown = await page.evaluate(() => {
        const piece = document.querySelector('[data-kind="bK"]');
        const box = piece.getBoundingClientRect();
        const svg = document.querySelector('svg.nv-board').getBoundingClientRect();
        return { inside: box.left >= svg.left && box.right <= svg.right && box.top >= svg.top && box.bottom <= svg.bottom, labels: [...document.querySelectorAll('.nv-coord')].map((t) => t.textContent) };
      });
      assert.ok(shown.inside, 'the last move is in view');
      assert.ok(shown.labels.some((l) => l.startsWith('1000') && l.includes('…')), `coordinates are labelled: ${shown.labels}`);
      await screenshots(page, 'infinite', 1);
      // Pan and zoom: keys, the wheel and a drag move the view, never the pieces' squares.
      const view = () => page.evaluate(() => ({
        transform: document.querySelector('.nv-world').getAttribute('transform'),
        squares: [...document.querySelectorAll('[data-piece]')].map((e) => e.dataset.square).sort().join(' '),
      }));
      const before = await view();
      await page.focus('.notate-viewer');
      const changes = [];
      for (const act of [
        () => page.keyboard.press('+'),
        () => page.keyboard.press('Shift+ArrowRight'),
        () => page.keyboard.press('-'),
        async () => { await page.mouse.move(300, 300); await page.mouse.wheel(0, -300); },
        async () => { await page.mouse.move(300, 300); await page.mouse.down(); await page.mouse.move(200, 250, { steps: 5 }); await page.mouse.up(); },
      ]) {
        const was = await view();
        await act();
        await page.waitForTimeout(250);
        const now = await view();
        changes.push(now.transform !== was.transform);
        assert.equal(now.squares, before.squares);
      }
      assert.deepEqual(changes, [true, true, true, true, true], 'every pan and zoom moves the view');
      // Quick presses add up: each goes on from where the one before was going (a press cut
      // the one before short, and three quick + zoomed by about 1.25).
      const scaleAndX = () => page.evaluate(() => {
        const { k, x } = document.getElementById('notate').notateViewer.view;
        return { k, x };
      });
      const start = await scaleAndX();
      const settled = () => page.waitForFunction(() => document.getElementById('notate').notateViewer.keyView == null);
      for (let i = 0; i < 3; i++) await page.keyboard.press('+');
      await settled();
      const zoomed = await scaleAndX();
      assert.ok(Math.abs(zoomed.k / start.k - 1.25 ** 3) < 1e-6, `three quick + zoom by 1.25³: ${zoomed.k / start.k}`);
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
      await settled();
      const panned = await scaleAndX();
      assert.ok(Math.abs(panned.x - zoomed.x + 3 * 2 * zoomed.k) < 1e-6, `three quick Shift+→ pan by 3 × 2 squares: ${panned.x - zoomed.x}`);
    }
    if (name === 'border') {
      const border = await page.evaluate(() => {
        const rect = document.querySelector('.nv-border');
        const viewer = document.getElementById('notate').notateViewer;
        return rect && {
          left: Number(viewer.origin[0]) + Number(rect.getAttribute('x')),
          top: Number(viewer.origin[1]) - Number(rect.getAttribute('y')),
          width: rect.getAttribute('width'),
          height: rect.getAttribute('height'),
        };
      });
      // Square (x, y) covers x … x + 1 and -y … -y + 1 of the board's layer (it was drawn half
      // a square up and left).
      assert.deepEqual(border, { left: -3, top: 11, width: '16', height: '14' }, 'the border holds x -3…12 and y -2…11');
      const kinds = await page.evaluate(() => [...document.querySelectorAll('[data-kind^="n"]')].map((e) => `${e.dataset.kind} ${e.getAttribute('class')}`));
      assert.deepEqual(kinds.sort(), ['nOB nv-piece nv-n', 'nVO nv-piece nv-n nv-void']);
    }
    await page.close();
  }
});

test('hands count their pieces and stay on the board; a far move comes back to the start; a page lists its failed games in place', async () => {
  const { page } = await open('tsume');
  for (const flip of [false, true]) {
    if (flip) await page.evaluate(() => document.getElementById('notate').notateViewer.flip());
    const hand = await page.evaluate(() => {
      const svg = document.querySelector('svg.nv-board').getBoundingClientRect();
      const pieces = [...document.querySelectorAll('[data-hand]')];
      const inside = pieces.every((e) => {
        const b = e.getBoundingClientRect();
        return b.left >= svg.left - 1 && b.right <= svg.right + 1 && b.top >= svg.top - 1 && b.bottom <= svg.bottom + 1;
      });
      return { n: pieces.length, inside, counts: [...document.querySelectorAll('.nv-count')].map((t) => t.textContent).sort() };
    });
    assert.deepEqual(hand, { n: 38, inside: true, counts: ['18', '2', '2', '4', '4', '4', '4'] }, `flipped: ${flip}`);
  }
  await page.close();

  // The first view is centred on the start's pieces (x 3…8, y 1…8 here); it used to be on
  // their upper middle values, two and a half ranks low.
  const castle = (await open('castle')).page;
  const centred = await castle.evaluate(() => {
    const boxes = [...document.querySelectorAll('[data-piece]')].map((e) => e.getBoundingClientRect());
    const svg = document.querySelector('svg.nv-board').getBoundingClientRect();
    const square = svg.width / 12;
    const middle = (a, b) => (a + b) / 2;
    return {
      x: Math.abs(middle(Math.min(...boxes.map((b) => b.left)), Math.max(...boxes.map((b) => b.right))) - middle(svg.left, svg.right)) / square,
      y: Math.abs(middle(Math.min(...boxes.map((b) => b.top)), Math.max(...boxes.map((b) => b.bottom))) - middle(svg.top, svg.bottom)) / square,
    };
  });
  assert.ok(centred.x < 0.25 && centred.y < 0.25, `the pieces are in the middle of the first view (off by ${JSON.stringify(centred)} squares)`);
  await castle.close();

  const far = (await open('farHome')).page;
  const view = () => far.evaluate(() => {
    const viewer = document.getElementById('notate').notateViewer;
    const svg = document.querySelector('svg.nv-board').getBoundingClientRect();
    const king = document.querySelector('[data-kind="wK"]').getBoundingClientRect();
    const parity = Number(((viewer.origin[0] + viewer.origin[1]) % 2n + 2n) % 2n);
    return {
      king: king.left >= svg.left && king.right <= svg.right && king.top >= svg.top && king.bottom <= svg.bottom,
      light: document.querySelector('#nv-checker').getAttribute('x') === String(parity ? 0 : 1),
    };
  });
  await far.evaluate(() => document.getElementById('notate').notateViewer.go(1));
  await far.waitForSelector('svg.nv-board[data-ply="1"]');
  assert.equal((await view()).light, true, 'the squares keep their colours after the view jumps');
  for (const back of ['go0', 'steps']) {
    await far.evaluate((how) => {
      const viewer = document.getElementById('notate').notateViewer;
      if (how === 'go0') viewer.go(0);
      else viewer.go(2).step(-1).step(-1);
    }, back);
    await far.waitForSelector('svg.nv-board[data-ply="0"]');
    await far.waitForTimeout(100);
    assert.deepEqual(await view(), { king: true, light: true }, `back at the start (${back}), its pieces are in view`);
  }
  await far.close();

  const bad = await browser.newPage();
  bad.on('pageerror', (e) => problems.push(`all-bad: ${e.message}`));
  await bad.goto(pathToFileURL(join(dir, 'all-bad.html')).href);
  assert.equal(await bad.textContent('.nv-title'), 'No game to show');
  const buttons = bad.locator('.nv-controls button');
  assert.equal(await bad.locator('.nv-controls button[disabled]').count(), await buttons.count());
  await bad.focus('.notate-viewer');
  for (const key of ['Home', 'End', 'ArrowRight', ' ', 'f', '+']) await bad.keyboard.press(key);
  assert.match(await bad.textContent('.nv-failed li'), /all-bad\.pgn:1:13: game 1 \(\? – \?\), ply 3 "Ke3": illegal move/);
  await bad.close();

  // The games keep the input's numbers, and the one that failed is listed with its error.
  const some = await browser.newPage();
  some.on('pageerror', (e) => problems.push(`some-bad: ${e.message}`));
  await some.goto(pathToFileURL(join(dir, 'some-bad.html')).href);
  const options = await some.$$eval('.nv-picker option', (all) => all.map((o) => [o.textContent, o.disabled, o.value]));
  assert.deepEqual(options, [
    ['1. Game 1 (a, *)', false, '0'],
    ['2. could not be read (see the list)', true, ''],
    ['3. Game 3 (c, *)', false, '1'],
  ]);
  const listed = await some.$$eval('.nv-failed li', (all) => all.map((li) => li.textContent));
  assert.equal(listed.length, 2);
  assert.equal(listed[0], `${join(dir, 'some-bad.pgn')}:7:7: game 2 (? – ?), ply 2 "e4": illegal move in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1`);
  assert.match(listed[1], /^cannot read .*cut\.pgn\.gz: /);
  // Clocks keep the tenths the record gave (they were rounded to the second: 0:03:00, 0:00:00).
  const facts = async (ply) => {
    await some.evaluate((n) => document.getElementById('notate').notateViewer.go(n), ply);
    return some.$$eval('.nv-facts dt', (all) => Object.fromEntries(all.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
  };
  assert.equal((await facts(1)).Clock, '0:02:59.9');
  assert.deepEqual([(await facts(2)).Clock, (await facts(2))['Time used']], ['0:00:00.4', '0:00:01.25']);
  await some.selectOption('.nv-picker', '1');
  assert.equal(await some.textContent('.nv-title'), 'Game 3 (c, *)');
  assert.equal(await some.getAttribute('svg.nv-board', 'data-game'), '3');
  // The button "Last position" is not dimmed as the last move's mark is (both are nv-last).
  assert.equal(await some.$eval('button.nv-last', (b) => getComputedStyle(b).opacity), '1');
  await some.close();

  const third = await browser.newPage();
  third.on('pageerror', (e) => problems.push(`third: ${e.message}`));
  await third.goto(pathToFileURL(join(dir, 'third.html')).href);
  assert.equal(await third.textContent('.nv-title'), 'Game 3 (c, *)');
  assert.equal(await third.getAttribute('svg.nv-board', 'data-game'), '3');
  assert.equal(await third.locator('.nv-picker').count(), 0);
  await third.close();
});

test('animations end on the squares, keys and clicks navigate, controls are reachable by keyboard', async () => {
  const { page } = await open('chess');
  await page.evaluate(() => { document.getElementById('notate').notateViewer.options.stepMs = 200; });
  // Real key presses and clicks, animated.
  await page.focus('.notate-viewer');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('svg.nv-board[data-ply="2"]');
  await page.click('button.nv-next');
  await page.waitForSelector('svg.nv-board[data-ply="3"]');
  await page.click('.nv-moves button[data-ply="10"]');
  await page.waitForSelector('svg.nv-board[data-ply="10"]');
  await page.keyboard.press('End');
  await page.waitForSelector('svg.nv-board[data-ply="28"]');
  await page.click('button.nv-prev');
  await page.waitForSelector('svg.nv-board[data-ply="27"]');
  await page.keyboard.press('Home');
  await page.waitForSelector('svg.nv-board[data-ply="0"]');
  // 5. gxh8=N animated: once it ends, every piece stands on its square, fully shown, and the
  // pawn that promoted is gone.
  await page.evaluate(() => document.getElementById('notate').notateViewer.go(8));
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('svg.nv-board[data-ply="9"]');
  const placed = await page.evaluate(() => [...document.querySelectorAll('svg.nv-board g.nv-piece')].map((g) => ({
    square: g.dataset.square, piece: g.dataset.piece, transform: g.getAttribute('transform'), opacity: g.getAttribute('opacity'),
  })));
  for (const p of placed) {
    const col = p.square.charCodeAt(0) - 97;
    const row = 8 - Number(p.square[1]);
    assert.equal(p.transform, `translate(${col},${row})`, `${p.piece} ends on ${p.square}`);
    assert.equal(p.opacity, '1', `${p.piece} is fully shown`);
  }
  assert.ok(placed.some((p) => p.piece === 'wN' && p.square === 'h8'));
  assert.ok(!placed.some((p) => p.piece === 'wkp'));
  // Flip: a1 at the top right.
  await page.keyboard.press('f');
  await page.waitForSelector('svg.nv-board[data-ply="9"]');
  assert.equal(await page.getAttribute('[data-piece="wqr"]', 'transform'), 'translate(7,0)');
  await page.keyboard.press('f');
  // Every control is a focusable element with a name, in tab order.
  const controls = await page.evaluate(() => [...document.querySelectorAll('.notate-viewer button, .notate-viewer select')].map((e) => ({
    name: e.getAttribute('aria-label') ?? e.closest('label')?.textContent ?? e.textContent, tabIndex: e.tabIndex, hidden: e.offsetParent === null,
  })));
  for (const c of controls.filter((c) => !c.hidden)) {
    assert.ok(c.tabIndex >= 0 && c.name.trim() !== '', `reachable and named: ${JSON.stringify(c)}`);
  }
  const reached = new Set();
  await page.focus('.notate-viewer');
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement.className || document.activeElement.tagName));
  }
  for (const name of ['nv-picker', 'nv-first', 'nv-prev', 'nv-play', 'nv-next', 'nv-last', 'nv-flip']) assert.ok(reached.has(name), `Tab reaches ${name}: ${[...reached]}`);
  // A screen reader hears the move list as a list of named buttons, and each step.
  assert.equal(await page.getAttribute('.nv-moves', 'aria-label'), 'Move list');
  assert.equal(await page.getAttribute('.nv-moves button[data-ply="11"]', 'aria-label'), '6. Nf3');
  await page.close();
});

test('rendered pages make no request and hold everything: one game under 1 MB', () => {
  assert.deepEqual(requests.filter((url) => !url.startsWith('file:')), []);
  const html = readFileSync(join(dir, 'kif.html'), 'utf8');
  assert.ok(!/(src|href)="(https?:)?\/\//.test(html), 'no external reference');
  assert.ok(statSync(join(dir, 'kif.html')).size < 1 << 20);
});

test('the viewer app reads files of every format through the WebAssembly package and shows errors with their place', async () => {
  const { server, origin } = await serveStatic(resolve(root, 'js'));
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => problems.push(`app: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`app: ${m.text()}`));
    await page.goto(`${origin}/dist/viewer.html`);
    const cases = [
      ['game1.kifu', readFileSync(files.kif), 'shogi'],
      ['castle.icn', readFileSync(files.castle), 'infinite'],
      ['crafted.pgn', Buffer.from(CRAFTED), 'chess'],
      ['crafted.egd', Buffer.from(notate(['convert', '--to', 'egd'], CRAFTED)), 'chess'],
      ['crafted.tracks', Buffer.from(notate(['convert', '--to', 'tracks'], CRAFTED)), 'chess'],
      ['game.csa', Buffer.from(notate(['convert', files.kif, '--to', 'csa', '--quiet'])), 'shogi'],
      ['game.jkf', Buffer.from(notate(['convert', files.kif, '--to', 'jkf', '--quiet'])), 'shogi'],
      ['game.icn.json', Buffer.from(notate(['convert', files.castle, '--to', 'icn-json'])), 'infinite'],
    ];
    for (const [name, bytes, family] of cases) {
      await page.setInputFiles('input[type=file]', { name, mimeType: 'text/plain', buffer: bytes });
      await page.waitForSelector(`.notate-viewer[data-family="${family}"] svg.nv-board[data-ply="0"]`);
      assert.match(await page.textContent('output'), /1 game/, name);
      await page.keyboard.press('End');
      const plies = await page.evaluate(() => document.querySelector('.notate-viewer').parentElement.notateViewer.plies);
      await page.waitForSelector(`svg.nv-board[data-ply="${plies}"]`);
    }
    await page.fill('textarea', '1. e4 e5 2. Nf3 Ke7 3. Bc4 *\n\n1. d4 d5 2. Bf5 *');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.querySelector('output').textContent.startsWith('pasted text:'))
    assert.equal(await page.getAttribute('output', 'data-errors'), '1', await page.textContent('output'));
    assert.equal(await page.textContent('output'), 'pasted text: game 2, line 3, column 13, ply 3 "Bf5": illegal move in rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2');
    // The good game is shown.
    await page.waitForSelector('.notate-viewer[data-family="chess"] svg.nv-board[data-ply="0"]');
    assert.equal(await page.evaluate(() => document.querySelector('.notate-viewer').parentElement.notateViewer.plies), 5);
    await page.close();
  } finally {
    await new Promise((done) => server.close(done));
  }
});
