// notate's own API: read, check and convert game records of every family, stream large
// inputs, and follow a live game as piece-track actions.

import { wasm, call, bytesOf, usage, optionsOf, text, jsonOf, shown, track, instanceNumber, NotateError } from './core.js';

const CHESS_STREAMS = ['pgn', 'json', 'egd', 'jsonchess'];

/** The most bytes handed to a stream's feed at once (see streamGames). */
const PUSH_BYTES = 1 << 20;

/**
 * Refuses bytes that open as zstd, gzip or bzip2 do (the magic numbers the command line tells
 * compression by): read as a text, whatever its format said, they were a garbage game.
 */
function refuseCompressed(input, bytes) {
  if (typeof input === 'string') return;
  const head = String.fromCharCode(...bytes.subarray(0, 4));
  const name = head === '\x28\xb5\x2f\xfd' ? 'zstd' : head.startsWith('\x1f\x8b') ? 'gzip' : /^BZh[1-9]/.test(head) ? 'bzip2' : '';
  if (name) throw usage(`${name}-compressed: decompress it first`);
}

/** Runs the layer's `convert` and takes its results out of the WebAssembly memory. */
function run(input, from, to, options, items) {
  const { errors: _errors, from: _from, to: _to, ...rest } = options ?? {};
  const bytes = bytesOf(input);
  refuseCompressed(input, bytes);
  const converted = track(call(wasm.convert, bytes, text(from, 'from', true), text(to, 'to', true), jsonOf(rest, 'options'), items));
  return taken(converted, (c) => ({
    output: c.takeOutput(),
    games: c.games,
    errors: JSON.parse(c.takeErrors()).map(NotateError.fromJson),
    warnings: warningsOf(c),
  }));
}

/** The warnings of a run's results (a `Converted`), taken out. */
function warningsOf(converted) {
  return JSON.parse(converted.takeWarnings()).map(NotateError.fromJson);
}

/**
 * What `read` takes out of a run's results (a tracked `Converted`), through `call` like every
 * use of the WebAssembly layer; then the results are freed, unless a trap replaced their
 * instance meanwhile (their memory went with it).
 */
function taken({ object, instance }, read) {
  try {
    return call(() => read(object));
  } finally {
    if (instance === instanceNumber()) object.free();
  }
}

function errorMode(options) {
  const mode = options?.errors ?? 'throw';
  if (mode !== 'throw' && mode !== 'collect') throw usage(`errors: "throw" or "collect", not ${shown(mode)}`);
  return mode;
}

/** The items of a run (games, or NotateErrors in their place). */
function items(output) {
  return JSON.parse(output).map((item) => (item.error ? NotateError.fromJson(item.error) : item));
}

/** A hidden property (not enumerable): `JSON.stringify` and `deepStrictEqual` leave it out. */
function hide(object, name, value) {
  Object.defineProperty(object, name, { value, writable: true, configurable: true });
}

/**
 * Puts each warning (a NotateError naming its game's number) on its game's item as a hidden
 * `warnings` array; items without warnings have none. `first` is the number of the first
 * item's game; a warning that names no game there (the count of those left out past the
 * limit) goes on the last item.
 */
function withWarnings(items, warnings, first) {
  for (const warning of warnings) {
    const index = warning.game === null ? -1 : warning.game - first;
    const item = items[index >= 0 && index < items.length ? index : items.length - 1];
    if (item === undefined) continue;
    if (!Object.hasOwn(item, 'warnings')) hide(item, 'warnings', []);
    item.warnings.push(warning);
  }
  return items;
}

/**
 * The games of a run writing `to` as items, each with its warnings and the list with all of
 * them; a bad game throws, or stands in its place with `{errors: "collect"}`.
 */
function gameItems(input, from, to, options, mode) {
  const result = run(input, from, to, options, true);
  const list = withWarnings(items(result.output), result.warnings, 1);
  hide(list, 'warnings', result.warnings);
  const error = mode === 'throw' && firstError(list);
  if (error) throw error;
  return list;
}

function firstError(list) {
  return list.find((item) => item instanceof NotateError);
}

/**
 * Every game of a PGN text (or bytes): `{tags, start, moves: [{san, uci, fen, comments,
 * nags, variations}], result}`. A bad game throws its NotateError; with `{errors: "collect"}`
 * it stands in the list in the game's place and reading goes on. What reading skipped
 * without failing a game (a token that is no move) is in the game's `warnings` (not
 * enumerable, absent when there is none), and all of it in the list's `warnings`.
 */
export function readPgn(input, options) {
  const o = optionsOf(options, 'readPgn');
  return readGames(input, { ...o, from: o.from ?? 'pgn' });
}

/** Every chess game of `input` in `from` (pgn, json, egd or jsonchess), as readPgn gives them. */
export function readGames(input, options) {
  options = optionsOf(options, 'readGames');
  const mode = errorMode(options);
  const from = options.from ?? 'pgn';
  if (!CHESS_STREAMS.includes(from)) throw usage(`readGames reads ${CHESS_STREAMS.join(', ')}, not ${shown(from)}`);
  return gameItems(input, from, 'json', { fens: true }, mode);
}

/**
 * Reads and checks every game (`from`: the input's format; left out, told by the input's
 * first bytes, as `convert` and the command line's `check` tell it): `{games, errors,
 * warnings}`, each error a NotateError with its line, column, game, ply and token.
 */
export function check(input, options) {
  options = optionsOf(options, 'check');
  const { games, errors, warnings } = run(input, options.from, undefined, options, false);
  return { games, errors, warnings };
}

/**
 * Converts `input` (a string, or bytes for Shift_JIS and EUC-JP shogi files) from `from` to
 * `to`, both names as the command line takes them (`from` left out: told by the input's
 * first bytes, as the command line tells a file's format); other options are the command line's
 * in camelCase (`dialect`, `moves`, `singleLine`, `pretty`, `csaVersion`, `encoding` …).
 * Returns the text; a bad game throws its NotateError, whose `errors` lists every bad game
 * and `output` holds the others. With `{errors: "collect"}`: `{output, errors, warnings}`.
 */
export function convert(input, options) {
  options = optionsOf(options, 'convert');
  const mode = errorMode(options);
  if (!options.to) throw usage('convert needs {to}: the output format');
  const result = run(input, options.from, options.to, options, false);
  if (mode === 'collect') return { output: result.output, errors: result.errors, warnings: result.warnings };
  if (result.errors.length > 0) {
    const error = result.errors[0];
    error.errors = result.errors;
    error.output = result.output;
    throw error;
  }
  return result.output;
}

function objects(input, options, to) {
  options = optionsOf(options, to);
  const mode = errorMode(options);
  return gameItems(input, options.from ?? 'pgn', to, options, mode);
}

/** Every game of a chess input as an EGD object (`{game_tags, moves: {"1w": …}}`). */
export function egd(input, options) {
  return objects(input, options, 'egd');
}

/** Every game of an input as piece tracks (chess `{game_tags, start, moves}`; shogi and infinite chess the same shape: see the README). */
export function tracks(input, options) {
  return objects(input, options, 'tracks');
}

/**
 * The chunks of a node stream, a web ReadableStream, or any (async) iterable of bytes. What
 * the stream itself throws (a file not found, a network error, a stream already read) is a
 * NotateError of kind `io`, the stream's error as its cause.
 */
async function* chunksOf(stream) {
  try {
    yield* joinedSurrogates(rawChunksOf(stream));
  } catch (e) {
    if (e instanceof NotateError) throw e;
    const error = new NotateError(`the stream failed: ${e instanceof Error ? e.message : String(e)}`, { kind: 'io' });
    error.cause = e;
    throw error;
  }
}

/**
 * The chunks, a string's last high surrogate held back for the next string: a character
 * split between two string chunks is one character, not two replacement characters.
 */
async function* joinedSurrogates(chunks) {
  let held = '';
  for await (let chunk of chunks) {
    if (typeof chunk === 'string') {
      chunk = held + chunk;
      const last = chunk.charCodeAt(chunk.length - 1);
      held = last >= 0xd800 && last <= 0xdbff ? chunk.slice(-1) : '';
      chunk = held ? chunk.slice(0, -1) : chunk;
    } else if (held) {
      yield held;
      held = '';
    }
    yield chunk;
  }
  if (held) yield held;
}

async function* rawChunksOf(stream) {
  if (stream === null || (typeof stream !== 'object' && typeof stream !== 'function')) {
    throw usage(`expected a ReadableStream, a node stream or an iterable of bytes, not ${shown(stream)}`);
  }
  if (typeof stream.getReader === 'function') {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else if (Symbol.asyncIterator in stream || Symbol.iterator in stream) {
    yield* stream;
  } else {
    throw usage('expected a ReadableStream, a node stream or an iterable of bytes');
  }
}

/**
 * Reads chess games from a stream as they arrive, one at a time (an async iterator), with
 * memory flat however long the stream: a node stream (`fs.createReadStream`), a web
 * `ReadableStream` (`response.body`, `file.stream()`), or an iterable of bytes. Games,
 * errors and each game's `warnings` as readGames gives them.
 */
export async function* streamGames(stream, options) {
  options = optionsOf(options, 'streamGames');
  const mode = errorMode(options);
  const from = options.from ?? 'pgn';
  if (!CHESS_STREAMS.includes(from)) throw usage(`streams read ${CHESS_STREAMS.join(', ')}, not ${shown(from)}`);
  if (options.live !== undefined && typeof options.live !== 'boolean') throw usage(`live: true or false, not ${shown(options.live)}`);
  const pieceBytes = options.live ? Infinity : PUSH_BYTES;
  const { object: feed, instance } = track(call(() => new wasm.GameFeed(from, !!options.live)));
  const live = () => {
    if (instance !== instanceNumber()) throw usage('notate was started again (see the error before): read the stream again');
    return feed;
  };
  // Games are numbered in the stream: the first of a push's items is the one after those given.
  let given = 0;
  const take = (converted) => {
    const result = taken(track(converted), (c) => ({
      output: c.takeOutput(),
      warnings: warningsOf(c),
    }));
    const list = withWarnings(items(result.output), result.warnings, given + 1);
    given += list.length;
    return list;
  };
  const handOut = function* (converted) {
    for (const item of take(converted)) {
      if (item instanceof NotateError && mode === 'throw') throw item;
      yield item;
    }
  };
  const chunks = chunksOf(stream);
  // Whether the stream's first bytes were looked at (see refuseCompressed), and them.
  let started = false;
  let head = new Uint8Array(0);
  try {
    for (;;) {
      let next;
      let bytes;
      try {
        next = await chunks.next();
        if (!next.done) bytes = bytesOf(next.value);
        // The stream's first 4 bytes, however its chunks cut them, or all of a shorter one.
        if (!started && (next.done || typeof next.value !== 'string' || next.value === '')) {
          head = next.done ? head : Uint8Array.from([...head, ...bytes.subarray(0, 4 - head.length)]);
          if (head.length === 4 || next.done) {
            refuseCompressed(head, head);
            started = true;
          }
        } else {
          started = true;
        }
      } catch (failure) {
        // The games known to be whole, read before the failure (of the stream, or a chunk
        // that is no bytes), are the stream's too.
        yield* handOut(call(() => live().fail()));
        throw failure;
      }
      if (next.done) break;
      // A piece at a time: a push gives the games it completes, all at once, and a whole
      // file given as one chunk would build every game's items together. Live, a chunk is
      // pushed whole: the end of each push is a pause, where a game its result ends goes out.
      for (let at = 0; at < bytes.length || at === 0; at += pieceBytes) {
        const piece = bytes.subarray(at, at + pieceBytes);
        yield* handOut(call(() => live().push(piece)));
      }
    }
    yield* handOut(call(() => live().finish()));
  } finally {
    try {
      // A stream left before its end is let go (a web stream's reader released).
      await chunks.return();
    } finally {
      // An object of an instance that was replaced is not freed: its memory went with it.
      if (instance === instanceNumber()) feed.free();
    }
  }
}

/**
 * Follows a live game: every piece keeps its name (`wqbp`), every move gives the actions on
 * the pieces it touches, to animate a board.
 */
export class Tracker {
  // Its own name, which the package's minified build would shorten.
  static { Object.defineProperty(this, 'name', { value: 'Tracker' }); }

  #inner;
  /** The instance the WebAssembly tracker belongs to (see `instanceNumber`). */
  #instance;

  /** A tracker from `fen` (default: the standard start). */
  constructor(fen) {
    const start = text(fen, 'fen', true);
    ({ object: this.#inner, instance: this.#instance } = track(call(() => new wasm.Tracker(start))));
  }

  /** Plays a move (SAN or UCI); its actions, `[["wkn","f3"]]`. */
  play(move) {
    const played = text(move, 'move');
    return JSON.parse(call(() => this.#live().play(played)));
  }

  /** The WebAssembly tracker, unless freed. */
  #live() {
    if (this.#inner === undefined) throw usage('this Tracker was freed');
    if (this.#instance !== instanceNumber()) throw usage('notate was started again (see the error before): make the Tracker again');
    return this.#inner;
  }

  /** Every piece's square: `{wqr: "a1", …}`. */
  pieces() {
    return JSON.parse(call(() => this.#live().pieces()));
  }

  /** The position now, as FEN. */
  get fen() {
    return call(() => this.#live().fen);
  }

  /** Frees the WebAssembly memory now (otherwise the garbage collector does it); again, nothing. */
  free() {
    // A tracker of an instance that was replaced went with it.
    if (this.#instance === instanceNumber()) this.#inner?.free();
    this.#inner = undefined;
  }
}

export { NotateError };
