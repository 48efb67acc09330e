#!/usr/bin/env node
// Benchmark of notate's npm package against JavaScript peers, in one node process.
//
//   node bench/bench.mjs [--peers-only] [--rounds N] [--sections a,b,c] [--extra]
//
//   a. PGN: read and replay every game (SAN, UCI and FEN after every ply)
//        notate (readPgn over the whole text) vs chess.js (loadPgn per game + verbose history)
//        vs chessops (parsePgn + parseSan/play/makeFen/makeUci for every mainline move)
//   b. ICN: ShortToLong_Format then LongToShort_Format, infinitechess.org's FormatConverter.js
//        vs notate/formatconverter, on the ShortToLong_Format vectors and on a generated
//        100,000-move game
//   c. size of ../dist/wasm/*.wasm (raw and gzip -9) and of ../*notate-*.tgz if packed
//
// Peers are not dependencies of the package: they live in a scratch folder, JSBENCH_PEERS
// (default /tmp/jsbench), set up with
//   npm init -y && npm install chess.js chessops
// plus FormatConverter.js (tsevasa/infinite-chess-notation@3fa16156) and a loader module
// load-formatconverter.mjs exporting its functions.
//
// Environment:
//   JSBENCH_PEERS        peer folder (default /tmp/jsbench)
//   JSBENCH_CORPUS       folder with lichess_db_1000k.pgn and twic1599_1000k.pgn
//                        (default /work/shared/corpus/pgn-reader-benches)
//   JSBENCH_PGN_FILES    comma-separated file names inside JSBENCH_CORPUS (overrides the default two)
//   JSBENCH_ICN_VECTORS  folder with index.json of the ICN vectors (default /work/shared/vectors/icn)
//
// Output: markdown tables on stdout; progress on stderr.

import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync, gunzipSync } from 'node:zlib';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';

// ---------------------------------------------------------------- options

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const optValue = (name, dflt) => {
  const i = argv.indexOf(name);
  if (i >= 0 && i + 1 < argv.length) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(name + '='));
  return eq ? eq.slice(name.length + 1) : dflt;
};
if (flag('--help') || flag('-h')) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 30)
    .filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
  process.exit(0);
}
const PEERS_ONLY = flag('--peers-only');
const EXTRA = flag('--extra');
const ROUNDS = Math.max(1, parseInt(optValue('--rounds', '3'), 10) || 3);
const SECTIONS = new Set(optValue('--sections', 'a,b,c').split(',').map((s) => s.trim()));

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = join(here, '..');
const distDir = join(pkgDir, 'dist');
const PEERS = process.env.JSBENCH_PEERS || '/tmp/jsbench';
const CORPUS = process.env.JSBENCH_CORPUS || '/work/shared/corpus/pgn-reader-benches';
const PGN_FILES = (process.env.JSBENCH_PGN_FILES || 'lichess_db_1000k.pgn,twic1599_1000k.pgn')
  .split(',').map((s) => s.trim()).filter(Boolean);
const ICN_VECTORS = process.env.JSBENCH_ICN_VECTORS || '/work/shared/vectors/icn';

const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const die = (msg) => {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(1);
};

// Collect garbage between timed runs so one library's garbage is not billed to the next.
let gc = globalThis.gc;
if (typeof gc !== 'function') {
  try {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc');
  } catch {
    gc = () => {};
  }
}

// ---------------------------------------------------------------- load notate

let notate = null;
let notateFc = null;
let notateVersion = '-';

async function importNotateModule(file, what) {
  if (!existsSync(file)) {
    die(`notate's build is missing: ${file} does not exist.\n` +
      `  Build the npm package first (it should produce ${join('js', 'dist')}/index.js, formatconverter.js and the .wasm),\n` +
      `  or run with --peers-only to time the peers alone.`);
  }
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    die(`could not load ${what} from ${file}: ${e && e.stack ? e.stack : e}`);
  }
  // wasm-bindgen "web" target: the default export initialises the module.
  if (typeof mod.default === 'function' && typeof mod.initSync === 'function') await mod.default();
  return mod;
}

if (!PEERS_ONLY) {
  if (!existsSync(distDir)) {
    die(`notate's build is missing: ${distDir} does not exist.\n` +
      `  Build the npm package first, or run with --peers-only to time the peers alone.`);
  }
  if (SECTIONS.has('a')) {
    notate = await importNotateModule(join(distDir, 'index.js'), 'notate');
    if (typeof notate.readPgn !== 'function') die(`${join(distDir, 'index.js')} does not export readPgn()`);
  }
  if (SECTIONS.has('b')) {
    notateFc = await importNotateModule(join(distDir, 'formatconverter.js'), 'notate/formatconverter');
    for (const f of ['ShortToLong_Format', 'LongToShort_Format']) {
      if (typeof notateFc[f] !== 'function') die(`${join(distDir, 'formatconverter.js')} does not export ${f}()`);
    }
  }
  try {
    notateVersion = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version || '?';
  } catch {
    notateVersion = '?';
  }
}

// ---------------------------------------------------------------- load peers

if (!existsSync(PEERS)) {
  die(`peer folder ${PEERS} does not exist (set JSBENCH_PEERS; see the header of this script)`);
}
const peerVersion = (name) => {
  try {
    return JSON.parse(readFileSync(join(PEERS, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
};
// Resolve "pkg/sub" as an ES module import from inside PEERS (node's own resolver only resolves
// bare names relative to the importing file, which lives elsewhere). Covers package.json
// "exports" with exact and "./*" keys and nested conditions, then "module"/"main".
function resolvePeerImport(spec) {
  const parts = spec.split('/');
  const nameLen = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLen).join('/');
  const sub = '.' + (parts.length > nameLen ? '/' + parts.slice(nameLen).join('/') : '');
  const dir = join(PEERS, 'node_modules', name);
  const pkgFile = join(dir, 'package.json');
  if (!existsSync(pkgFile)) throw new Error(`${name} is not installed in ${PEERS}`);
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (Array.isArray(target)) return target.map(pick).find(Boolean);
    if (target && typeof target === 'object') {
      for (const cond of ['node', 'import', 'module', 'default']) {
        if (cond in target) {
          const r = pick(target[cond]);
          if (r) return r;
        }
      }
    }
    return null;
  };
  let rel = null;
  let exp = pkg.exports;
  if (exp != null) {
    if (typeof exp === 'string' || Array.isArray(exp) || !Object.keys(exp).some((k) => k.startsWith('.'))) exp = { '.': exp };
    if (sub in exp) rel = pick(exp[sub]);
    else {
      for (const key of Object.keys(exp)) {
        const star = key.indexOf('*');
        if (star < 0) continue;
        const pre = key.slice(0, star), post = key.slice(star + 1);
        if (sub.startsWith(pre) && sub.endsWith(post) && sub.length >= pre.length + post.length) {
          const t = pick(exp[key]);
          if (t) rel = t.split('*').join(sub.slice(pre.length, sub.length - post.length));
          break;
        }
      }
    }
  } else if (sub === '.') {
    rel = pkg.module || pkg.main || 'index.js';
  } else {
    rel = sub;
  }
  if (!rel) throw new Error(`${spec}: no ES module entry in ${pkgFile}`);
  return pathToFileURL(join(dir, rel)).href;
}
const importPeer = async (spec) => {
  try {
    return await import(resolvePeerImport(spec));
  } catch (e) {
    die(`cannot load ${spec} from ${PEERS} (npm install chess.js chessops there): ${e.message}`);
  }
};

let Chess, parsePgn, startingPosition, parseSan, makeSanAndPlay, makeFen, makeUci;
if (SECTIONS.has('a')) {
  ({ Chess } = await importPeer('chess.js'));
  ({ parsePgn, startingPosition } = await importPeer('chessops/pgn'));
  ({ parseSan, makeSanAndPlay } = await importPeer('chessops/san'));
  ({ makeFen } = await importPeer('chessops/fen'));
  ({ makeUci } = await importPeer('chessops/util'));
}
let refFc = null;
if (SECTIONS.has('b')) {
  const loader = join(PEERS, 'load-formatconverter.mjs');
  if (!existsSync(loader)) die(`${loader} is missing (it should export FormatConverter.js's functions)`);
  refFc = await import(pathToFileURL(loader).href);
  for (const f of ['ShortToLong_Format', 'LongToShort_Format']) {
    if (typeof refFc[f] !== 'function') die(`${loader} does not export ${f}()`);
  }
}

// ---------------------------------------------------------------- helpers

const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmtInt = (n) => (n == null || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US'));
const fmtSec = (ms) => (ms == null ? '-' : (ms / 1000).toFixed(3));
const fmtMs = (ms) => (ms == null ? '-' : ms < 10 ? ms.toFixed(3) : ms.toFixed(1));
const fmtRatio = (r) => (r == null || !Number.isFinite(r) ? '-' : r >= 10 ? r.toFixed(1) + '×' : r.toFixed(2) + '×');
// The first `textCols` columns are left-aligned, the rest (numbers) right-aligned.
const table = (head, rows, textCols = 1) =>
  [`| ${head.join(' | ')} |`, `|${head.map((h, i) => (i < textCols ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const out = [];
const print = (s = '') => out.push(s);

// Run every task once per round, rotating the order from round to round; returns ms lists.
function interleaved(tasks, rounds) {
  const times = tasks.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < tasks.length; k++) {
      const i = (k + r) % tasks.length;
      gc();
      const t0 = now();
      tasks[i].run();
      times[i].push(now() - t0);
    }
  }
  return times;
}

// ---------------------------------------------------------------- header

print('# notate npm package benchmark');
print();
print(table(['what', 'value'], [
  ['node', process.version],
  ['cpu', `${os.cpus()[0]?.model ?? '?'} (${os.cpus().length} logical)`],
  ['notate', PEERS_ONLY ? 'not loaded (--peers-only)' : `${notateVersion} (${distDir})`],
  ['chess.js', SECTIONS.has('a') ? peerVersion('chess.js') : '-'],
  ['chessops', SECTIONS.has('a') ? peerVersion('chessops') : '-'],
  ['FormatConverter.js', SECTIONS.has('b') ? (refFc.sourcePath ?? join(PEERS, 'FormatConverter.js')) : '-'],
  ['rounds', `${ROUNDS} (interleaved, order rotated each round; median reported)`],
], 2));
print();

// ---------------------------------------------------------------- a. PGN

// Every implementation returns [games, plies, failedGames, checksum]; for verification it
// can also fill `finals` with the FEN after the last replayed ply of each game.

function splitGamesForChessJs(text) {
  // chess.js reads one game per loadPgn call: split at the blank line before `[Event`.
  return text.split(/\r?\n[ \t]*\r?\n(?=\[Event )/).filter((g) => g.trim() !== '');
}

function runChessJs(text, finals, refusals) {
  const games = splitGamesForChessJs(text);
  const chess = new Chess();
  let plies = 0, failed = 0, sum = 0;
  for (let gi = 0; gi < games.length; gi++) {
    try {
      chess.loadPgn(games[gi]);
    } catch (e) {
      failed++;
      if (refusals) refusals.push({ game: gi + 1, error: String(e && e.message ? e.message : e).slice(0, 160) });
      if (finals) finals.push(null);
      continue;
    }
    const history = chess.history({ verbose: true });
    for (let i = 0; i < history.length; i++) {
      const m = history[i];
      sum += m.san.length + m.lan.length + m.after.length;
    }
    plies += history.length;
    if (finals) finals.push(history.length ? history[history.length - 1].after : null);
  }
  return [games.length, plies, failed, sum];
}

function runChessJsLoadOnly(text) {
  const games = splitGamesForChessJs(text);
  const chess = new Chess();
  let failed = 0, sum = 0;
  for (const g of games) {
    try {
      chess.loadPgn(g);
      sum += chess.fen().length;
    } catch {
      failed++;
    }
  }
  return [games.length, null, failed, sum];
}

function runChessops(text, finals, refusals, normalizeSan = false) {
  const games = parsePgn(text);
  let plies = 0, failed = 0, sum = 0;
  for (let gi = 0; gi < games.length; gi++) {
    const game = games[gi];
    const start = startingPosition(game.headers);
    if (start.isErr) {
      failed++;
      if (refusals) refusals.push({ game: gi + 1, error: String(start.error) });
      if (finals) finals.push(null);
      continue;
    }
    const pos = start.value;
    let last = null;
    let ply = 0;
    for (const node of game.moves.mainline()) {
      ply++;
      const move = parseSan(pos, node.san);
      if (!move) {
        failed++;
        if (refusals) refusals.push({ game: gi + 1, error: `illegal SAN ${node.san} at ply ${ply}` });
        break;
      }
      const uci = makeUci(move);
      let san = node.san;
      if (normalizeSan) san = makeSanAndPlay(pos, move);
      else pos.play(move);
      const fen = makeFen(pos.toSetup());
      sum += san.length + uci.length + fen.length;
      plies++;
      last = fen;
    }
    if (finals) finals.push(last);
  }
  return [games.length, plies, failed, sum];
}

function runNotate(text, finals) {
  const games = notate.readPgn(text);
  let plies = 0, failed = 0, sum = 0;
  for (let gi = 0; gi < games.length; gi++) {
    const game = games[gi];
    const moves = game.moves;
    const n = moves.length;
    for (let i = 0; i < n; i++) {
      const m = moves[i];
      sum += m.san.length + m.uci.length + m.fen.length;
    }
    plies += n;
    if (game.error) failed++;
    if (finals) finals.push(n ? moves[n - 1].fen : null);
    if (typeof game.free === 'function') game.free();
  }
  return [games.length, plies, failed, sum];
}

// FEN equality up to the en-passant field (libraries differ on when they write it).
const fenKey = (f) => (f == null ? null : f.split(' ').filter((_, i) => i !== 3).join(' '));

function sectionA() {
  print('## a. Read and replay PGN (SAN, UCI and FEN after every ply)');
  print();
  print('- chess.js: text split at the blank line before `[Event` (timed), `loadPgn` per game, then ' +
    '`history({ verbose: true })` (`san`, `lan`, `after`).');
  print('- chessops: `parsePgn` over the whole text, then per mainline move `parseSan`, `makeUci`, `play`, ' +
    '`makeFen(pos.toSetup())` (input SAN kept as is).');
  print('- notate: `readPgn(text)` over the whole text, reading `san`, `uci` and `fen` of every move.');
  print();
  const rows = [];
  const notes = [];
  for (const name of PGN_FILES) {
    const file = join(CORPUS, name);
    if (!existsSync(file)) die(`PGN file ${file} not found (set JSBENCH_CORPUS / JSBENCH_PGN_FILES)`);
    const text = readFileSync(file, 'utf8');
    log(`a. ${name}: ${text.length} chars`);

    // Verification pass (untimed, also warms up every implementation).
    const impls = [
      { id: 'chess.js', run: (t, f, r) => runChessJs(t, f, r) },
      { id: 'chessops', run: (t, f, r) => runChessops(t, f, r) },
    ];
    if (EXTRA) {
      impls.push({ id: 'chess.js loadPgn only', run: (t) => runChessJsLoadOnly(t), extra: true });
      impls.push({ id: 'chessops + makeSanAndPlay', run: (t, f, r) => runChessops(t, f, r, true), extra: true });
    }
    if (notate) impls.push({ id: 'notate', run: (t, f) => runNotate(t, f) });
    const counts = {};
    const finals = {};
    for (const impl of impls) {
      const f = [], refusals = [];
      let res;
      try {
        res = impl.run(text, f, refusals);
      } catch (e) {
        die(`${impl.id} failed on ${name}: ${e && e.stack ? e.stack : e}`);
      }
      counts[impl.id] = res;
      finals[impl.id] = f;
      if (refusals.length) {
        notes.push(`${name}: ${impl.id} refused ${refusals.length} game(s): ` +
          refusals.slice(0, 3).map((x) => `#${x.game} (${x.error})`).join('; ') + (refusals.length > 3 ? '; ...' : ''));
      }
    }
    // Cross-check final positions against chessops.
    const base = finals.chessops;
    for (const id of ['chess.js', 'notate']) {
      const f = finals[id];
      if (!f || !base) continue;
      let diff = 0, firstDiff = -1;
      if (f.length !== base.length) {
        notes.push(`${name}: ${id} found ${f.length} games, chessops ${base.length} (final positions not compared)`);
      }
      for (let i = 0; f.length === base.length && i < f.length; i++) {
        if (fenKey(f[i]) !== fenKey(base[i])) {
          diff++;
          if (firstDiff < 0) firstDiff = i;
        }
      }
      if (diff) {
        notes.push(`${name}: final FEN of ${diff} game(s) differs between ${id} and chessops ` +
          `(first: game #${firstDiff + 1}: ${f[firstDiff]} vs ${base[firstDiff]})`);
      }
      if (counts[id][1] !== counts.chessops[1]) {
        notes.push(`${name}: ${id} replayed ${counts[id][1]} plies, chessops ${counts.chessops[1]}`);
      }
    }

    const tasks = impls.map((impl) => ({ id: impl.id, run: () => { impl.run(text); } }));
    log(`a. ${name}: timing ${tasks.map((t) => t.id).join(', ')} x ${ROUNDS}`);
    const times = interleaved(tasks, ROUNDS);
    const med = {};
    tasks.forEach((t, i) => { med[t.id] = median(times[i]); });
    for (const impl of impls) {
      const [games, plies, failed] = counts[impl.id];
      const ms = med[impl.id];
      rows.push([
        name, impl.id, fmtInt(games), fmtInt(plies), fmtInt(failed), fmtSec(ms),
        fmtInt(games / (ms / 1000)), plies == null ? '-' : fmtInt(plies / (ms / 1000)),
        notate && impl.id !== 'notate' ? fmtRatio(ms / med.notate) : '-',
        times[impls.indexOf(impl)].map((x) => (x / 1000).toFixed(3)).join(' '),
      ]);
    }
    if (notate) {
      rows.push([name, '**notate ÷ chess.js**', '', '', '', '', '', '', `**${fmtRatio(med['chess.js'] / med.notate)}**`, '']);
      rows.push([name, '**notate ÷ chessops**', '', '', '', '', '', '', `**${fmtRatio(med.chessops / med.notate)}**`, '']);
    }
  }
  print(table(['file', 'library', 'games', 'plies', 'refused', 'median s', 'games/s', 'plies/s',
    'notate speed-up (lib s ÷ notate s)', 'all runs s'], rows, 2));
  print();
  if (notes.length) {
    print('Notes:');
    for (const n of notes) print(`- ${n}`);
    print();
  }
}

// ---------------------------------------------------------------- b. ICN

// A legal-looking 100,000-ply game in the classical setup: both sides shuffle a rook along
// its file towards the edge of the (infinite) board and back, with varying distances.
function generateIcnGame(plies) {
  const header = '[Event "notate bench: generated rook shuffle"]\n[Site "-"]\n[Variant "Classical"]\n' +
    '[White "gen"]\n[Black "gen"]\n[Result "*"]\n\n' +
    'w 0/100 1 (8|1) ' +
    'P1,2+|P2,2+|P3,2+|P4,2+|P5,2+|P6,2+|P7,2+|P8,2+|p1,7+|p2,7+|p3,7+|p4,7+|p5,7+|p6,7+|p7,7+|p8,7+|' +
    'R1,1+|R8,1+|r1,8+|r8,8+|N2,1|N7,1|n2,8|n7,8|B3,1|B6,1|b3,8|b6,8|Q4,1|q4,8|K5,1+|k5,8+\n\n';
  // Two opening pawn moves, then the a-file rooks shuffle (no captures, no checks).
  const moves = ['1,2>1,4', '1,7>1,5'];
  for (let i = 0; moves.length < plies; i++) {
    const d = (i % 997) + 1; // 1..997 squares
    // White rook 1,1 slides down the a-file (away from everything), black rook 1,8 slides up.
    const w = `1,${1 - d}`, b = `1,${8 + d}`;
    moves.push(`1,1>${w}`, `1,8>${b}`, `${w}>1,1`, `${b}>1,8`);
  }
  moves.length = plies;
  return header + moves.join('|');
}

function sectionB() {
  print('## b. ICN short → long → short (`ShortToLong_Format` then `LongToShort_Format(long, { compact_moves })`)');
  print();
  const idxFile = join(ICN_VECTORS, 'index.json');
  if (!existsSync(idxFile)) die(`${idxFile} not found (set JSBENCH_ICN_VECTORS)`);
  const index = JSON.parse(readFileSync(idxFile, 'utf8'));
  const inputs = [];
  let skipped = 0;
  for (const c of index.cases) {
    if (c.function !== 'ShortToLong_Format' || c.input_type !== 'string') continue;
    const s = readFileSync(join(ICN_VECTORS, c.input_file), 'utf8');
    try {
      refFc.ShortToLong_Format(s);
      inputs.push({ id: c.id, text: s });
    } catch {
      skipped++;
    }
  }
  const genText = generateIcnGame(100000);
  {
    const long = refFc.ShortToLong_Format(genText);
    if (!long.moves || long.moves.length !== 100000) {
      die(`FormatConverter.js read ${long.moves ? long.moves.length : 0} moves of the generated game, expected 100000`);
    }
  }
  const sets = [
    { name: `vectors: ${inputs.length} ShortToLong_Format inputs (${skipped} that the reference throws on skipped)`,
      texts: inputs.map((x) => x.text), ids: inputs.map((x) => x.id) },
    { name: `generated 100,000-ply game (${fmtInt(genText.length)} chars)`, texts: [genText], ids: ['gen'] },
  ];
  const compacts = [0, 2];
  const rows = [];
  const notes = [];
  const impls = [{ id: 'FormatConverter.js', fc: refFc }];
  if (notateFc) impls.push({ id: 'notate/formatconverter', fc: notateFc });

  for (const set of sets) {
    for (const compact_moves of compacts) {
      // Reference outputs, and the inputs the reference round-trips without throwing.
      const ok = [];
      const refOut = [];
      for (let i = 0; i < set.texts.length; i++) {
        try {
          const long = refFc.ShortToLong_Format(set.texts[i]);
          const longJson = JSON.stringify(long);
          const short = refFc.LongToShort_Format(long, { compact_moves });
          ok.push(set.texts[i]);
          refOut.push({ longJson, short, id: set.ids[i] });
        } catch (e) {
          notes.push(`${set.ids[i]}: reference LongToShort_Format(compact_moves=${compact_moves}) threw ${e.message}; input left out`);
        }
      }
      // Does notate give the same answers?
      let same = null;
      if (notateFc) {
        same = 0;
        for (let i = 0; i < ok.length; i++) {
          try {
            const long = notateFc.ShortToLong_Format(ok[i]);
            const longJson = JSON.stringify(long);
            const short = notateFc.LongToShort_Format(long, { compact_moves });
            if (longJson === refOut[i].longJson && short === refOut[i].short) same++;
            else if (notes.length < 40) {
              notes.push(`${refOut[i].id} (compact_moves=${compact_moves}): notate differs from the reference in the ` +
                (longJson !== refOut[i].longJson ? 'long form' : 'short form'));
            }
          } catch (e) {
            notes.push(`${refOut[i].id} (compact_moves=${compact_moves}): notate threw ${e && e.message ? e.message : e}`);
          }
        }
      }
      const roundTrip = (fc) => {
        let n = 0;
        for (let i = 0; i < ok.length; i++) {
          try {
            const long = fc.ShortToLong_Format(ok[i]);
            n += fc.LongToShort_Format(long, { compact_moves }).length;
          } catch {
            n--;
          }
        }
        return n;
      };
      // Calibrate repetitions on the reference so each timed run lasts about 0.3 s.
      for (let i = 0; i < 5; i++) roundTrip(refFc);
      const t0 = now();
      roundTrip(refFc);
      const single = Math.max(now() - t0, 0.001);
      const reps = Math.max(1, Math.ceil(300 / single));
      if (notateFc) for (let i = 0; i < 3; i++) roundTrip(notateFc);
      const tasks = impls.map((impl) => ({ id: impl.id, run: () => { for (let r = 0; r < reps; r++) roundTrip(impl.fc); } }));
      log(`b. ${set.ids.length > 1 ? 'vectors' : 'generated'} compact_moves=${compact_moves}: ${reps} reps x ${ROUNDS}`);
      const times = interleaved(tasks, ROUNDS);
      const per = times.map((ts) => median(ts) / reps);
      for (let i = 0; i < impls.length; i++) {
        rows.push([set.name, String(compact_moves), impls[i].id, String(ok.length), String(reps), fmtMs(per[i]),
          notateFc && i === 0 ? fmtRatio(per[0] / per[1]) : '-',
          i === 1 && same != null ? `${same}/${ok.length}` : '-']);
      }
    }
  }
  print('Times are per round trip of the whole set (median of the rounds, divided by the repetitions). ' +
    'At this commit the reference writes string moves (`"1,2>1,4"`, which `ShortToLong_Format` produces) ' +
    'joined by `|` whatever `compact_moves` says, so both settings are timed.');
  print();
  print(table(['input', 'compact_moves', 'implementation', 'inputs', 'reps', 'ms per round trip',
    'notate speed-up (ref ms ÷ notate ms)', 'identical to reference'], rows, 3));
  print();
  // The least any implementation returning the long form's array of move strings can do:
  // make 100,000 strings from one text (split) and one text from them (join). FormatConverter.js
  // does little more, so this bounds the speed-up any drop-in can reach on a long game.
  {
    const moveText = genText.slice(genText.lastIndexOf('\n') + 1);
    const floor = () => moveText.split('|').join('|').length;
    const ref = () => refFc.LongToShort_Format(refFc.ShortToLong_Format(genText), { compact_moves: 0 }).length;
    for (let i = 0; i < 3; i++) { floor(); ref(); }
    const times = interleaved([{ id: 'floor', run: () => { for (let r = 0; r < 6; r++) floor(); } },
      { id: 'ref', run: () => { for (let r = 0; r < 6; r++) ref(); } }], ROUNDS);
    const [f, r] = times.map((ts) => median(ts) / 6);
    print(`The floor on the generated game (\`split('|')\` then \`join('|')\` of its 100,000 moves, ` +
      `nothing read or checked): ${fmtMs(f)} ms, so no drop-in that returns real arrays can be more ` +
      `than ${fmtRatio(r / f)} FormatConverter.js (${fmtMs(r)} ms in this run).`);
    print();
  }
  if (notes.length) {
    print('Notes:');
    for (const n of notes) print(`- ${n}`);
    print();
  }
}

// ---------------------------------------------------------------- c. sizes

function sectionC() {
  print('## c. Package size');
  print();
  const rows = [];
  // wasm-bindgen writes the module into dist/wasm/.
  const wasmDir = join(distDir, 'wasm');
  const wasm = existsSync(wasmDir) ? readdirSync(wasmDir).filter((f) => f.endsWith('.wasm')).sort() : [];
  for (const f of wasm) {
    const buf = readFileSync(join(wasmDir, f));
    rows.push([`dist/wasm/${f}`, fmtInt(buf.length), fmtInt(gzipSync(buf, { level: 9 }).length), '.wasm raw / gzip -9 (zlib)']);
  }
  const tgz = existsSync(pkgDir) ? readdirSync(pkgDir).filter((f) => /notate-.*\.tgz$/.test(f)).sort() : [];
  for (const f of tgz) {
    const buf = readFileSync(join(pkgDir, f));
    let tar = null;
    try {
      tar = gunzipSync(buf);
    } catch {}
    rows.push([f, tar ? fmtInt(tar.length) : '?', fmtInt(buf.length),
      'raw = unpacked tar; gzip = the .tgz as packed' + (tar ? ` (re-gzip -9: ${fmtInt(gzipSync(tar, { level: 9 }).length)})` : '')]);
  }
  if (!rows.length) {
    print(PEERS_ONLY ? 'Skipped: no `dist/wasm/*.wasm` or `*notate-*.tgz` next to this script (--peers-only).'
      : `No .wasm in ${wasmDir} and no *notate-*.tgz in ${pkgDir}.`);
  } else {
    if (!tgz.length) rows.push(['(no *notate-*.tgz: run `npm pack` in js/ to measure the tarball)', '', '', '']);
    print(table(['file', 'bytes', 'gzip bytes', 'note'], rows));
  }
  print();
}

// ---------------------------------------------------------------- main

const t0 = now();
if (SECTIONS.has('a')) sectionA();
if (SECTIONS.has('b')) sectionB();
if (SECTIONS.has('c')) sectionC();
print(`_Total wall time ${((now() - t0) / 1000).toFixed(1)} s._`);
process.stdout.write(out.join('\n') + '\n');
