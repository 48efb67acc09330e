// Drop-in for infinitechess.org's FormatConverter.js (2024): the same functions, arguments
// and results (JSON.stringify-equal, key order included), computed by notate. Coordinates
// past 2^53 stay exact: they are BigInts where the reference would round them.

import { wasm, call, usage, parseExact, stringifyExact, shown, wholeNumber, readOut, changeable, replaceContents, NotateError } from './core.js';

const MOVES = ['pretty', 'compact', 'minimal'];

/** The reference's options (an object, or the documented positional arguments) as notate's. */
function writeOptions(options, makeNewLines) {
  let o = options;
  if (typeof options === 'number' || typeof options === 'boolean' || options === undefined || options === null) {
    o = { compact_moves: options ?? 0, make_new_lines: makeNewLines ?? true };
  } else if (typeof options !== 'object') {
    throw usage(`LongToShort_Format: options must be an object, not ${typeof options}`);
  }
  const given = o.compact_moves ?? 0;
  // As JavaScript compares: 1, "1" and true are 1.
  const compact = ['number', 'string', 'boolean'].includes(typeof given) ? Number(given) : NaN;
  if (!(compact in MOVES)) throw usage(`compact_moves: 0, 1 or 2, not ${shown(given)}`);
  const out = {
    moves: MOVES[compact],
    singleLine: o.make_new_lines === false,
    position: o.specifyPosition !== false,
  };
  if (o.dialect !== undefined) {
    if (!['string', 'number'].includes(typeof o.dialect)) throw usage(`dialect: "2024" or "2025", not ${shown(o.dialect)}`);
    out.dialect = String(o.dialect);
  }
  return JSON.stringify(out);
}

/** ICN (the short form) → the long form, an object. */
export function ShortToLong_Format(shortformat) {
  if (typeof shortformat !== 'string') throw usage('ShortToLong_Format takes a string');
  // The moves come apart from the JSON, joined by `|` after a \u0001 (see icn.rs: `split`
  // makes the array several times faster than JSON.parse); the JSON holds `"moves":[]` in
  // their place, so assigning them keeps the reference's key order.
  const text = call(wasm.icnShortToLong, shortformat);
  const apart = text.indexOf('\u0001');
  if (apart < 0) return parseExact(text);
  const long = parseExact(text.slice(0, apart));
  const moves = text.slice(apart + 1);
  long.moves = moves === '' ? [] : moves.split('|');
  return long;
}

/**
 * The long form's moves joined by `|` when they are all strings (the common case, sent
 * apart as ShortToLong_Format receives them), or undefined.
 */
function movesApart(longformat) {
  const moves = longformat !== null && typeof longformat === 'object' ? longformat.moves : undefined;
  if (!Array.isArray(moves)) return undefined;
  for (let i = 0; i < moves.length; i++) {
    if (typeof moves[i] !== 'string') return undefined;
  }
  return moves.join('|');
}

/**
 * The long form → ICN. `options`: `{compact_moves: 0|1|2, make_new_lines, specifyPosition,
 * dialect: "2024"|"2025"}`, or the positional `(longformat, compact_moves, make_new_lines)`.
 */
export function LongToShort_Format(longformat, options = {}, make_new_lines) {
  const written = readOut(() => writeOptions(options, make_new_lines), 'LongToShort_Format: the options');
  const moves = readOut(() => movesApart(longformat), 'LongToShort_Format: the moves');
  if (moves !== undefined) {
    const rest = readOut(() => ({ ...longformat, moves: [] }), 'LongToShort_Format: the game');
    try {
      return call(wasm.icnLongToShort, stringifyExact(rest), moves, longformat.moves.length, written);
    } catch (e) {
      // Read again the ordinary way below, for the error that names the whole object's
      // path; but a trap (the instance started again) or a size refused is said at once.
      if (!(e instanceof NotateError) || e.kind === 'internal' || e.kind === 'too-large') throw e;
    }
  }
  return call(wasm.icnLongToShort, stringifyExact(longformat), undefined, 0, written);
}

/**
 * The long form of the game after `halfmoves` plies (`Infinity`: after the last). With
 * `modify_input`, the given object becomes that position and is returned.
 */
export function GameToPosition(longformat, halfmoves = 0, modify_input = false) {
  // Infinity, or past 2^53 (past the end of any game): the end.
  const toEnd = typeof halfmoves === 'number' && halfmoves > Number.MAX_SAFE_INTEGER;
  const plies = toEnd ? undefined : wholeNumber(halfmoves, 'halfmoves (or Infinity)');
  // All or nothing: an object that cannot be changed is found before anything is.
  const unchangeable = () => longformat === null || typeof longformat !== 'object' || !changeable(longformat);
  if (modify_input && readOut(unchangeable, 'GameToPosition: the game')) {
    throw usage('GameToPosition: with modify_input, the game must be an object whose properties can all be replaced');
  }
  const position = parseExact(call(wasm.icnGameToPosition, stringifyExact(longformat), plies));
  if (!modify_input) return position;
  return replaceContents(longformat, position);
}

/** A compact move (`"1,2>3,4=Q"`) → `{compact, startCoords, endCoords, promotion?}`. */
export function ShortToLong_CompactMove(shortmove) {
  if (typeof shortmove !== 'string') throw usage('ShortToLong_CompactMove takes a string');
  return parseExact(call(wasm.icnShortToLongMove, shortmove));
}

/** `{startCoords, endCoords, promotion?}` → the compact move `"1,2>3,4=Q"`. */
export function LongToShort_CompactMove(longmove) {
  return call(wasm.icnLongToShortMove, stringifyExact(longmove));
}
