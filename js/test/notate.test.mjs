// notate's own API over the vectors: EGD, piece tracks and shogi give what the library gives
// (the `notate` command, which the Rust tests check against the vectors), byte for byte;
// errors carry their places; the Tracker follows every game; streams read as whole texts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, convert, egd, readPgn, readGames, streamGames, tracks, Tracker, NotateError } from '../dist/index.js';
import { cli, read, readBytes, root, vectors } from './helpers.mjs';

const pgnFiles = readdirSync(join(vectors, 'egd')).filter((f) => f.endsWith('.pgn'));

test('the EGD vectors are there', () => assert.ok(pgnFiles.length >= 30, `${pgnFiles.length}`));

for (const to of ['egd', 'tracks', 'json', 'pgn', 'uci', 'fen', 'jsonchess']) {
  test(`every EGD vector's PGN to ${to}: the library's output and errors`, () => {
    for (const file of pgnFiles) {
      const bytes = readBytes(`egd/${file}`);
      const want = cli(['convert', '--from', 'pgn', '--to', to], bytes);
      const got = convert(bytes, { from: 'pgn', to, errors: 'collect' });
      assert.equal(got.output, want.stdout, `${file} → ${to}`);
      // The command line reports each failed game on a line of its own, with its place.
      const reported = want.stderr.split('\n').filter((l) => /: game \d+/.test(l) && !/\(warning\)$/.test(l));
      assert.equal(got.errors.length, reported.length, `${file} → ${to}: ${want.stderr}`);
      for (const [i, error] of got.errors.entries()) {
        assert.ok(error instanceof NotateError);
        // A game the output cannot hold (a null move in EGD) is placed at its move, as a
        // reading error is.
        assert.ok(error.line !== null, `${file}: ${error.message}`);
        const place = `:${error.line}:${error.column}: game ${error.game}`;
        assert.ok(reported[i].includes(place), `${file}: ${reported[i]} / ${error.message}`);
        assert.ok(error.ply === null || reported[i].includes(`ply ${error.ply} `), `${file}: ${reported[i]} / ${error.message}`);
      }
    }
  });
}

test('EGD as objects: the reference\'s JSON where it is right', () => {
  for (const name of ['c01_opera_game_morphy_1858', 'c03_evergreen_game_anderssen_1852', 'c05_en_passant_both_sides', 'c06_both_castlings_and_bishops', 'c08_lichess_clock_comments', 'c10_annotated_nags_variations', 'c18_pinned_piece_disambiguation']) {
    const [game] = egd(read(`egd/${name}.pgn`));
    assert.equal(JSON.stringify(game), JSON.stringify(JSON.parse(read(`egd/${name}.json`))), name);
  }
});

test('tracks: the Tracker plays every game into its tracks, and positions agree', () => {
  let plies = 0;
  for (const file of pgnFiles) {
    const games = readPgn(read(`egd/${file}`), { errors: 'collect' });
    const tracked = tracks(read(`egd/${file}`), { errors: 'collect' });
    assert.equal(games.length, tracked.length, file);
    for (const [g, game] of games.entries()) {
      if (game instanceof NotateError) {
        assert.ok(tracked[g] instanceof NotateError, file);
        continue;
      }
      // The Tracker plays moves; a null move (`--`, e12) is not one.
      if (game.moves.some((m) => m.uci === '0000')) continue;
      const tracker = new Tracker(game.start);
      for (const [i, move] of game.moves.entries()) {
        assert.deepEqual(tracker.play(move.san), tracked[g].moves[i].actions, `${file} game ${g + 1} ply ${i + 1}`);
        assert.equal(tracker.fen, move.fen, `${file} game ${g + 1} ply ${i + 1}`);
        plies += 1;
      }
      tracker.free();
    }
  }
  assert.ok(plies > 300, `${plies}`);
});

test('readPgn: tags, SAN, UCI, FEN after every move, comments, clocks, evals', () => {
  const [game] = readPgn('[White "A"]\n[Black "B"]\n\n1. e4 {[%clk 0:03:00] [%eval 0.17]} e5 $1 2. Nf3 (2. f4) Nc6 1-0\n');
  assert.deepEqual(game.tags, { White: 'A', Black: 'B' });
  assert.deepEqual(game.moves.map((m) => m.san), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.deepEqual(game.moves.map((m) => m.uci), ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
  assert.equal(game.moves[2].fen, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
  assert.deepEqual(game.moves[0].comments[0], { text: '[%clk 0:03:00] [%eval 0.17]', clock: 180000, eval: { pawns: 0.17 } });
  assert.deepEqual(game.moves[1].nags, [1]);
  assert.equal(game.moves[2].variations[0].moves[0].san, 'f4');
  assert.equal(game.result, '1-0');
});

test('errors: one NotateError with line, column, game, ply and token, 1-based', () => {
  const text = '[Event "one"]\n\n1. e4 e5 *\n\n[Event "two"]\n\n1. e4 e5 2. Ke3 *\n';
  assert.throws(() => readPgn(text), (e) => e instanceof NotateError && e.line === 7 && e.column === 13 && e.game === 2 && e.ply === 3 && e.token === 'Ke3' && e.kind === 'illegal');
  const collected = readPgn(text, { errors: 'collect' });
  assert.equal(collected.length, 2);
  assert.ok(collected[1] instanceof NotateError);
  const { games, errors } = check(text);
  assert.equal(games, 2);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].message, 'game 2, line 7, column 13, ply 3 "Ke3": illegal move in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
  let thrown;
  try {
    convert(text, { from: 'pgn', to: 'uci' });
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof NotateError);
  assert.equal(thrown.output, 'e2e4 e7e5\n');
  assert.equal(thrown.errors.length, 1);
});

test('usage errors are NotateErrors of kind usage; null options are no options', () => {
  for (const bad of [
    () => convert('1. e4 *', { from: 'pgn' }),
    () => convert('1. e4 *', { from: 'nope', to: 'pgn' }),
    () => convert('1. e4 *', { from: 'pgn', to: 'egd', egdExtnded: true }),
    () => convert(42, { from: 'pgn', to: 'egd' }),
    () => convert('1. e4 *', null),
    () => readPgn('1. e4 *', { errors: 'maybe' }),
    () => readPgn('1. e4 *', { errors: 1n }),
    () => readPgn('1. e4 *', 'pgn'),
    // Not strings where the WebAssembly layer takes strings: refused before it (its glue
    // would trap on a number).
    () => convert('1. e4 *', { from: -1, to: 'fen' }),
    () => convert('1. e4 *', { to: 7 }),
    () => convert('1. e4 *', { to: ['f', 'en'] }),
    () => check('x', { from: 64 }),
    () => new Tracker(5),
    () => new Tracker().play(5),
    // What JSON cannot hold.
    () => convert('1. e4 *', { to: 'pgn', dialect: 1n }),
  ]) {
    assert.throws(bad, (e) => e instanceof NotateError && e.kind === 'usage', String(bad));
  }
  for (const bad of [
    () => convert('1. e4 *', { from: 'pgn', to: 'kif' }),
    () => convert('hello', { to: 'uci' }),
    () => new Tracker('not a fen'),
    () => new Tracker().play('e5'),
  ]) {
    assert.throws(bad, NotateError);
  }
  assert.deepEqual(readPgn('1. e4 *', null), readPgn('1. e4 *'));
  assert.deepEqual(check('1. e4 e4 *', null), check('1. e4 e4 *'));
  assert.deepEqual(egd('1. e4 *', null), egd('1. e4 *'));
  assert.deepEqual(tracks('1. e4 *', null), tracks('1. e4 *'));
  // A Tracker freed twice is freed; used after, a usage error.
  const tracker = new Tracker();
  tracker.free();
  tracker.free();
  assert.throws(() => tracker.play('e4'), (e) => e instanceof NotateError && e.kind === 'usage');
});

test('convert without from tells the format by the first bytes, as the command line does', () => {
  assert.equal(convert('[White "A"]\n\n1. e4 e5 *', { to: 'uci' }), 'e2e4 e7e5\n');
  assert.match(convert('w K5,1|k5,8 5,1>5,2', { to: 'icn-json' }), /"5,1>5,2"/);
  assert.match(convert('手合割：平手\n   1 ７六歩(77)\n', { to: 'usi' }), /moves 7g7f/);
  for (const file of shogiFiles) {
    const bytes = readBytes(join('shogi', file));
    assert.equal(convert(bytes, { to: 'sfen', errors: 'collect' }).output,
      convert(bytes, { from: shogiFormat(file), to: 'sfen', errors: 'collect' }).output, file);
  }
});

const shogiFiles = readdirSync(join(vectors, 'shogi')).filter((f) => /\.(kif|kifu|ki2|csa)$/.test(f));
const shogiFormat = (file) => ({ kif: 'kif', kifu: 'kif', ki2: 'ki2', csa: 'csa' })[file.split('.').pop()];

test('every shogi vector to every shogi format: the library\'s output (Shift_JIS read from bytes)', () => {
  assert.equal(shogiFiles.length, 16);
  for (const file of shogiFiles) {
    const bytes = readBytes(`shogi/${file}`);
    for (const to of ['sfen', 'usi', 'kif', 'ki2', 'csa', 'western', 'jkf', 'tracks']) {
      const want = cli(['convert', '--from', shogiFormat(file), '--to', to], bytes);
      const got = convert(bytes, { from: shogiFormat(file), to, errors: 'collect' });
      assert.equal(got.output, want.stdout, `${file} → ${to}`);
      assert.equal(got.errors.length === 0, want.status === 0, `${file} → ${to}`);
    }
  }
});

test('compressed bytes are refused, not read as a text (zstd opens with `(`, which PGN may)', async () => {
  const { gzipSync } = await import('node:zlib');
  const zstd = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x41, 0x00, 0x00]);
  for (const [bytes, name] of [[zstd, 'zstd'], [gzipSync('1. e4 *\n'), 'gzip']]) {
    const calls = [
      () => convert(bytes, { to: 'uci' }), () => check(bytes), () => readPgn(bytes), () => readGames(bytes),
      () => convert(bytes, { from: 'pgn', to: 'uci' }), () => egd(bytes), () => tracks(bytes),
    ];
    for (const call of calls) {
      assert.throws(call, (e) => e instanceof NotateError && e.kind === 'usage'
        && e.message.includes(`${name}-compressed: decompress it first`), name);
    }
  }
  // However the stream's chunks cut its first bytes.
  for (const pushes of [[zstd], [new Uint8Array(0), zstd], [zstd.subarray(0, 2), zstd.subarray(2)], [zstd.subarray(0, 1), zstd.subarray(1, 3), zstd.subarray(3)], ['', zstd]]) {
    await assert.rejects(async () => {
      for await (const _ of streamGames(pushes)) { /* nothing */ }
    }, (e) => e instanceof NotateError && e.message.includes('zstd-compressed'), String(pushes.map((p) => p.length)));
  }
  // A short stream of text is read.
  const short = [];
  for await (const game of streamGames([new TextEncoder().encode('*')])) short.push(game);
  assert.equal(short.length, 1);
  // A text that opens so is a text.
  assert.equal(readPgn('BZh9 1. e4 *', { errors: 'collect' }).length, 1);
  // The exported classes keep their names in the minified build.
  assert.deepEqual([NotateError.name, Tracker.name], ['NotateError', 'Tracker']);
});

test('CSA V2.2 is written as a string of its characters (Shift_JIS is for a file: the command line)', () => {
  const named = '先手：羽生\n後手：渡辺\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n';
  assert.equal(convert(named, { to: 'csa', csaVersion: '2.2' }), 'V2.2\nN+羽生\nN-渡辺\nPI\n+\n+7776FU\n');
  assert.equal(convert('position startpos moves 7g7f', { to: 'csa', csaVersion: '2.2' }), 'V2.2\nPI\n+\n+7776FU\n');
});

test('convert writes EPD and viewer documents, and reads SFEN, JKF, Western and the opening book, as the command line', () => {
  const pgn = read('egd/c01_opera_game_morphy_1858.pgn');
  for (const to of ['epd', 'view']) {
    const want = cli(['convert', '--from', 'pgn', '--to', to], pgn);
    assert.equal(want.status, 0, to);
    assert.equal(convert(pgn, { from: 'pgn', to }), want.stdout, to);
  }
  // Each shogi vector written by the command line as SFEN, JKF and Western, read back here.
  let readBack = 0;
  for (const file of shogiFiles) {
    const bytes = readBytes(join('shogi', file));
    for (const from of ['sfen', 'jkf', 'western']) {
      const written = cli(['convert', '--from', shogiFormat(file), '--to', from], bytes);
      if (written.status !== 0) continue;
      for (const to of ['usi', 'kif']) {
        const want = cli(['convert', '--from', from, '--to', to], written.stdout);
        const got = convert(written.stdout, { from, to, errors: 'collect' });
        assert.equal(got.output, want.stdout, `${file} → ${from} → ${to}`);
        assert.equal(got.errors.length === 0, want.status === 0, `${file} → ${from} → ${to}`);
        readBack += 1;
      }
    }
  }
  assert.ok(readBack >= 16 * 3 * 2 - 12, `${readBack}`);
  const book = readFileSync(join(root, 'examples', 'openings.json'), 'utf8');
  assert.equal(convert(book, { from: 'shogi-book', to: 'usi' }),
    'position startpos moves 2g2f 8c8d 2f2e\nposition startpos moves 7g7f 8c8d 6i7h\n');
  assert.equal(convert(book, { to: 'western' }), cli(['convert', '--from', 'shogi-book', '--to', 'western'], book).stdout);
});

test('ICN through convert, both ways, and check', () => {
  const long = convert('w K5,1|k5,8 5,1>5,2', { from: 'icn', to: 'icn-json' });
  assert.equal(convert(long, { from: 'icn-json', to: 'icn', moves: 'minimal', singleLine: true }).trim(), 'w K5,1|k5,8  5,1>5,2');
  // Without from, the format is told by the first bytes, as convert and the command line tell it.
  const usi = check('position startpos moves 7g7f 1a1a\n');
  assert.equal(usi.errors.length, 1);
  assert.match(usi.errors[0].message, /1a holds one of the mover's own pieces/);
  assert.equal(check('w K5,1|k5,8 1,1>1,2', { from: 'icn' }).errors.length, 1);
});

function* pieces(text, size) {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

test('streams give what the whole text gives, in any pieces', async () => {
  const text = readPgnCorpus();
  const whole = readPgn(text, { errors: 'collect' });
  for (const size of [1, 7, 4096, 1 << 20]) {
    const streamed = [];
    for await (const game of streamGames(pieces(text, size), { errors: 'collect' })) streamed.push(game);
    assert.equal(JSON.stringify(streamed.map(simple)), JSON.stringify(whole.map(simple)), `pieces of ${size}`);
  }
  // A web ReadableStream.
  const web = new Blob([text]).stream();
  let n = 0;
  for await (const game of streamGames(web, { errors: 'collect' })) n += game instanceof NotateError ? 0 : 1;
  assert.equal(n, whole.filter((g) => !(g instanceof NotateError)).length);
  // A node stream of a file.
  const dir = mkdtempSync(join(tmpdir(), 'notate-stream-'));
  try {
    writeFileSync(join(dir, 'games.pgn'), text);
    const fromFile = [];
    for await (const game of streamGames(createReadStream(join(dir, 'games.pgn'), { highWaterMark: 1000 }), { errors: 'collect' })) {
      fromFile.push(game);
    }
    assert.equal(JSON.stringify(fromFile.map(simple)), JSON.stringify(whole.map(simple)), 'fs.createReadStream');
  } finally {
    rmSync(dir, { recursive: true });
  }
  // Not a stream.
  for (const bad of [5, 'games.pgn', null, true]) {
    await assert.rejects(async () => {
      for await (const _ of streamGames(bad)) {
        // nothing
      }
    }, (e) => e instanceof NotateError && e.kind === 'usage', String(bad));
  }
  // Errors stop the stream unless collected.
  await assert.rejects(async () => {
    for await (const _ of streamGames(pieces('1. e4 e4 *', 3))) {
      // nothing
    }
  }, NotateError);
});

test('a stream\'s games come with the chunk that completes them; live, with the one that ends them', async () => {
  // Each chunk is given only once the games it completed came out (a broadcast that waits).
  const given = async (chunks, options) => {
    const counts = [];
    let seen = 0;
    async function* source() {
      for (const chunk of chunks) {
        yield new TextEncoder().encode(chunk);
        counts.push(seen);
      }
    }
    for await (const game of streamGames(source(), options)) {
      assert.equal(typeof game.moves.length, 'number');
      seen += 1;
    }
    counts.push(seen);
    return counts;
  };
  const chunks = ['[Event "a"]\n\n1. e4 e5 *\n', '\n[Event "b"]\n\n1. d4', ' d5 *\n', '\n1. c4 1-0\n'];
  // (A count is read when the next chunk is asked for: after the games the last one gave.)
  assert.deepEqual(await given(chunks), [0, 1, 1, 2, 3]);
  assert.deepEqual(await given(chunks, { live: true }), [1, 1, 2, 3, 3]);
  const game = convert('1. d4 d5 *', { from: 'pgn', to: 'json' });
  assert.deepEqual(await given([game.slice(0, 9), game.slice(9)], { from: 'json' }), [0, 1, 1]);
  // Live, a chunk is pushed whole: a note after a result at its 1 MiB mark stays with its game.
  const text = '1. e4 *\n'.repeat(131072) + '{note}\n\n1. d4 *\n';
  const streamed = [];
  for await (const g of streamGames([text], { live: true })) streamed.push(g);
  assert.equal(JSON.stringify(streamed.slice(-2)), JSON.stringify(readPgn(text).slice(-2)));
  await assert.rejects(async () => {
    for await (const _ of streamGames([text], { live: 'yes' })) {
      // nothing
    }
  }, (e) => e instanceof NotateError && e.kind === 'usage' && /live: true or false/.test(e.message));
});

/** A game or error, comparable across the two ways. */
function simple(item) {
  return item instanceof NotateError ? { error: item.message } : item;
}

/** Every PGN of the EGD vectors, one after another. */
function readPgnCorpus() {
  return pgnFiles.map((f) => read(`egd/${f}`)).join('\n\n');
}

test('readGames reads notate\'s game JSON, EGD and jsonchess back', () => {
  const pgn = read('egd/c01_opera_game_morphy_1858.pgn');
  const [game] = readPgn(pgn);
  for (const from of ['json', 'egd', 'jsonchess']) {
    const [back] = readGames(convert(pgn, { from: 'pgn', to: from }), { from });
    assert.deepEqual(back.moves.map((m) => m.fen), game.moves.map((m) => m.fen), from);
  }
});

test('tracks() for shogi and infinite chess: the library\'s names and actions', () => {
  const [shogi] = tracks('position startpos moves 7g7f 3c3d 8h2b+', { from: 'usi' });
  assert.equal(shogi.start.bP7g, '7g');
  assert.deepEqual(shogi.moves[2], { ply: 3, usi: '8h2b+', actions: [['bB8h', '2b'], ['bB8h', '+'], ['wB2b', 'b']] });
  const [infinite] = tracks('w K5,1+|R8,1+|k5,8 5,1>7,1', { from: 'icn' });
  assert.deepEqual(infinite.moves[0].actions, [['wK5,1', '7,1'], ['wR8,1', '6,1']]);
});
