export const constants: { SEEK_TIMEOUT: number; REMATCH_TIMEOUT: number; TIME_FOR_MOVES_BEFORE_CLOCK_START: number };
export const glicko2: { defaults: { RATING: number; RD: number; VOL: number }; GAMES_PER_RATING_PERIOD: number };
export const gameRestoration: { MIN_MOVES: number };
export const chatMessageTypes: { ADMIN: 0; USER: 1 };

export interface Unpacked {
  fullmove: number;
  index: number;
  label: string;
  /** Milliseconds; a BigInt past 2^53, exact. */
  time: number | bigint;
  from: string;
  to: string;
  castlingRightsLost: ('K' | 'Q')[];
  epTarget: string | null;
  type: 'c' | 'p' | 'ep' | undefined;
  castlingRookFrom?: string;
  castlingRookTo?: string;
  epCapture?: string;
  promoteTo?: string;
}

export interface Decoded {
  fullmove: number;
  index: number;
  label: string;
  fullLabel: string;
  uciLabel: string;
  colour: 'w' | 'b';
  from: string;
  to: string;
  piece: string | null;
  positionBefore: string;
  positionAfter: string;
  isCheck: boolean;
  isMate: boolean;
  isLegal: true;
  isCastling: boolean;
  castlingRookFrom: string | null;
  castlingRookTo: string | null;
  castlingRightsLost: ('K' | 'Q')[];
  isPromotion: boolean;
  promoteTo: string | null;
  isEnPassant: boolean;
  capturedPiece: string | null;
  /** Milliseconds; a BigInt past 2^53, exact. */
  time: number | bigint;
}

export interface DecodeOptions {
  /** Also accept the castling-rights field as the reference library writes it. */
  referenceRights?: boolean;
}

export const Move: {
  encodeAndPack(fen: string, move: string, time?: number | bigint | string | null): string;
  unpack(packed: string): Unpacked;
  decode(packed: string, fen?: string | null, options?: DecodeOptions | null): Decoded;
};

export const History: {
  decode(history: string[], fen?: string | null, options?: DecodeOptions | null): Decoded[];
};

export class Premove {
  constructor(fen: string, from: string | number, to: string | number, promoteTo?: string | null);
  isValid: boolean;
  error: string | null;
  board: string;
  from: string;
  to: string;
  promoteTo: string | undefined;
  piece: string | null;
  toJSON(): { from: number; to: number; promoteTo?: string };
}

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
}
export function rate(player: Rating, results: { opponent: Rating; score: number }[], tau?: number): Rating;

export interface Message {
  topic: string;
  data?: unknown;
}
export const messages: {
  parse(message: string | Message, side?: 'client' | 'server'): Message;
  serialize(message: string | Message, side?: 'client' | 'server'): string;
};

export interface Update {
  op: 'add' | 'remove' | 'update';
  key: string;
  value: unknown;
}
export function applyUpdate<T extends object>(doc: T, update: Update | Update[]): T;
