// `notate serve`'s page in a real browser (Debian's chromium, driven by playwright-core),
// playing against a scripted client: a real server on loopback (the `notate` command of this
// checkout), a person's page that seeks, accepts, moves by clicking and by dragging, premoves,
// offers a draw, chats, reloads mid-game (its session comes back from its token), resigns,
// asks for a rematch and accepts a draw; the scripted client is a second page speaking
// jsonchess over the browser's WebSocket; a third page watches the game from the lobby. The
// screenshots it saves (docs/viewer/live-*.png) are the README's.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { applyUpdate, clocksOf, clockText, Tracker } from '../dist/live.js';
import { cli, cliPath, root } from './helpers.mjs';

const CHROMIUM = '/usr/bin/chromium';
const shots = join(root, 'docs', 'viewer');
const TIMEOUT = 10000;

let server;
let origin;
let browser;
let dir;
const problems = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notate-live-'));
  server = spawn(cliPath(), ['serve', '--listen', '127.0.0.1:0', '--db', join(dir, 'games.sqlite')], { stdio: ['ignore', 'pipe', 'inherit'] });
  origin = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/listening on (http:\/\/\S+)/);
      if (found) resolve(found[1]);
    });
    server.on('exit', (code) => reject(new Error(`notate serve exited (${code}): ${out}`)));
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill();
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A person's page at `/`, with console errors collected. */
async function person() {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${origin}/`);
  await page.waitForSelector('.notate-live[data-connection="open"] [data-me][data-player]');
  return page;
}

/** The scripted opponent: a page of the server's origin speaking jsonchess by hand. */
async function scripted() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/games/none.pgn`);
  const url = `${origin.replace('http', 'ws')}/ws`;
  const session = await page.evaluate((address) => new Promise((resolve) => {
    window.inbox = [];
    window.ws = new WebSocket(address);
    window.ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.topic === '/session') resolve(message.data);
      window.inbox.push(message);
    };
  }), url);
  return {
    id: session.playerId,
    send: (topic, data) => page.evaluate(([t, d]) => window.ws.send(JSON.stringify(d === null ? { topic: t } : { topic: t, data: d })), [topic, data ?? null]),
    /** The data of the next message on `topic` (earlier messages of other topics dropped). */
    async expect(topic) {
      const handle = await page.waitForFunction((t) => {
        const at = window.inbox.findIndex((m) => m.topic === t);
        if (at < 0) return null;
        return { data: window.inbox.splice(0, at + 1)[at].data ?? null };
      }, topic, { timeout: TIMEOUT });
      return (await handle.jsonValue()).data;
    },
  };
}

const SQUARE = (name) => 'abcdefgh'.indexOf(name[0]) + 8 * (Number(name[1]) - 1);

/** The screen centre of a square on a page's board. */
async function centre(page, square) {
  const flipped = (await page.getAttribute('.notate-live', 'data-side')) === 'b';
  let col = square.charCodeAt(0) - 97;
  let row = 8 - Number(square[1]);
  if (flipped) [col, row] = [7 - col, 7 - row];
  const box = await page.locator(`svg.nv-board .nv-squares rect[x="${col}"][y="${row}"]`).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

async function click(page, from, to) {
  for (const square of [from, to]) {
    const [x, y] = await centre(page, square);
    await page.mouse.click(x, y);
  }
}

async function drag(page, from, to) {
  const [x0, y0] = await centre(page, from);
  const [x1, y1] = await centre(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

/** Waits until a page's board shows `plies` plies, animation ended. */
async function atPly(page, plies) {
  await page.waitForSelector(`svg.nv-board[data-ply="${plies}"]`, { timeout: TIMEOUT });
}

/** Where every piece stands on a page's board: {name: square}. */
function pieces(page) {
  return page.$$eval('svg.nv-board g.nv-piece[data-piece]', (gs) => Object.fromEntries(gs.map((g) => [g.dataset.piece, g.dataset.square])));
}

async function status(page) {
  return page.textContent('[data-game-status]');
}

// Castling both ways, en passant, promotions to a knight, a rook and (by a capture) a queen.
const CRAFTED = `[White "Crafted"]
[Black "Test"]

1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Bf5 5. gxh8=N Qd7 6. Nf3 O-O-O 7. Be2 e5 8. O-O a5
9. b4 a4 10. b5 a3 11. Bb2 axb2 12. b6 bxa1=Q 13. bxc7 Qxa2 14. cxd8=R+ Kxd8 *
`;

test("the page's client turns packed moves into the same piece tracks notate writes", () => {
  const packed = JSON.parse(cli(['convert', '--from', 'pgn', '--to', 'jsonchess'], CRAFTED).stdout).moves;
  const tracks = JSON.parse(cli(['convert', '--from', 'pgn', '--to', 'tracks'], CRAFTED).stdout);
  const tracker = new Tracker();
  assert.equal(packed.length, tracks.moves.length);
  packed.forEach((p, i) => {
    const move = tracker.play(p);
    assert.equal(move.san, tracks.moves[i].san, `ply ${i + 1}`);
    assert.deepEqual(move.actions, tracks.moves[i].actions, `ply ${i + 1} ${move.san}`);
  });
  assert.throws(() => new Tracker().play('1,0,e4,0,e3,e4,N,N'), /no piece on e3/);
});

test("the page's clocks are the server's: two untimed plies, then time spent and increments", () => {
  const game = { options: { initialTime: 60000, timeIncrement: 2000 }, addedTime: { w: 0, b: 0 }, isInProgress: true };
  // Plies at 1 s, 2 s (untimed), then white thinks 5 s, black 3 s; now 4 s into white's turn.
  const times = [1000, 2000, 7000, 10000];
  assert.deepEqual(clocksOf(game, times, 14000), [60000 - 5000 + 2000 - 4000, 60000 - 3000 + 2000]);
  assert.deepEqual(clocksOf(game, times.slice(0, 1), 50000), [60000, 60000]);
  assert.deepEqual(clocksOf({ ...game, isInProgress: false, endAt: 12000 }, times, 99000), [55000, 59000]);
  assert.equal(clockText(61000), '1:01');
  assert.equal(clockText(9449), '0:09.4');
  assert.equal(clockText(-5), '0:00.0');
});

test("the page's lobby takes generic updates by key, all of the protocol's forms", () => {
  const doc = { seeks: [], users: [{ id: 'p1', name: 'a', rating: 1500 }], games: [{ id: 'g1', plies: 0 }] };
  applyUpdate(doc, { op: 'add', key: 'seeks', value: { id: 's1' } });
  applyUpdate(doc, { op: 'update', key: 'games:g1.plies', value: 3 });
  applyUpdate(doc, { op: 'update', key: 'users.0.rating', value: 1510.5 });
  applyUpdate(doc, { op: 'remove', key: 'seeks', value: 's1' });
  assert.deepEqual(doc, { seeks: [], users: [{ id: 'p1', name: 'a', rating: 1510.5 }], games: [{ id: 'g1', plies: 3 }] });
  assert.throws(() => applyUpdate(doc, { op: 'update', key: 'games:g9.plies', value: 1 }), /no g9/);
  assert.throws(() => applyUpdate(doc, { op: 'remove', key: 'seeks', value: 's1' }), /no s1/);
  assert.throws(() => applyUpdate(doc, { op: 'add', key: 'users.0', value: 1 }), /cannot add/);
});

// 1. e4 Nf6 2. e5 d5 3. exd6 (en passant) exd6 4. Nf3 Be7 5. Bc4 O-O 6. O-O
const GAME = ['e2e4', 'g8f6', 'e4e5', 'd7d5', 'e5d6', 'e7d6', 'g1f3', 'f8e7', 'f1c4', 'e8g8', 'e1g1'];
const AFTER = {
  wk: 'g1', wkr: 'f1', wkb: 'c4', wkn: 'f3', bk: 'g8', bkr: 'f8', bkb: 'e7', bkn: 'f6', bkp: 'd6', wq: 'd1', bq: 'd8',
};

test('a game against a scripted client: seek, click and drag moves, en passant, castling, premove, clocks, chat, reload, resign, rematch, draw; a spectator sees every move', async () => {
  const page = await person();
  const robot = await scripted();
  const watcher = await person();

  // The robot seeks; the person sees the seek in the lobby and takes it.
  robot.send('/seek', { initialTime: 300000, timeIncrement: 3000, acceptRatingMin: '-500', acceptRatingMax: '+500' });
  await robot.expect('/seek/waiting');
  const play = page.locator('[data-list=seeks] button[data-seek]');
  await play.waitFor({ timeout: TIMEOUT });
  await page.screenshot({ path: join(shots, 'live-lobby.png') });
  await play.click();
  const game = await robot.expect('/seek/matched');
  await page.waitForSelector(`.notate-live[data-game="${game.id}"]`);
  const side = await page.getAttribute('.notate-live', 'data-side');
  assert.equal(side, game.white.id === robot.id ? 'b' : 'w');
  const robotSide = side === 'w' ? 'b' : 'w';
  const topic = `/game/${game.id}`;

  // The spectator finds the game in the lobby's list and watches it.
  await watcher.locator(`[data-list=games] button[data-watch="${game.id}"]`).click();
  await watcher.waitForSelector(`.notate-live[data-game="${game.id}"][data-side="spectator"]`);

  const mine = (ply) => (ply % 2 === 0) === (side === 'w');
  const last = GAME.length - 1 - (mine(GAME.length - 1) ? 0 : 1); // the person's last move: a premove
  for (let ply = 0; ply < GAME.length; ply++) {
    const uci = GAME[ply];
    if (mine(ply)) {
      await (ply % 4 < 2 ? click : drag)(page, uci.slice(0, 2), uci.slice(2));
      assert.equal(await robot.expect(`${topic}/move`).then((p) => p.split(',')[1]), String(ply));
    } else {
      if (ply + 1 === last) {
        // Before the robot moves: the person's next move is a premove, marked on the board.
        await atPly(page, ply);
        await drag(page, GAME[last].slice(0, 2), GAME[last].slice(2));
        await page.waitForSelector('.nv-marks .nv-premove[data-square]');
        assert.equal(await page.locator('[data-action=cancel-premove]').isVisible(), true);
      }
      robot.send(`${topic}/move`, { from: SQUARE(uci.slice(0, 2)), to: SQUARE(uci.slice(2)) });
      await robot.expect(`${topic}/move`);
      if (ply + 1 === last) {
        // The premove is played at once after it.
        assert.equal(await robot.expect(`${topic}/move`).then((p) => p.split(',')[2]), 'O-O');
        ply += 1;
      }
    }
    await atPly(page, Math.min(ply + 1, GAME.length));
    if (ply === 3) {
      // Mid-game: the clock of the side to move runs (plies 0 and 1 are untimed).
      const running = page.locator('[data-clock][data-running]');
      const before = Number(await running.getAttribute('data-ms'));
      await page.waitForTimeout(1200);
      const later = Number(await running.getAttribute('data-ms'));
      // The page redraws the clock every 100 ms, and a busy machine delays a redraw: the
      // drop is checked to be the clock running, not its exact 1.2 s.
      assert.ok(before - later >= 300 && before - later < 6000, `${before} → ${later}`);
      assert.match(await running.textContent(), /^[4-5]:\d\d$/);
      // A reload: the page comes back as the same player, in the same game, at the same ply.
      const player = await page.getAttribute('[data-me]', 'data-player');
      await page.reload();
      await page.waitForSelector(`.notate-live[data-game="${game.id}"]`);
      await atPly(page, ply + 1);
      assert.equal(await page.getAttribute('[data-me]', 'data-player'), player);
    }
  }
  await atPly(page, GAME.length);
  await atPly(watcher, GAME.length);
  const board = await pieces(page);
  for (const [name, square] of Object.entries(AFTER)) assert.equal(board[name], square, name);
  assert.equal(board.wkp, undefined, 'the e-pawn was taken on d6');
  assert.equal(board.bqp, undefined, 'the d-pawn was taken en passant');
  assert.equal(Object.keys(board).length, 30);
  assert.deepEqual(await pieces(watcher), board);
  assert.equal(await page.locator('.nv-marks .nv-premove').count(), 0);

  // A draw offered by the robot after its move (black moves next: the person first when
  // the robot has white).
  let plies = GAME.length;
  if (robotSide === 'w') {
    await click(page, 'c7', 'c6');
    await robot.expect(`${topic}/move`);
    plies += 1;
  }
  robot.send(`${topic}/move`, robotSide === 'w' ? { from: SQUARE('d2'), to: SQUARE('d3') } : { from: SQUARE('c7'), to: SQUARE('c6') });
  await robot.expect(`${topic}/move`);
  await atPly(page, plies + 1);
  robot.send(`${topic}/offer_draw`);
  await page.locator('[data-action=accept-draw]').waitFor({ timeout: TIMEOUT });
  assert.match(await status(page), /a draw is offered to you/);
  // Chat, then a resignation instead of the draw.
  await page.fill('[data-form=chat] input', 'good game');
  await page.press('[data-form=chat] input', 'Enter');
  assert.equal((await robot.expect(`${topic}/chat`)).body, 'good game');
  await page.screenshot({ path: join(shots, 'live-game.png') });
  await page.click('[data-action=resign]');
  const result = await robot.expect(`${topic}/game_over`);
  assert.equal(result.type, 'resignation');
  assert.equal(result.winner, robotSide);
  await page.waitForSelector('[data-game-status][data-state="over"]');
  assert.match(await status(page), side === 'w' ? /^0-1: white resigned/ : /^1-0: black resigned/);
  await watcher.waitForSelector('[data-game-status][data-state="over"]');

  // A rematch: asked by the person, accepted by the robot; colours change.
  await page.click('[data-action=rematch]');
  assert.equal(await robot.expect(`${topic}/rematch/offered`), side);
  robot.send(`${topic}/rematch`);
  const second = await robot.expect(`${topic}/rematch`);
  await page.waitForSelector(`.notate-live[data-game="${second.id}"]`);
  assert.equal(await page.getAttribute('.notate-live', 'data-side'), robotSide);
  assert.equal(await page.getAttribute('svg.nv-board', 'data-ply'), '0');

  // The second game. On the person's turn, an illegal move is refused and the piece goes back.
  const topic2 = `/game/${second.id}`;
  const robot2 = side; // the robot's colour in the second game
  if (robot2 === 'w') {
    robot.send(`${topic2}/move`, { from: SQUARE('e2'), to: SQUARE('e4') });
    await robot.expect(`${topic2}/move`);
    await atPly(page, 1);
  }
  const [pawn, home, far] = robot2 === 'w' ? ['bkp', 'e7', 'e4'] : ['wkp', 'e2', 'e5'];
  await drag(page, home, far);
  await page.waitForFunction(() => /^Refused: .*not a legal move/.test(document.querySelector('[data-status]').textContent));
  await atPly(page, robot2 === 'w' ? 1 : 0);
  const box = await page.locator(`g.nv-piece[data-piece="${pawn}"]`).boundingBox();
  const [hx, hy] = await centre(page, home);
  assert.ok(Math.abs(box.x + box.width / 2 - hx) < 8 && Math.abs(box.y + box.height / 2 - hy) < 8, 'the pawn is back home');
  // The robot offers a draw after its move; the person accepts.
  if (robot2 === 'b') {
    await click(page, 'e2', 'e4');
    await robot.expect(`${topic2}/move`);
    robot.send(`${topic2}/move`, { from: SQUARE('e7'), to: SQUARE('e5') });
    await robot.expect(`${topic2}/move`);
  }
  robot.send(`${topic2}/offer_draw`);
  await page.click('[data-action=accept-draw]');
  const draw = await robot.expect(`${topic2}/game_over`);
  assert.equal(draw.type, 'draw agreed');
  await page.waitForSelector('[data-game-status][data-state="over"]');
  assert.match(await status(page), /^½-½: /);
  assert.deepEqual(problems, []);
});

test('the page signs in, registers and signs out; a wrong password is refused', async () => {
  const page = await person();
  const name = `anna${Date.now() % 100000}`;
  await page.fill('[data-form=account] input[name=username]', name);
  await page.fill('[data-form=account] input[name=password]', 'correct horse');
  await page.click('[data-form=account] button[name=register]');
  await page.waitForFunction((n) => document.querySelector('[data-me]').textContent.startsWith(n), name);
  assert.equal(await page.locator('[data-action=logout]').isVisible(), true);
  await page.click('[data-action=logout]');
  await page.waitForFunction(() => document.querySelector('[data-me]').textContent.startsWith('Guest'));
  await page.fill('[data-form=account] input[name=username]', name);
  await page.fill('[data-form=account] input[name=password]', 'wrong');
  await page.click('[data-form=account] button[name=login]');
  await page.waitForFunction(() => /wrong|unknown|password/i.test(document.querySelector('[data-status]').textContent));
  await page.fill('[data-form=account] input[name=password]', 'correct horse');
  await page.click('[data-form=account] button[name=login]');
  await page.waitForFunction((n) => document.querySelector('[data-me]').textContent.startsWith(n), name);
  assert.deepEqual(problems, []);
});
