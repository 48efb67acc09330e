// Every jsonchess vector through notate/jsonchess: packed moves (encodeAndPack, unpack,
// decode, History.decode), premoves and Glicko-2; with the deliberate differences of the
// Rust tests (crates/notate/tests/jsonchess_vectors.rs, protocol_vectors.rs): field 7 holds
// the rights the mover really lost, unpack keeps K and Q, castling premoves are decided.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as jc from '../dist/jsonchess.js';
import { NotateError } from '../dist/index.js';
import { wasm } from '../dist/core.js';
import { read, root, vectors } from './helpers.mjs';

const { Move, History, Premove } = jc;
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const firstThree = (fen) => fen.split(' ').slice(0, 3).join(' ');

/** Field 7 from the castling fields of python-chess's FENs before and after the move. */
function rightsLost(before, after, white) {
  const [b, a] = [before.split(' ')[2], after.split(' ')[2]];
  const [k, q] = white ? ['K', 'Q'] : ['k', 'q'];
  const lost = (c) => b.includes(c) && !a.includes(c);
  return { 'false,false': 'N', 'true,false': 'K', 'false,true': 'Q', 'true,true': 'A' }[`${lost(k)},${lost(q)}`];
}

const games = readdirSync(join(vectors, 'jsonchess')).filter((f) => /^[gq]\d.*\.json$/.test(f));

test('the game vectors are there', () => assert.equal(games.length, 7));

for (const file of games) {
  test(`game ${file}: every ply encoded, unpacked and decoded`, () => {
    const game = JSON.parse(read(`jsonchess/${file}`));
    const illegalAt = game.python_first_illegal_ply;
    let fen = START;
    const history = [];
    for (const [i, ply] of game.plies.entries()) {
      if (i === illegalAt) {
        // The reference accepts a castling real chess forbids: notate refuses it.
        assert.throws(() => Move.decode(ply.packed, fen, { referenceRights: true }), NotateError);
        assert.equal(i + 1, game.plies.length);
        assert.throws(() => History.decode([...history, ply.packed], undefined, { referenceRights: true }), (e) => e instanceof NotateError && e.ply === i + 1);
        break;
      }
      history.push(ply.packed);
      const ours = Move.encodeAndPack(fen, ply.uci, Number(ply.fields[3]));
      const white = fen.split(' ')[1] === 'w';
      const lost = rightsLost(fen, ply.python_fen_after, white);
      const oursFields = ours.split(',');
      assert.equal(oursFields.length, ply.fields.length, `${file} ply ${i}`);
      for (const [f, value] of oursFields.entries()) {
        assert.equal(value, f === 6 ? lost : ply.fields[f], `${file} ply ${i} field ${f + 1}: ${ours}`);
      }
      // unpack: the reference's fields, but K and Q kept (the reference drops them).
      const unpacked = Move.unpack(ply.packed);
      const expected = { ...ply.unpacked, type: ply.unpacked.type ?? undefined };
      const f7 = ply.fields[6];
      if (f7 === 'K' || f7 === 'Q') expected.castlingRightsLost = [f7];
      for (const [key, value] of Object.entries(expected)) {
        assert.deepEqual(unpacked[key], key === 'type' ? value ?? undefined : value, `${file} ply ${i} unpack ${key}`);
      }
      // decode: the reference's decoded move, the position after as FEN.
      const decoded = Move.decode(ply.packed, fen, { referenceRights: true });
      for (const key of ['fullmove', 'index', 'label', 'fullLabel', 'uciLabel', 'colour', 'from', 'to', 'piece', 'capturedPiece', 'isCheck', 'isMate', 'isCastling', 'castlingRookFrom', 'castlingRookTo', 'isPromotion', 'promoteTo', 'isEnPassant', 'time']) {
        assert.deepEqual(decoded[key], ply.decoded[key] ?? null, `${file} ply ${i} decode ${key}`);
      }
      assert.equal(firstThree(decoded.positionAfter), firstThree(ply.python_fen_after), `${file} ply ${i}`);
      // notate's own string decodes to the same move (field 7 aside, which says what it says).
      const { castlingRightsLost: _theirs, ...same } = decoded;
      const { castlingRightsLost: _ours, ...own } = Move.decode(ours, fen);
      assert.deepEqual(own, same, `${file} ply ${i}: notate's own string`);
      if (ours !== ply.packed) {
        assert.throws(() => Move.decode(ply.packed, fen), (e) => e instanceof NotateError && /field 7/.test(e.message));
      }
      fen = decoded.positionAfter;
    }
    if (illegalAt === null) {
      const all = History.decode(history, undefined, { referenceRights: true });
      assert.equal(all.length, game.plies.length);
      assert.equal(all.at(-1).positionAfter, fen);
    }
  });
}

test('single moves: encodeAndPack and decode, with the Rust tests\' seven corrections', () => {
  const cases = JSON.parse(read('jsonchess/single_moves.json'));
  const corrected = {
    pinned_knight_disambiguation: '1,0,Ne4,1407781765400,g3,e4,N,N',
    castle_kingside_with_check: '1,0,O-O+,1407781765400,e1,g1,K,N,c,h1,f1',
    castle_queenside_black_mate_free: '1,1,O-O-O,1407781765400,e8,c8,Q,N,c,a8,d8',
    king_move_without_rights: '40,78,Kf2,1407781765400,e1,f2,N,N',
    rook_move_from_h1_with_K_right: '1,0,Rh5,1407781765400,h1,h5,K,N',
    rook_move_from_a8_with_q_right: '1,1,Ra5,1407781765400,a8,a5,Q,N',
    fiftymove_clock_and_mate: '40,78,Ra8#,1407781765400,a1,a8,N,N',
  };
  for (const c of cases.cases) {
    const ours = Move.encodeAndPack(c.fen_before, c.uci, cases.time_field);
    assert.equal(ours, corrected[c.name] ?? c.packed, c.name);
    const decoded = Move.decode(ours, c.fen_before);
    assert.equal(firstThree(decoded.positionAfter), firstThree(c.python_fen_after), c.name);
    for (const [key, value] of Object.entries(c.decoded_flags)) {
      // The label is standard SAN where the reference's ignored the pin.
      if (key === 'fullLabel' && c.name === 'pinned_knight_disambiguation') continue;
      assert.deepEqual(decoded[key], value, `${c.name} ${key}`);
    }
    assert.equal(Move.decode(c.packed, c.fen_before, { referenceRights: true }).uciLabel, decoded.uciLabel, c.name);
  }
  // The move may be given in SAN or UCI.
  assert.equal(Move.encodeAndPack(START, 'Nf3'), Move.encodeAndPack(START, 'g1f3'));
});

test('premoves: the reference\'s validity, wire form and board; castling decided', () => {
  const cases = JSON.parse(read('jsonchess/premoves.json')).cases;
  const fenOf = (p) =>
    ({ 'initial position': START, 'initial position with f1,g1 emptied': 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1' })[p] ?? p;
  let castling = 0;
  for (const c of cases) {
    const premove = new Premove(fenOf(c.position), c.from, c.to, c.promoteTo_arg ?? undefined);
    if (c.exception) {
      castling += 1;
      if (c.note.includes('no rights')) {
        assert.equal(premove.isValid, false, c.note);
      } else {
        assert.deepEqual(premove.toJSON(), { from: 4, to: 6 });
        assert.equal(premove.board, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1');
      }
      continue;
    }
    assert.equal(premove.isValid, c.isValid, c.note);
    if (c.isValid) {
      assert.equal(JSON.stringify(premove), JSON.stringify(c.toJSON), c.note);
      assert.equal(premove.board, c.boardAfter, c.note);
    }
  }
  assert.equal(castling, 2);
  assert.deepEqual(new Premove(START, 12, 28).toJSON(), { from: 12, to: 28 });
});

test('Glicko-2: the reference library\'s ratings', () => {
  for (const v of JSON.parse(read('jsonchess/glicko2_vectors.json')).vectors) {
    const after = jc.rate(v.before, v.results, v.tau);
    for (const key of ['rating', 'rd', 'vol']) {
      assert.ok(Math.abs(after[key] - v.after[key]) < 1e-6, `${v.name} ${key}: ${after[key]} / ${v.after[key]}`);
    }
  }
});

test('the constants are the library\'s', () => {
  const rust = JSON.parse(wasm.jsonchessConstants());
  assert.deepEqual(jc.constants, rust.constants);
  assert.deepEqual(jc.glicko2, rust.glicko2);
  assert.deepEqual(jc.gameRestoration, rust.gameRestoration);
  assert.deepEqual(jc.chatMessageTypes, rust.chatMessageTypes);
});

test('messages: every topic of each side parses and serializes back to its text', () => {
  const lines = readFileSync(join(root, 'crates', 'notate', 'tests', 'protocol', 'topics.txt'), 'utf8')
    .split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const seen = { client: 0, server: 0 };
  for (const line of lines) {
    const space = line.indexOf(' ');
    const [side, text] = [line.slice(0, space), line.slice(space + 1)];
    assert.equal(jc.messages.serialize(text, side), text, line);
    assert.deepEqual(jc.messages.parse(JSON.parse(text), side), JSON.parse(text), line);
    seen[side] += 1;
  }
  assert.deepEqual(seen, { client: 32, server: 48 });
  // A topic of the other side's is refused.
  assert.throws(() => jc.messages.parse('{"topic":"/seek/expired"}', 'client'), NotateError);
});

test('messages: errors name the field', () => {
  const move = { topic: '/game/12/move', data: { from: 12, to: 28 } };
  assert.deepEqual(jc.messages.parse(move), move);
  assert.equal(jc.messages.serialize(JSON.stringify(move)), JSON.stringify(move));
  assert.throws(() => jc.messages.parse({ topic: '/game/12/move', data: { from: 99, to: 28 } }), (e) => e instanceof NotateError && e.path !== null);
  assert.throws(() => jc.messages.parse('{"topic":'), NotateError);
  assert.throws(() => jc.messages.parse(move, 'neither'), NotateError);
});

test('applyUpdate: all or nothing, on a plain object', () => {
  const doc = { seeks: [{ id: 1, t: 'a' }], n: 1 };
  assert.equal(jc.applyUpdate(doc, { op: 'add', key: 'seeks', value: { id: 2, t: 'b' } }), doc);
  assert.equal(doc.seeks.length, 2);
  const before = structuredClone(doc);
  assert.throws(
    () => jc.applyUpdate(doc, [{ op: 'update', key: 'n', value: 2 }, { op: 'update', key: 'missing', value: 3 }]),
    (e) => e instanceof NotateError && /update 2/.test(e.message),
  );
  assert.deepEqual(doc, before);
  jc.applyUpdate(doc, [{ op: 'remove', key: 'seeks', value: 1 }, { op: 'update', key: 'n', value: 5 }]);
  assert.deepEqual(doc, { seeks: [{ id: 2, t: 'b' }], n: 5 });
});

test('arguments the layer cannot take are usage errors, never traps; times are exact', () => {
  const FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const cycle = {};
  cycle.self = cycle;
  const rating = { rating: 1500, rd: 200, vol: 0.06 };
  for (const bad of [
    () => Move.encodeAndPack(5, 'e4'),
    () => Move.encodeAndPack(FEN, 'e4', 1e308),
    () => Move.encodeAndPack(FEN, 'e4', -1),
    () => Move.encodeAndPack(FEN, 'e4', 1.5),
    () => Move.encodeAndPack(FEN, 'e4', Symbol('t')),
    () => Move.decode('1,0,e4,0,e2,e4,N,e3', NaN),
    () => Move.decode('1,0,e4,0,e2,e4,N,e3', FEN, 'yes'),
    () => History.decode([], 1),
    () => History.decode([1n]),
    () => new Premove(0, 'e1', 'e2'),
    () => jc.messages.parse({ topic: '/chat', data: 'x' }, 0),
    () => jc.messages.serialize({ topic: '/chat', data: 1n }),
    () => jc.messages.serialize(cycle),
    () => jc.rate({ ...rating, rating: 1n }, []),
    () => jc.rate(rating, [{ opponent: rating, score: 7 }]),
    () => jc.rate({ rating: 1e308, rd: 1e308, vol: 1e308 }, [{ opponent: { ...rating, rating: -1e308 }, score: 1 }]),
    () => jc.rate(rating, [], NaN),
    () => jc.rate(rating, [], 1n),
    () => jc.applyUpdate({ a: 1n }, { op: 'update', key: 'a', value: 2 }),
    () => jc.applyUpdate(cycle, []),
  ]) {
    assert.throws(bad, (e) => e instanceof NotateError && e.kind === 'usage', String(bad));
  }
  assert.equal(Move.encodeAndPack(FEN, 'e4', '1407781768400'), '1,0,e4,1407781768400,e2,e4,N,e3');
  // A time past 2^53 comes back exact, as a BigInt.
  assert.equal(Move.unpack('1,0,e4,9007199254740993,e2,e4,N,e3').time, 9007199254740993n);
  assert.equal(Move.unpack('1,0,e4,1407781768400,e2,e4,N,e3').time, 1407781768400);
});
