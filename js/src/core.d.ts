/** Where the WebAssembly module comes from: a URL, a Response, bytes or a compiled module. */
export type WasmSource = string | URL | Response | BufferSource | WebAssembly.Module;

/** Loads the WebAssembly module (by default from `notate_bg.wasm` beside the package). */
export function init(source?: WasmSource): Promise<void>;
/** Loads the WebAssembly module from bytes or a compiled module, at once. */
export function initSync(bytes: BufferSource | WebAssembly.Module): void;
/** The bytes of WebAssembly memory in use (its high-water mark). */
export function wasmMemoryBytes(): number;
/** Whether the WebAssembly module is ready. */
export function isLoaded(): boolean;

/** What every notate function throws on bad input. */
export class NotateError extends Error {
  name: 'NotateError';
  /** `syntax`, `illegal`, `encoding`, `too-large`, `unwritable`, `io`, `usage` or `internal`. */
  kind: string;
  /** 1-based, as the command line prints it. */
  line: number | null;
  column: number | null;
  /** Byte offset in the input. */
  offset: number | null;
  /** 1-based number of the game in its input. */
  game: number | null;
  /** 1-based ply of the move that failed. */
  ply: number | null;
  /** The offending text (a move as written). */
  token: string | null;
  /** Where in a JSON document (`$.moves[3]`). */
  path: string | null;
  /** A failed game's item: what reading skipped before it failed (see `Game.warnings`). */
  readonly warnings?: NotateError[];
  /** `convert` only: every error of the run, and the text of the games that converted. */
  errors?: NotateError[];
  output?: string;
}

export function parseExact(text: string): any;
export function stringifyExact(value: unknown): string;
