// Every ICN vector of the five FormatConverter.js functions through notate/formatconverter:
// the reference's result, JSON.stringify-equal (key order included), where the reference is
// right; where it has a quirk (tagged `quirk`, and the cases the Rust tests list with them),
// what the library does (the `notate` command on the same input), or its refusal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fc from '../dist/formatconverter.js';
import { NotateError } from '../dist/index.js';
import { parseExact, stringifyExact } from '../dist/core.js';
import { cli, read } from './helpers.mjs';

const index = JSON.parse(read('icn/index.json'));
const FUNCTIONS = ['ShortToLong_Format', 'LongToShort_Format', 'GameToPosition', 'ShortToLong_CompactMove', 'LongToShort_CompactMove'];
// As in crates/notate/tests/icn_vectors.rs: quirks among the cases not tagged so, and the
// empty text that notate (with infinitechess.org's 2025 converter) refuses.
const SAME_QUIRKS = ['009', '103', '104', '106', '107'];
const SITE_REFUSES = ['088'];

function input(c) {
  const text = read(`icn/${c.input_file}`);
  return c.input_type === 'json' || c.input_file.endsWith('.json') ? parseExact(text) : text;
}

function halfmoves(c) {
  return c.halfmoves === 'Infinity' ? Infinity : c.halfmoves;
}

function call(c) {
  const x = input(c);
  switch (c.function) {
    case 'LongToShort_Format':
      return c.positional_args_after_input
        ? fc.LongToShort_Format(x, ...c.positional_args_after_input)
        : fc.LongToShort_Format(x, c.options ?? {});
    case 'GameToPosition':
      return fc.GameToPosition(x, halfmoves(c));
    default:
      return fc[c.function](x);
  }
}

/** What the library gives for a case, by the command line: the text, or null if refused. */
function library(c) {
  const text = read(`icn/${c.input_file}`);
  let args;
  switch (c.function) {
    case 'ShortToLong_Format':
      args = ['convert', '--from', 'icn', '--to', 'icn-json'];
      break;
    case 'LongToShort_Format': {
      const o = c.positional_args_after_input
        ? { compact_moves: c.positional_args_after_input[0], make_new_lines: c.positional_args_after_input[1] }
        : c.options ?? {};
      args = ['convert', '--from', 'icn-json', '--to', 'icn', '--moves', ['pretty', 'compact', 'minimal'][o.compact_moves ?? 0]];
      if (o.make_new_lines === false) args.push('--single-line');
      if (o.specifyPosition === false) args.push('--no-position');
      break;
    }
    case 'GameToPosition':
      args = ['position', '--from', 'icn-json', '--to', 'icn-json', '--ply', c.halfmoves === 'Infinity' ? 'end' : String(c.halfmoves)];
      break;
    default:
      return undefined;
  }
  const { status, stdout } = cli(args, text);
  return status === 0 ? stdout.replace(/\n$/, '') : null;
}

/**
 * notate's answer to the compact-move quirks, as JSON from the input text: the piece read as
 * the piece and the promotion as the promotion (103), a capture's `x` kept (104), numbers
 * past 2^53 exact, as BigInt, where the reference went through JavaScript numbers (106:
 * 1e+23; 107: thrown out as infinite).
 */
const COMPACT_MOVE_QUIRKS = {
  103: () => '{"compact":"P2,7>1,8Q","startCoords":[2,7],"endCoords":[1,8],"promotion":"queensW"}',
  104: () => '{"compact":"1,2x3,4","startCoords":[1,2],"endCoords":[3,4]}',
  106: (text) => exactFromX(text),
  107: (text) => exactFromX(text),
};

function exactFromX(text) {
  const x = text.slice(0, text.indexOf(','));
  assert.ok(!Number.isSafeInteger(Number(x)), x);
  return `{"compact":"${text}","startCoords":[${x},1],"endCoords":[2,2]}`;
}

const cases = index.cases.filter((c) => FUNCTIONS.includes(c.function));

test('the five functions have their vectors', () => {
  assert.equal(cases.length, 41 + 27 + 14 + 10 + 4);
});

for (const c of cases) {
  const quirk = c.tags.includes('quirk') || SAME_QUIRKS.includes(c.id) || SITE_REFUSES.includes(c.id);
  const error = c.tags.includes('error') || c.output_type === 'error';
  test(`${c.id} ${c.function}${quirk ? ' (quirk)' : ''}: ${c.title}`, () => {
    if (!quirk && error) {
      assert.throws(() => call(c), NotateError);
      return;
    }
    if (!quirk) {
      const got = call(c);
      const want = read(`icn/${c.output_file}`);
      if (c.output_type === 'json') assert.equal(JSON.stringify(got, null, 2), JSON.stringify(parseExact(want), null, 2));
      else assert.equal(got, want);
      return;
    }
    const want = library(c);
    if (want === undefined) {
      // Compact-move quirks (103, 104, 106, 107): what notate reads, as the Rust tests
      // assert it (crates/notate/tests/icn_vectors.rs, quirk_103_104_106_107_compact_moves).
      assert.equal(stringifyExact(call(c)), COMPACT_MOVE_QUIRKS[c.id](read(`icn/${c.input_file}`)), c.id);
      return;
    }
    if (want === null) {
      assert.throws(() => call(c), NotateError);
      return;
    }
    const got = call(c);
    if (typeof got === 'string') assert.equal(got, want);
    else assert.equal(JSON.stringify(got), JSON.stringify(parseExact(want)));
  });
}

test('coordinates past 2^53 stay exact, both ways', () => {
  const move = fc.ShortToLong_CompactMove('9007199254740993,-2>100000000000000000000000000000000000000001,4=Q');
  assert.deepEqual(move.startCoords, [9007199254740993n, -2]);
  assert.deepEqual(move.endCoords, [100000000000000000000000000000000000000001n, 4]);
  // The reference writes the promotion without `=`.
  assert.equal(fc.LongToShort_CompactMove(move), '9007199254740993,-2>100000000000000000000000000000000000000001,4Q');
  const long = fc.ShortToLong_Format('w K1,1|k100000000000000000000000000000000000001,8 1,1>1,9007199254740995');
  assert.ok('100000000000000000000000000000000000001,8' in long.startingPosition);
  assert.match(fc.LongToShort_Format(long, { compact_moves: 2 }), /1,1>1,9007199254740995$/);
});

test('LongToShort_Format takes the options object, the positional arguments and the dialect', () => {
  const long = fc.ShortToLong_Format('w K5,1|k5,8 1. 5,1>5,2 | 5,8>5,7');
  assert.equal(fc.LongToShort_Format(long, { compact_moves: 2, make_new_lines: false }), fc.LongToShort_Format(long, 2, false));
  assert.match(fc.LongToShort_Format(long, { dialect: '2025', compact_moves: 2 }), /5,1>5,2\|5,8>5,7/);
  assert.throws(() => fc.LongToShort_Format(long, { compact_moves: 7 }), NotateError);
  assert.throws(() => fc.LongToShort_Format(long, { dialect: '1999' }), NotateError);
});

test('moves travel apart from the JSON and come back as the ordinary path reads them', () => {
  const long = fc.ShortToLong_Format('w K5,1|k5,8 1. 5,1>5,2 | 5,8>5,7 2. 5,2>5,3');
  assert.deepEqual(Object.keys(long), ['gameRules', 'metadata', 'turn', 'specialRights', 'startingPosition', 'shortposition', 'moves']);
  assert.deepEqual(long.moves, ['5,1>5,2', '5,8>5,7', '5,2>5,3']);
  assert.deepEqual(fc.ShortToLong_Format('w K5,1|k5,8').moves, undefined);
  const written = fc.LongToShort_Format(long, { compact_moves: 2 });
  assert.match(written, /5,1>5,2\|5,8>5,7\|5,2>5,3$/);
  // An empty list, and moves given as objects among strings (read the ordinary way).
  assert.doesNotMatch(fc.LongToShort_Format({ ...long, moves: [] }, { compact_moves: 2 }), />/);
  const mixed = { ...long, moves: ['5,1>5,2', { startCoords: [5, 8], endCoords: [5, 7] }, '5,2>5,3'] };
  assert.equal(fc.LongToShort_Format(mixed, { compact_moves: 2 }), written);
  // A bad move string is named by its place in the whole object, whichever way it went.
  for (const bad of ['5,8>', '5,8>5,7|5,2>5,3', '5,8>5,7 {a comment}', 5]) {
    const moves = ['5,1>5,2', bad, '5,2>5,3'];
    assert.throws(() => fc.LongToShort_Format({ ...long, moves }), (e) => e instanceof NotateError && /\$\.moves\[1\]/.test(e.message), JSON.stringify(bad));
  }
});

test('GameToPosition: Infinity, past the end, and modify_input', () => {
  const long = fc.ShortToLong_Format('w K5,1|k5,8 5,1>5,2|5,8>5,7');
  const end = fc.GameToPosition(long, Infinity);
  assert.deepEqual(fc.GameToPosition(long, 99), end);
  assert.equal(end.startingPosition['5,2'], 'kingsW');
  const copy = structuredClone(long);
  assert.equal(fc.GameToPosition(copy, 1, true), copy);
  assert.equal(copy.turn, 'black');
  assert.throws(() => fc.GameToPosition(long, -1), NotateError);
});

test('bad input throws NotateError, never anything else', () => {
  for (const bad of ['', 'w K5,1|k5,8 5,1>', '{', 'x'.repeat(10000), '\u0000', 'w K99999999999999999999999999999999999999999999,1']) {
    try {
      fc.ShortToLong_Format(bad);
    } catch (e) {
      assert.ok(e instanceof NotateError, `${JSON.stringify(bad.slice(0, 40))}: ${e}`);
    }
  }
  for (const bad of [null, 5, {}, [], { moves: 'x' }, { startingPosition: 3 }]) {
    for (const f of [fc.LongToShort_Format, fc.GameToPosition, fc.LongToShort_CompactMove]) {
      try {
        f(bad);
      } catch (e) {
        assert.ok(e instanceof NotateError, `${f.name}(${JSON.stringify(bad)}): ${e}`);
      }
    }
  }
  assert.throws(() => fc.ShortToLong_Format(5), NotateError);
});

test('what JSON cannot hold, and odd options, are usage errors', () => {
  const cycle = {};
  cycle.self = cycle;
  const deep = JSON.parse('['.repeat(5000) + ']'.repeat(5000));
  const game = fc.ShortToLong_Format('w K5,1|k5,8 5,1>5,2|5,8>5,7');
  for (const bad of [
    () => fc.LongToShort_CompactMove(cycle),
    () => fc.LongToShort_Format(cycle),
    () => fc.GameToPosition(cycle),
    () => fc.LongToShort_CompactMove({ startCoords: deep }),
    () => fc.LongToShort_Format(game, { compact_moves: Symbol('c') }),
    () => fc.LongToShort_Format(game, { compact_moves: Object.create(null) }),
    () => fc.LongToShort_Format(game, { dialect: Symbol('d') }),
    () => fc.GameToPosition(game, Symbol('h')),
    () => fc.GameToPosition(game, 1.5),
    () => fc.GameToPosition(game, -1),
  ]) {
    assert.throws(bad, (e) => e instanceof NotateError && e.kind === 'usage', String(bad));
  }
  assert.deepEqual(fc.GameToPosition(game, '1'), fc.GameToPosition(game, 1));
});
