#!/usr/bin/env node
// The viewer's speed in Chromium (Debian's chromium, driven by playwright-core), on pages
// `notate render` writes from generated games:
//   - the size of a one-game page (goal: under 1 MB) and of a 1,000-game page,
//   - opening the 1,000-game page: from navigation to the first board drawn,
//   - seeking to any ply of a game of 300 plies or more (goal: under 16 ms, one frame): the
//     viewer's work and the browser's style and layout, for 300 random plies,
//   - stepping with animation: the frames of 40 animated steps (goal: 60 frames per second).
// Usage: node bench/viewer.mjs  (needs the notate command built: cargo build --release)
// No peer runs beside it: no other viewer shows chess, shogi and infinite chess from tracks.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { cliPath, root } from '../test/helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'notate-viewer-bench-'));
const pgn = join(dir, 'games.pgn');
writeFileSync(pgn, execFileSync('cargo', ['run', '--release', '--quiet', '-p', 'notate-testdata', '--', '7', '1000'], { cwd: root, maxBuffer: 1 << 30 }));
const many = join(dir, 'games.html');
execFileSync(cliPath(), ['render', pgn, '-o', many, '--quiet']);
const one = join(dir, 'one.html');
execFileSync(cliPath(), ['render', pgn, '--game', '1', '-o', one, '--quiet']);
const kb = (file) => `${(statSync(file).size / 1024).toFixed(0)} KB`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1100, height: 860 } });
const opens = [];
for (let i = 0; i < 5; i++) {
  await page.goto(pathToFileURL(many).href);
  await page.waitForSelector('svg.nv-board[data-ply]');
  opens.push(await page.evaluate(() => performance.now()));
}
// The longest game (at least 300 plies).
const longest = await page.evaluate(() => {
  const viewer = document.getElementById('notate').notateViewer;
  let best = 0;
  let plies = 0;
  viewer.sources.forEach((line, i) => {
    const n = (line.match(/"actions":/g) ?? []).length;
    if (n > plies) [best, plies] = [i, n];
  });
  viewer.select(best);
  return { game: best, plies };
});
if (longest.plies < 300) throw new Error(`no game of 300 plies among the generated ones (longest: ${longest.plies})`);
const seeks = await page.evaluate(({ plies }) => {
  const viewer = document.getElementById('notate').notateViewer;
  const board = document.querySelector('svg.nv-board');
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const times = [];
  for (let i = 0; i < 300; i++) {
    const ply = Math.floor(random() * (plies + 1));
    const start = performance.now();
    viewer.go(ply);
    // Style and layout of the new board, as the next frame would do them.
    board.querySelector('[data-piece]').getBoundingClientRect();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}, longest);
const frames = await page.evaluate(async () => {
  const viewer = document.getElementById('notate').notateViewer;
  viewer.go(100);
  const deltas = [];
  let last = null;
  let running = true;
  const tick = (now) => {
    if (last !== null) deltas.push(now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const board = document.querySelector('svg.nv-board');
  for (let i = 0; i < 40; i++) {
    viewer.step(1);
    await new Promise((done) => {
      const check = () => (board.hasAttribute('data-ply') ? done() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
  }
  running = false;
  return deltas;
});
await browser.close();

const at = (list, q) => list[Math.min(list.length - 1, Math.floor(q * list.length))];
const ms = (v) => `${v.toFixed(2)} ms`;
const fps = (1000 * frames.length) / frames.reduce((a, b) => a + b, 0);
const slow = frames.filter((d) => d > 1000 / 50).length;
console.log('| measure | value | goal |');
console.log('|---|---|---|');
console.log(`| HTML of one game | ${kb(one)} | under 1 MB |`);
console.log(`| HTML of 1,000 games | ${kb(many)} | |`);
console.log(`| open the 1,000-game page (median of 5) | ${ms(opens.sort((a, b) => a - b)[2])} | |`);
console.log(`| seek to a random ply of a ${longest.plies}-ply game, median | ${ms(at(seeks, 0.5))} | under 16 ms |`);
console.log(`| seek, 95th percentile / slowest | ${ms(at(seeks, 0.95))} / ${ms(seeks.at(-1))} | under 16 ms |`);
console.log(`| animated steps: frames per second | ${fps.toFixed(1)} (${slow} of ${frames.length} frames over 20 ms) | 60 |`);
