import { NotateError } from './core.js';

/** A viewer document (`convert(…, {to: "view"})`, one JSON line per game). */
export interface ViewerDocument {
  family: 'chess' | 'shogi' | 'infinite';
  /** The game's piece tracks (chess, shogi or infinite-chess shape). */
  tracks: Record<string, any>;
  /** The facts of every position: `[0]` the start, `[n]` after ply n. */
  positions: Record<string, any>[] | null;
  /** Infinite chess: the world border's edges (decimal strings), or null. */
  border?: { left?: string; right?: string; bottom?: string; top?: string } | null;
}

export interface ViewerOptions {
  /** 0-based game shown first (counting the games that could be read, not the failures). */
  game?: number;
  /** Ply shown first. */
  ply?: number;
  /** Shogi pieces and coordinates: `western` (letters, the default) or `japanese` (kanji). */
  shogiStyle?: 'western' | 'japanese';
  /** Milliseconds of a step's animation (260). */
  stepMs?: number;
  /** Milliseconds between plies when playing (900). */
  playMs?: number;
  /** The number of the first game listed in its input (1; a positive integer, else
   * ignored): titles, the picker and `data-game` count from it (`notate render --game 7`
   * passes 7). `game` and `select(i)` still count from 0. */
  firstNumber?: number;
}

/** A piece as the board holds it. */
export interface BoardPiece {
  side: 'w' | 'b' | 'n';
  kind: string;
  square: string | null;
  hand: 'b' | 'w' | null;
  promoted: boolean;
}

export class Viewer {
  /** The board's root element. */
  readonly root: { node(): HTMLElement };
  /** Plies of the game shown. */
  readonly plies: number;
  /** The ply shown. */
  ply: number;
  /** Shows game `index` (0-based, counting the games that could be read) at `ply`. */
  select(index: number, ply?: number): this;
  /** Shows the position after `ply` plies at once (Infinity: the end). */
  go(ply: number): this;
  /** One ply forward (1) or back (-1), animated. */
  step(delta: 1 | -1): this;
  flip(): this;
  togglePlay(): this;
  stop(): this;
}

/** Shows `games` (viewer documents, bare tracks, or their JSON lines) in `container`. An
 * entry `{"failed":{"game":2,"error":"…"}}` (what `notate render` writes for a game it could
 * not read) keeps that game's place in the picker and is listed with its error; with
 * `"game":null` (an input that could not be read) it is listed only. */
export function mount(container: HTMLElement, games: string | (string | ViewerDocument | Record<string, any>)[], options?: ViewerOptions): Viewer;

/** Colour and kind of a piece from its track name. */
export function pieceOf(family: ViewerDocument['family'], name: string): { side: string; kind: string };

/** Every position of a game, by applying its tracks' actions. */
export function positionsOf(doc: ViewerDocument): Map<string, BoardPiece>[];

/** The viewer documents of a file of any format notate reads (loads the WebAssembly module). */
export function viewerDocuments(input: string | Uint8Array | ArrayBuffer, options?: { from?: string; wasm?: string | URL | Uint8Array }): Promise<{ documents: string[]; errors: NotateError[] }>;

/** The viewer app (file picker, drop zone, paste box, board) in `element`. */
export function app(element: HTMLElement, options?: { wasm?: string | URL | Uint8Array }): { show(input: string | Uint8Array, name: string): Promise<void> };
