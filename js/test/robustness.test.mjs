// Bad input and misuse give a NotateError and leave notate usable: an output too large for
// one call is refused before it fills the WebAssembly memory, a trap starts a fresh
// instance, and what callers' own objects throw (getters, Proxies, streams) comes back as a
// NotateError with the thrown value as its cause.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, convert, readPgn, egd, streamGames, Tracker, NotateError, init, initSync } from '../dist/index.js';
import { ShortToLong_CompactMove, ShortToLong_Format, LongToShort_Format, GameToPosition } from '../dist/formatconverter.js';
import { applyUpdate } from '../dist/jsonchess.js';
import { call, wasm, wasmMemoryBytes } from '../dist/core.js';

/** A NotateError of `kind`, whose message matches `pattern`. */
const notate = (kind, pattern) => (e) => {
  assert.ok(e instanceof NotateError, `${e?.constructor?.name}: ${e?.message}`);
  assert.equal(e.kind, kind, e.message);
  if (pattern) assert.match(e.message, pattern);
  return true;
};

/** A game of `plies` plies of knights going out and back. */
const shuffle = (plies) => `${'1. Nf3 Nf6 2. Ng1 Ng8 '.repeat(plies / 4)}*\n\n`;

test('a game whose output could pass 256 MiB is refused before it is written, the others converted', () => {
  const input = `${shuffle(8)}${shuffle(140_000)}${shuffle(4)}`;
  const { output, errors } = convert(input, { to: 'egd', egdExtended: true, pretty: true, errors: 'collect' });
  assert.equal(errors.length, 1);
  assert.ok(notate('too-large', /a game of 140000 plies: its output could pass 256 MiB/)(errors[0]));
  assert.equal(errors[0].game, 2);
  assert.equal(errors[0].line, 3);
  assert.equal((output.match(/"game_tags"/g) ?? []).length, 2);
  assert.ok(wasmMemoryBytes() < 256 << 20, `${wasmMemoryBytes()}`);
});

test('the bound of a game is its format\'s: checking or writing UCI a 140,000-ply game is fine', () => {
  const input = shuffle(140_000);
  assert.deepEqual(check(input).errors, []);
  assert.equal(convert(input, { to: 'uci' }).split(' ').length, 140_000);
});

test('a call whose output passes 256 MiB is refused, and the next one works', () => {
  // 700 games of 400 plies: about 1.1 KB of pretty extended EGD a ply, 316 MB.
  const input = shuffle(400).repeat(700);
  assert.throws(() => convert(input, { to: 'egd', egdExtended: true, pretty: true }),
    notate('too-large', /the output would pass 256 MiB, the most one call gives, at game \d+: convert fewer games/));
  assert.equal(convert('1. e4 *', { to: 'uci' }), 'e2e4\n');
});

test('a trap starts a fresh instance; objects of the old one are refused, not used', () => {
  const tracker = new Tracker();
  tracker.play('e4');
  assert.throws(() => call(wasm.__notateTrap), notate('internal', /it was started again/));
  assert.equal(convert('1. e4 e5 *', { to: 'uci' }), 'e2e4 e7e5\n');
  assert.throws(() => tracker.play('e5'), notate('usage', /make the Tracker again/));
  tracker.free();
  const fresh = new Tracker();
  assert.deepEqual(fresh.play('e4'), [['wkp', 'e4']]);
});

test('a number of more than 1,000 digits in ICN is refused at once', () => {
  const long = '9'.repeat(1_000_000);
  const start = performance.now();
  assert.throws(() => ShortToLong_CompactMove(`${long},1>1,1`), notate('too-large', /more than 1000 digits/));
  assert.throws(() => ShortToLong_Format(`w K${long},1|k5,8`), notate('too-large', /more than 1000 digits/));
  assert.ok(performance.now() - start < 2000, `${performance.now() - start} ms`);
  assert.equal(ShortToLong_CompactMove(`${'9'.repeat(1000)},1>1,1`).startCoords[0], BigInt('9'.repeat(1000)));
});

test('bytes that cannot be read are a usage error', () => {
  const detached = new ArrayBuffer(8);
  structuredClone(detached, { transfer: [detached] });
  assert.throws(() => readPgn(detached), notate('usage', /could not be read/));
  const fake = Object.setPrototypeOf({}, Uint8Array.prototype);
  assert.throws(() => readPgn(fake), notate('usage', /expected a string or bytes/));
  assert.throws(() => readPgn(new Proxy(new Uint8Array(4), {})), notate('usage', /expected a string or bytes/));
});

test("what the caller's getters and Proxies throw comes back as a usage error with its cause", () => {
  const cause = new RangeError('x');
  const getter = { get errors() { throw cause; } };
  assert.throws(() => readPgn('1. e4 *', getter), (e) => notate('usage', /the options could not be read: x/)(e) && e.cause === cause);
  assert.throws(() => convert('1. e4 *', { to: 'uci', get pretty() { throw cause; } }), notate('usage'));
  assert.throws(() => LongToShort_Format({ get moves() { throw cause; } }), notate('usage', /the moves could not be read/));
  assert.throws(() => LongToShort_Format({ moves: [] }, { get compact_moves() { throw cause; } }), notate('usage'));
  // The objects themselves: a getter of the game, a Proxy's traps.
  const game = ShortToLong_Format('w K5,1|k5,8 5,1>5,2');
  const trap = () => { throw cause; };
  const withCause = (pattern) => (e) => notate('usage', pattern)(e) && e.cause === cause;
  assert.throws(() => LongToShort_Format({ ...game, get metadata() { throw cause; } }), withCause(/the game could not be read/));
  assert.throws(() => LongToShort_Format(new Proxy(game, { ownKeys: trap })), withCause(/the game/));
  assert.throws(() => LongToShort_Format(new Proxy(game, { getOwnPropertyDescriptor: trap })), withCause(/the game/));
  assert.throws(() => GameToPosition(new Proxy(game, { isExtensible: trap }), 1, true), withCause(/the game/));
  assert.throws(() => applyUpdate(new Proxy({}, { getPrototypeOf: trap }), []), withCause(/the document/));
  assert.throws(() => applyUpdate(new Proxy([1], { isExtensible: trap }), []), withCause(/the document/));
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  assert.throws(() => applyUpdate({}, revoked.proxy), notate('usage', /the update/));
  for (const read of [readPgn, check, egd]) {
    assert.throws(() => read(new Proxy([], { getPrototypeOf: trap })), withCause(/the bytes could not be read/));
  }
});

test('a document that refuses a change halfway is given its old contents back', () => {
  const cause = new RangeError('x');
  /** `target` behind a Proxy that refuses to define `key` once. */
  const refusingOnce = (target, key) => {
    let refused = false;
    return new Proxy(target, {
      defineProperty(t, k, descriptor) {
        if (k === key && !refused) {
          refused = true;
          throw cause;
        }
        return Reflect.defineProperty(t, k, descriptor);
      },
    });
  };
  const doc = { a: 1, b: 2 };
  assert.throws(
    () => applyUpdate(refusingOnce(doc, 'b'), { op: 'update', key: 'a', value: 5 }),
    (e) => notate('usage', /could not be changed \(it was left as it was\)/)(e) && e.cause === cause,
  );
  assert.deepEqual(doc, { a: 1, b: 2 });
  const list = [1, 2, 3];
  assert.throws(() => applyUpdate(refusingOnce(list, '1'), []), notate('usage', /left as it was/));
  assert.deepEqual(list, [1, 2, 3]);
});

test('numbers come back exactly as given (every double, not one ulp off)', () => {
  // Doubles that serde_json's quick parsing rounded wrongly, found by a helper's fuzzing.
  for (const x of [0.39217527067594915, 189.67303681636994, -9.039535415048791e+166]) {
    const doc = { x };
    applyUpdate(doc, []);
    assert.equal(doc.x, x);
    assert.equal(ShortToLong_Format(`w {"x": ${x}} K5,1|k5,8`).gameRules.x, x);
  }
  // A thousand more, from a fixed seed.
  let seed = 7;
  const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 3000;
  const doc = { values: Array.from({ length: 1000 }, next) };
  const values = [...doc.values];
  applyUpdate(doc, []);
  assert.deepEqual(doc.values, values);
});

test("a string that looks like notate's mark for big integers stays a string", () => {
  const big = ShortToLong_Format('[Event "\u0000bigint:7"] w K100000000000000000000,1|k5,8');
  assert.equal(big.metadata.Event, '\u0000bigint:7');
  assert.equal(big.startingPosition['100000000000000000000,1'], 'kingsW');
  const small = ShortToLong_Format('w K5,1|k5,8');
  for (const game of [small, { ...small, startingPosition: { ...small.startingPosition, [`${2n ** 70n},1`]: 'queensW' }, enpassant: [2n ** 70n, 3] }]) {
    const short = LongToShort_Format({ ...game, metadata: { Event: '\u0000bigint:5' } });
    assert.match(short, /\[Event "\u0000bigint:5"\]/);
  }
});

test("a stream's own failure is an io error with its cause", async () => {
  const cause = new Error('disk gone');
  async function* failing() {
    yield new TextEncoder().encode('1. e4 *\n\n');
    throw cause;
  }
  const games = [];
  await assert.rejects(async () => {
    for await (const game of streamGames(failing())) games.push(game);
  }, (e) => notate('io', /the stream failed: disk gone/)(e) && e.cause === cause);
  // Its one game ended with its result and a line break: whole, given.
  assert.equal(games.length, 1);
  // The whole games read before the failure come first: those another game had started
  // after, or whose result and a line break were read; not a last one that may have been cut.
  async function* failingLater(text) {
    yield new TextEncoder().encode(text);
    throw cause;
  }
  for (const [text, whole] of [['1. e4 *\n\n1. d4 *\n\n', 2], ['1. e4 *\n\n1. d4', 1], ['1. e4 *\n\n'.repeat(3000), 3000]]) {
    const given = [];
    await assert.rejects(async () => {
      for await (const game of streamGames(failingLater(text))) given.push(game);
    }, notate('io'));
    assert.equal(given.length, whole);
    assert.equal(given[0].moves[0].san, 'e4');
  }
  // So for a chunk that is no bytes: the whole games first, then the usage error.
  const given = [];
  await assert.rejects(async () => {
    for await (const game of streamGames(['1. e4 *\n\n1. d4 *\n\n', 42])) given.push(game);
  }, notate('usage', /expected a string or bytes/));
  assert.equal(given.length, 2);
  const web = new ReadableStream({ start(c) { c.error(cause); } });
  await assert.rejects(async () => { for await (const _ of streamGames(web)); }, notate('io'));
});

test('a character split between two string chunks of a stream is one character', async () => {
  const text = '[Event "😀 é"]\n\n1. e4 e5 *\n';
  const at = text.indexOf('😀') + 1;
  for (const chunks of [[text.slice(0, at), text.slice(at)], [text.slice(0, at), '', text.slice(at)]]) {
    const games = [];
    for await (const game of streamGames(chunks)) games.push(game);
    assert.equal(games[0].tags.Event, '😀 é');
  }
  // A high surrogate alone at the end (or before bytes) is a replacement character, as in readPgn.
  const alone = [];
  for await (const game of streamGames(['[Event "a\ud83d', new TextEncoder().encode('"]\n\n1. e4 *\n')])) alone.push(game);
  assert.equal(alone[0].tags.Event, 'a\ufffd');
});

test('loading from something that is no module is a NotateError', async () => {
  await assert.rejects(() => init(5), notate('usage', /init: a URL/));
  assert.throws(() => initSync(null), notate('usage', /initSync: bytes/));
});

test('applyUpdate changes all or nothing, and defines keys (no prototype replaced)', () => {
  const frozen = Object.freeze({ a: [1] });
  assert.throws(() => applyUpdate(frozen, { op: 'add', key: 'a', value: 2 }), notate('usage', /frozen/));
  const locked = { a: [] };
  Object.defineProperty(locked, 'b', { value: 1, enumerable: true });
  assert.throws(() => applyUpdate(locked, { op: 'add', key: 'a', value: 1 }), notate('usage'));
  assert.deepEqual(locked, { a: [], b: 1 });
  const doc = applyUpdate(JSON.parse('{"__proto__":{"isAdmin":true}}'), []);
  assert.equal(Object.getPrototypeOf(doc), Object.prototype);
  assert.equal(doc.isAdmin, undefined);
  assert.deepEqual(Object.keys(doc), ['__proto__']);
  const long = applyUpdate(new Array(200_000).fill(0), []);
  assert.equal(long.length, 200_000);
  assert.throws(() => applyUpdate(new Date(0), []), notate('usage', /plain object or an array/));
  assert.throws(() => applyUpdate(Object.assign([1], { toJSON() { return { a: 1 }; } }), []), notate('usage', /its own kind/));
  for (const json of [null, 5]) {
    const odd = { a: 1, toJSON() { return json; } };
    assert.throws(() => applyUpdate(odd, []), notate('usage', /its own kind/));
    assert.equal(odd.a, 1);
  }
});

test('GameToPosition leaves a game it cannot change as it was', () => {
  const game = ShortToLong_Format('w K5,1|k5,8 5,1>5,2');
  const moves = game.moves;
  Object.defineProperty(game, 'moves', { value: moves, enumerable: true, configurable: false });
  const before = JSON.stringify(game);
  assert.throws(() => GameToPosition(game, Infinity, true), notate('usage', /modify_input/));
  assert.equal(JSON.stringify(game), before);
});

test('a token skipped in reading is a warning with its place, in check and convert', () => {
  const text = '1. e4 e5 *\n\n1. d4 ^5blergh d5 *\n';
  const { games, errors, warnings } = check(text);
  assert.equal(games, 2);
  assert.deepEqual(errors, []);
  assert.equal(warnings.length, 1);
  const [w] = warnings;
  assert.ok(w instanceof NotateError);
  assert.deepEqual([w.game, w.line, w.column, w.ply, w.token], [2, 3, 7, 2, '^5blergh']);
  assert.match(w.message, /skipped: not a move, result or annotation/);
  const converted = convert(text, { to: 'uci', errors: 'collect' });
  assert.equal(converted.output, 'e2e4 e7e5\nd2d4 d7d5\n');
  assert.equal(converted.warnings.length, 1);
});

test('readPgn, egd and streamGames put each warning on its game, not enumerable', async () => {
  const text = '1. e4 e5 *\n\n1. d4 ^5blergh d5 *\n\n1. c4 e5 2. zz Nc3 *\n';
  const place = (w) => [w.game, w.line, w.ply, w.token];
  const games = readPgn(text);
  assert.equal(games.length, 3);
  assert.equal(games[0].warnings, undefined);
  assert.deepEqual(place(games[1].warnings[0]), [2, 3, 2, '^5blergh']);
  assert.deepEqual(place(games[2].warnings[0]), [3, 5, 3, 'zz']);
  assert.deepEqual(games.warnings.map(place), [[2, 3, 2, '^5blergh'], [3, 5, 3, 'zz']]);
  // The items are the games as before: the warnings are no key of theirs.
  assert.deepEqual(Object.keys(games[1]), Object.keys(games[0]));
  assert.equal(JSON.stringify(games[1]).includes('warnings'), false);
  assert.equal(games[1].moves.length, 2);
  const egds = egd(text);
  assert.deepEqual(egds.map((g) => g.warnings?.length ?? 0), [0, 1, 1]);
  // A stream numbers its games across pushes: every game alone in its chunk.
  const chunks = text.split(/(?<=\n\n)/).map((t) => new TextEncoder().encode(t));
  const streamed = [];
  for await (const game of streamGames(chunks)) streamed.push(game);
  assert.deepEqual(streamed.map((g) => (g.warnings ?? []).map(place)), [[], [[2, 3, 2, '^5blergh']], [[3, 5, 3, 'zz']]]);
  // Games given by an earlier push count: 24 KB of games (past the splitter's first 16 KiB
  // chunk), then a game with a skipped token.
  const first = new TextEncoder().encode('1. e4 e5 *\n\n'.repeat(2000));
  const pushes = [first, new TextEncoder().encode('1. d4 ^5blergh d5 *\n')];
  const long = [];
  for await (const game of streamGames(pushes)) long.push(game);
  assert.equal(long.length, 2001);
  assert.equal(long.filter((g) => g.warnings).length, 1);
  assert.deepEqual(place(long[2000].warnings[0]), [2001, 4001, 2, '^5blergh']);
  // A failed game keeps what was skipped before it failed.
  const failed = readPgn('1. e4 yy e5 2. Ke3 *\n', { errors: 'collect' });
  assert.ok(failed[0] instanceof NotateError);
  assert.deepEqual(failed[0].warnings.map((w) => w.token), ['yy']);
});

test('a call lists at most 10,000 warnings, and says how many more there were', () => {
  const game = `1. e4 ${'^5 '.repeat(60)}e5 *\n\n`;
  const { games, warnings } = check(game.repeat(200));
  assert.equal(games, 200);
  assert.equal(warnings.length, 10_001);
  assert.ok(notate('too-large', /^2000 more warnings, not listed \(at most 10000 a call are\)$/)(warnings[10_000]));
});

test('streamGames gives every game all of its warnings, however the stream is cut', async () => {
  const one = '1. e4 ^5blergh e5 *\n\n';
  for (const pushes of [[one.repeat(12_000)], Array(12_000).fill(one)]) {
    let count = 0;
    for await (const game of streamGames(pushes)) {
      count += 1;
      assert.deepEqual(game.warnings?.map((w) => [w.game, w.token]), [[count, '^5blergh']], `game ${count}`);
    }
    assert.equal(count, 12_000);
  }
});
