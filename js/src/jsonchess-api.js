// Drop-in for the jsonchess library's modules (Move, History, Premove and the constants),
// with positions as FEN strings where the reference took its chess library's objects; plus
// Glicko-2 rating, the protocol's messages and its generic updates, as notate models them.

import { wasm, call, usage, optionsOf, text, wholeNumber, jsonOf, parseExact, changeable, replaceContents, readOut } from './core.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** `jsonchess/constants` (milliseconds). */
export const constants = { SEEK_TIMEOUT: 60000, REMATCH_TIMEOUT: 15000, TIME_FOR_MOVES_BEFORE_CLOCK_START: 30000 };
/** `jsonchess/glicko2`: the rating constants (`rate` computes ratings). */
export const glicko2 = { defaults: { RATING: 1500, RD: 350, VOL: 0.06 }, GAMES_PER_RATING_PERIOD: 10 };
/** `jsonchess/gameRestoration`. */
export const gameRestoration = { MIN_MOVES: 4 };
/** `jsonchess/chatMessageTypes`. */
export const chatMessageTypes = { ADMIN: 0, USER: 1 };

/** `jsonchess/Move`. */
export const Move = {
  /** `move` (SAN or UCI) played in `fen` at `time` (ms since the epoch), packed. */
  encodeAndPack(fen, move, time = 0) {
    // The time is milliseconds, a whole number: a fraction or a time past 2^53 would not
    // come back as written. `null` is no time, 0.
    return call(wasm.jsonchessEncodeAndPack, text(fen, 'fen'), text(move, 'move'), wholeNumber(time ?? 0, 'time'));
  },

  /** The fields of a packed move; a malformed field throws a NotateError naming it. */
  unpack(packed) {
    // Exact: a time past 2^53 comes back as a BigInt.
    const fields = parseExact(call(wasm.jsonchessUnpack, text(packed, 'packed')));
    if (fields.type === null) fields.type = undefined;
    return fields;
  },

  /**
   * The move `packed` in the position `fen`, checked (legal, its SAN and fields agree):
   * the reference's decoded move, positions as FEN. `{referenceRights: true}` also accepts
   * the castling-rights field as the reference library writes it.
   */
  decode(packed, fen = START, options) {
    const { referenceRights } = optionsOf(options, 'Move.decode');
    return parseExact(call(wasm.jsonchessDecode, text(packed, 'packed'), text(fen, 'fen', true) ?? START, Boolean(referenceRights)));
  },
};

/** `jsonchess/History`. */
export const History = {
  /** Every packed move of a game from `fen` (default: the standard start), decoded. */
  decode(history, fen, options) {
    const { referenceRights } = optionsOf(options, 'History.decode');
    if (!Array.isArray(history)) throw usage('History.decode takes an array of packed moves');
    return parseExact(
      call(wasm.jsonchessHistoryDecode, jsonOf(history, 'history'), text(fen, 'fen', true), Boolean(referenceRights)),
    );
  },
};

/** A square as Premove takes it: a name (`"e2"`) or a number 0 … 63, as text for the layer. */
function square(value, name) {
  if (typeof value === 'number') return String(value);
  return text(value, name);
}

/**
 * `jsonchess/Premove`: a move queued before the opponent has moved, valid by the shape of
 * the piece's move. Squares as `"e2"` or 0 … 63.
 */
export class Premove {
  // Its own name, which the package's minified build would shorten.
  static { Object.defineProperty(this, 'name', { value: 'Premove' }); }

  #json;

  constructor(fen, from, to, promoteTo) {
    const p = JSON.parse(
      call(wasm.jsonchessPremove, text(fen, 'fen'), square(from, 'from'), square(to, 'to'), text(promoteTo, 'promoteTo', true)),
    );
    this.isValid = p.isValid;
    /** Why the premove is not valid (null when it is). */
    this.error = p.error;
    /** The board after the premove, as FEN's first field (the board as it is when invalid). */
    this.board = p.board;
    this.from = p.from;
    this.to = p.to;
    this.promoteTo = p.promoteTo ?? undefined;
    this.piece = p.piece;
    this.#json = p.json;
  }

  /** The wire form: `{from, to, promoteTo}` with squares 0 … 63. */
  toJSON() {
    return { ...this.#json };
  }
}

/**
 * A Glicko-2 rating period: `player` (`{rating, rd, vol}`) after `results`
 * (`[{opponent: {rating, rd, vol}, score}]`, score 1, 0.5 or 0), with the constant `tau`.
 */
export function rate(player, results, tau = 0.5) {
  if (typeof tau !== 'number') throw usage(`tau: a number, not a ${typeof tau}`);
  return JSON.parse(call(wasm.glicko2Rate, jsonOf(player, 'player'), jsonOf(results, 'results'), tau));
}

function messageText(message) {
  return typeof message === 'string' ? message : jsonOf(message, 'message');
}

/** The protocol's messages (`{topic, data}`), read and checked topic by topic. */
export const messages = {
  /** A message as `side` sends it (`client` or `server`), checked, as an object. */
  parse(message, side = 'client') {
    return JSON.parse(call(wasm.protocolMessage, messageText(message), text(side, 'side')));
  },
  /** A message as `side` sends it, checked, as the text to send. */
  serialize(message, side = 'client') {
    return call(wasm.protocolMessage, messageText(message), text(side, 'side'));
  },
};

/**
 * Applies a generic update (`{op: "add"|"remove"|"update", key, value}`) or a list of them to
 * a plain object, all or nothing: on an error the object is left as it was. Returns it.
 */
export function applyUpdate(doc, update) {
  // Read in readOut: a Proxy's traps may throw.
  const array = readOut(() => {
    const array = Array.isArray(doc);
    if (doc === null || typeof doc !== 'object' || !(array || plainObject(doc))) {
      throw usage('applyUpdate takes a plain object or an array');
    }
    // All or nothing: what could not be changed is found before anything is.
    if (!changeable(doc)) {
      throw usage('applyUpdate: the object is frozen, sealed or not extensible, or has a property that cannot be replaced');
    }
    return array;
  }, 'applyUpdate: the document');
  const updates = readOut(() => (Array.isArray(update) ? update : [update]), 'applyUpdate: the update');
  const after = JSON.parse(call(wasm.protocolApplyUpdates, jsonOf(doc, 'doc'), jsonOf(updates, 'update')));
  if (after === null || typeof after !== 'object' || Array.isArray(after) !== array) {
    throw usage('applyUpdate: the document\'s JSON (its toJSON) is not of its own kind');
  }
  return replaceContents(doc, after);
}

/** An object of Object's own prototype, or of none (`Object.create(null)`). */
function plainObject(value) {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
