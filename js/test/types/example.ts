// The README's examples, type-checked against the package's declarations (`tsc -p test/types`).
import { check, convert, readPgn, streamGames, tracks, Tracker, NotateError } from 'notate';
import { ShortToLong_Format, LongToShort_Format, GameToPosition } from 'notate/formatconverter';
import { Move, History, Premove, rate, applyUpdate, constants } from 'notate/jsonchess';
import { init } from 'notate/manual';

const games = readPgn('1. e4 e5 *');
const fens: string[] = games[0].moves.map((m) => m.fen);
const collected = readPgn('1. e4 e4 *', { errors: 'collect' });
for (const item of collected) {
  if (item instanceof NotateError) console.log(item.line, item.column, item.ply, item.token);
  else console.log(item.tags);
}
const csa: string = convert(new Uint8Array([]), { from: 'kif', to: 'csa', encoding: 'shift_jis' });
const run = convert('1. e4 *', { from: 'pgn', to: 'egd', errors: 'collect' });
const n: number = run.errors.length + check('1. e4 *').games;
const actions = new Tracker().play('e4');
const piece: string = actions[0][0];
const [track] = tracks('1. e4 *');
const [shogi] = tracks('position startpos moves 7g7f', { from: 'usi' });
const [infinite] = tracks('w K5,1|k5,8 5,1>5,2', { from: 'icn' });
const usiMove: string = shogi.moves[0].usi + infinite.moves[0].icn + shogi.header['先手'];
console.log(track.moves[0].actions, fens, csa, n, piece, usiMove);

const long = ShortToLong_Format('w K5,1|k5,8 5,1>5,2');
const short: string = LongToShort_Format(long, { compact_moves: 2 }) + LongToShort_Format(long, 2, false);
GameToPosition(long, Infinity, true);

const packed: string = Move.encodeAndPack('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e4', 0);
const label: string = Move.decode(packed).fullLabel + History.decode([packed])[0].uciLabel;
const valid: boolean = new Premove('8/8/8/8/8/8/4P3/4K2k w - - 0 1', 'e2', 'e4').isValid;
const rating = rate({ rating: 1500, rd: 350, vol: 0.06 }, [{ opponent: { rating: 1400, rd: 30, vol: 0.06 }, score: 1 }]);
const doc = applyUpdate({ seeks: [] as unknown[] }, { op: 'add', key: 'seeks', value: 1 });
console.log(short, label, valid, rating.rd, doc.seeks, constants.SEEK_TIMEOUT);

async function stream(body: ReadableStream<Uint8Array>) {
  await init(new URL('https://example.invalid/notate_bg.wasm'));
  for await (const game of streamGames(body)) console.log(game.moves.length);
}
void stream;

// The viewer: documents from any file, mounted on an element.
import { mount, viewerDocuments, type ViewerDocument } from 'notate/viewer';
export async function showBoard(element: HTMLElement, bytes: Uint8Array): Promise<number> {
  const { documents, errors } = await viewerDocuments(bytes);
  const viewer = mount(element, documents, { shogiStyle: 'japanese', stepMs: 100 });
  viewer.go(Infinity).step(-1);
  const doc: ViewerDocument = JSON.parse(documents[0]);
  return viewer.plies + errors.length + (doc.positions?.length ?? 0);
}
