import { NotateError } from './core.js';

/** A comment, with the commands notate reads out of it. */
export interface Comment {
  text: string;
  /** `[%clk]`, milliseconds. */
  clock?: number;
  /** `[%emt]`, milliseconds. */
  emt?: number;
  eval?: { pawns: number } | { mate: number };
}

/** One move of a game. */
export interface GameMove {
  san: string;
  uci: string;
  /** The position after the move. */
  fen: string;
  /** The move as the file spelled it, when it differs from `san`. */
  written?: string;
  nags?: number[];
  comments?: Comment[];
  variations?: { comments?: Comment[]; moves: GameMove[] }[];
}

/** A chess game (notate's game JSON, with the FEN after every move). */
export interface Game {
  tags: Record<string, string>;
  /** The start position. */
  start: string;
  comments?: Comment[];
  moves: GameMove[];
  result?: '1-0' | '0-1' | '1/2-1/2' | '*';
  final_comments?: Comment[];
  /**
   * What reading skipped without failing the game (a token that is no move), each naming
   * its place; absent when nothing was. Not enumerable: JSON.stringify leaves it out.
   */
  readonly warnings?: NotateError[];
}

/** A list of games, with every warning of its games (see `Game.warnings`). */
export type GameList<T> = T[] & { readonly warnings: NotateError[] };

export type Input = string | Uint8Array | ArrayBuffer | ArrayBufferView;
export type ChessFormat = 'pgn' | 'json' | 'egd' | 'jsonchess';
export type InputFormat = ChessFormat | 'icn' | 'icn-json' | 'sfen' | 'usi' | 'kif' | 'ki2' | 'csa' | 'western' | 'jkf' | 'shogi-book';
export type OutputFormat =
  | 'pgn' | 'uci' | 'fen' | 'epd' | 'json' | 'egd' | 'tracks' | 'view' | 'jsonchess'
  | 'icn' | 'icn-json'
  | 'sfen' | 'usi' | 'kif' | 'ki2' | 'csa' | 'western' | 'jkf';

/** The command line's options, in camelCase. */
export interface ConvertOptions {
  /** The input format; left out: told by the input's first bytes. */
  from?: InputFormat;
  to: OutputFormat;
  errors?: 'throw' | 'collect';
  /** Shogi input: `utf-8`, `shift_jis` or `euc-jp` (detected when absent). */
  encoding?: string;
  egdExtended?: boolean;
  pretty?: boolean;
  fens?: boolean;
  moves?: 'pretty' | 'compact' | 'minimal';
  singleLine?: boolean;
  position?: boolean;
  dialect?: '2024' | '2025';
  spaces?: boolean;
  moveNumbers?: boolean;
  comments?: boolean;
  legacyMoves?: boolean;
  csaVersion?: '2.2' | '3.0';
  westernSquares?: 'letter' | 'digit';
  markDeclined?: boolean;
}

export interface ReadOptions {
  from?: ChessFormat;
  errors?: 'throw' | 'collect';
}

export function readPgn(input: Input, options?: ReadOptions & { errors?: 'throw' } | null): GameList<Game>;
export function readPgn(input: Input, options: ReadOptions & { errors: 'collect' }): GameList<Game | NotateError>;
export function readGames(input: Input, options?: ReadOptions & { errors?: 'throw' } | null): GameList<Game>;
export function readGames(input: Input, options: ReadOptions & { errors: 'collect' }): GameList<Game | NotateError>;

export interface Checked {
  games: number;
  errors: NotateError[];
  warnings: NotateError[];
}
/**
 * Reads and checks every game. `from` left out: the format is told by the input's first
 * bytes, as `convert` and the command line tell it (input that is no format notate reads
 * throws a usage error).
 */
export function check(input: Input, options?: { from?: InputFormat } & Partial<ConvertOptions> | null): Checked;

export function convert(input: Input, options: ConvertOptions & { errors?: 'throw' }): string;
export function convert(input: Input, options: ConvertOptions & { errors: 'collect' }): { output: string; errors: NotateError[]; warnings: NotateError[] };

/**
 * An action of piece tracks: a piece to a square (`e4`; shogi `7f`; infinite chess `x,y`),
 * captured (`x`) or promoted (`p`); shogi also turns a piece over (`+`) and sends a captured
 * one to a hand (`b`, `w`).
 */
export type Action = [piece: string, target: string];

/** Chess tracks. */
export interface Tracks {
  game_tags: Record<string, string>;
  start: Record<string, string>;
  moves: { ply: number; san: string; actions: Action[] }[];
  /** What reading skipped without failing the game (see `Game.warnings`); not enumerable. */
  readonly warnings?: NotateError[];
}

/** Shogi tracks: `start` gives a square (`+` after it: promoted) or a hand (`b`, `w`). */
export interface ShogiTracks {
  header: Record<string, string>;
  start: Record<string, string>;
  moves: { ply: number; usi: string; actions: Action[] }[];
  /** What reading skipped without failing the game (see `Game.warnings`); not enumerable. */
  readonly warnings?: NotateError[];
}

/** Infinite-chess tracks. */
export interface InfiniteTracks {
  metadata: Record<string, string>;
  start: Record<string, string>;
  moves: { ply: number; icn: string; actions: Action[] }[];
  /** What reading skipped without failing the game (see `Game.warnings`); not enumerable. */
  readonly warnings?: NotateError[];
}

export type ShogiFormat = 'sfen' | 'usi' | 'kif' | 'ki2' | 'csa' | 'western' | 'jkf' | 'shogi-book';

export function egd(input: Input, options?: Omit<Partial<ConvertOptions>, 'to'> & { errors?: 'throw' } | null): GameList<Record<string, any>>;
export function tracks(input: Input, options?: { from?: ChessFormat; errors?: 'throw' } | null): GameList<Tracks>;
export function tracks(input: Input, options: { from: ShogiFormat; errors?: 'throw' }): GameList<ShogiTracks>;
export function tracks(input: Input, options: { from: 'icn' | 'icn-json'; errors?: 'throw' }): GameList<InfiniteTracks>;

/** Chunks of bytes (or of text): a web ReadableStream, a node stream, any async iterable, or an array (not a string: `readPgn` takes text). */
export type ByteStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array> | ReadonlyArray<Uint8Array | string>;
/** `live`: a PGN game is given as soon as a chunk ends it with its result and a line break, not when the next game starts (a broadcast); a comment after the result in a later chunk then goes with the next game. */
export interface StreamOptions extends ReadOptions {
  live?: boolean;
}
export function streamGames(stream: ByteStream, options?: StreamOptions & { errors?: 'throw' } | null): AsyncGenerator<Game>;
export function streamGames(stream: ByteStream, options: StreamOptions & { errors: 'collect' }): AsyncGenerator<Game | NotateError>;

export class Tracker {
  constructor(fen?: string);
  play(move: string): Action[];
  pieces(): Record<string, string>;
  readonly fen: string;
  free(): void;
}

export { NotateError };
