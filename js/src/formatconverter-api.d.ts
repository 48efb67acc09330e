/** ICN's long form: the reference's object (coordinates past 2^53 as BigInt). */
export type LongFormat = Record<string, any>;

export interface LongToShortOptions {
  compact_moves?: 0 | 1 | 2;
  make_new_lines?: boolean;
  specifyPosition?: boolean;
  dialect?: '2024' | '2025';
}

export interface LongMove {
  compact?: string;
  startCoords: [number | bigint, number | bigint] | string;
  endCoords: [number | bigint, number | bigint] | string;
  promotion?: string;
  [key: string]: unknown;
}

export function ShortToLong_Format(shortformat: string): LongFormat;
export function LongToShort_Format(longformat: LongFormat, options?: LongToShortOptions): string;
export function LongToShort_Format(longformat: LongFormat, compact_moves?: 0 | 1 | 2, make_new_lines?: boolean): string;
export function GameToPosition(longformat: LongFormat, halfmoves?: number, modify_input?: boolean): LongFormat;
export function ShortToLong_CompactMove(shortmove: string): LongMove;
export function LongToShort_CompactMove(longmove: LongMove): string;
