// The board viewer: shows games from viewer documents (`notate convert --to view`, one JSON
// line per game: a game's piece tracks and the facts of every position) for chess, shogi and
// infinite chess, with one code base. It knows no rules: every ply is the tracks' actions,
// animated with D3 (a piece slides, a captured one fades, a promoted one turns over), and the
// facts panel shows what notate computed.
//
// This file is the whole viewer: `notate render` inlines it (with D3) into a self-contained
// HTML page, and `notate/viewer` re-exports it with an app that reads files through the
// WebAssembly package. It imports nothing but D3, so a rendered page makes no request.
//
// The page is testable: every piece is an element with `data-piece` (its track name),
// `data-kind` (side, `+` when turned over, kind: `wQ`, `b+R`, `wAM`) and `data-square` (`e4`,
// `7g`, `x,y`) or, in a shogi hand, `data-hand` (`b`/`w`); the board carries `data-game` and
// `data-ply` of what it shows once its animation has ended.

import { d3 } from './d3.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Milliseconds of a step's animation. */
const STEP_MS = 260;
/** Milliseconds between plies when playing. */
const PLAY_MS = 900;

// Piece images, drawn for notate on a 100 × 100 grid (the page needs no font for them).
const BASE = 'M24,80 h52 a4,4 0 0 1 4,4 v6 h-60 v-6 a4,4 0 0 1 4,-4 z';
const CHESS_SHAPES = {
  P: `<circle cx="50" cy="30" r="13"/><path d="M36,80 Q38,52 44,44 h12 Q62,52 64,80 z"/><path d="${BASE}"/>`,
  R: `<path d="M28,16 h9 v9 h8 v-9 h10 v9 h8 v-9 h9 v22 l-7,6 v36 h-30 v-36 l-7,-6 z"/><path d="${BASE}"/>`,
  N: `<path d="M32,80 Q30,62 46,50 Q36,52 30,58 L22,52 Q24,30 42,20 L44,10 L52,18 Q72,22 74,50 L72,80 z"/><circle cx="44" cy="32" r="3" class="nv-eye"/><path d="${BASE}"/>`,
  B: `<circle cx="50" cy="12" r="6"/><path d="M50,18 Q70,36 62,62 L66,80 h-32 l4,-18 Q30,36 50,18 z"/><path d="M46,36 L56,46" class="nv-line"/><path d="${BASE}"/>`,
  Q: `<path d="M28,80 L20,30 L36,54 L42,22 L50,52 L58,22 L64,54 L80,30 L72,80 z"/><circle cx="20" cy="27" r="5"/><circle cx="42" cy="19" r="5"/><circle cx="58" cy="19" r="5"/><circle cx="80" cy="27" r="5"/><path d="${BASE}"/>`,
  K: `<path d="M46,6 h8 v9 h9 v8 h-9 v13 h-8 v-13 h-9 v-8 h9 z"/><path d="M30,80 Q16,46 50,42 Q84,46 70,80 z"/><path d="${BASE}"/>`,
};
const SHOGI_PIECE = 'M50,6 L76,18 L86,94 L14,94 L24,18 z';
const SHOGI_LETTERS = {
  western: { P: 'P', L: 'L', N: 'N', S: 'S', G: 'G', B: 'B', R: 'R', K: 'K' },
  japanese: { P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛', K: '玉' },
};
const SHOGI_PROMOTED = {
  western: { P: '+P', L: '+L', N: '+N', S: '+S', B: 'H', R: 'D' },
  japanese: { P: 'と', L: '杏', N: '圭', S: '全', B: '馬', R: '龍' },
};
const SHOGI_HAND_ORDER = 'RBGSNLP';
const JAPANESE_RANKS = '一二三四五六七八九';
const CHESS_FILES = 'abcdefgh';
/** The infinite board's view, in squares at zoom 1: square (0, 0) is the origin's. */
const VIEW_MIN = -5.5;
const VIEW_SPAN = 12;

const STYLE = `
.notate-viewer{--light:#eed9b6;--dark:#b58863;--accent:#2f6fbf;font:14px/1.4 system-ui,'DejaVu Sans',sans-serif;color:#1d1d1d;display:grid;grid-template-columns:minmax(260px,560px) minmax(220px,1fr);gap:12px;max-width:1100px;outline:none}
.notate-viewer:focus-visible{box-shadow:0 0 0 3px var(--accent)}
.notate-viewer .nv-head{grid-column:1/-1;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.notate-viewer .nv-title{font-weight:600;font-size:16px}
.notate-viewer .nv-failed{grid-column:1/-1;margin:0;padding-left:20px;color:#a11;font-size:13px;overflow-wrap:anywhere}
.notate-viewer svg.nv-board{width:100%;height:auto;display:block;user-select:none;touch-action:none;background:#fafafa;border-radius:4px}
.notate-viewer .nv-sq-light{fill:var(--light)}.notate-viewer .nv-sq-dark{fill:var(--dark)}
.notate-viewer .nv-coord{font-size:.28px;fill:#5b4a36;font-family:'DejaVu Sans',sans-serif}
.notate-viewer .nv-w .nv-shape{fill:#fbfbfb;stroke:#1d1d1d}.notate-viewer .nv-b .nv-shape{fill:#2a2a2a;stroke:#000}
.notate-viewer .nv-shape{stroke-width:3;stroke-linejoin:round}
.notate-viewer .nv-b .nv-eye,.notate-viewer .nv-b .nv-line{fill:#fbfbfb;stroke:#fbfbfb}.notate-viewer .nv-w .nv-line{stroke:#1d1d1d}
.notate-viewer .nv-n .nv-shape{fill:#8a8a8a;stroke:#444}
.notate-viewer .nv-void .nv-shape{fill:#000;stroke:#000}
.notate-viewer .nv-code{font:bold 30px 'DejaVu Sans',sans-serif;text-anchor:middle;dominant-baseline:central}
.notate-viewer .nv-w .nv-code{fill:#1d1d1d}.notate-viewer .nv-b .nv-code{fill:#fbfbfb}.notate-viewer .nv-n .nv-code{fill:#fff}
.notate-viewer .nv-koma .nv-shape{fill:#f3d9a0;stroke:#7a5a2b;stroke-width:3}
.notate-viewer .nv-koma .nv-code{fill:#1d1d1d;font-size:34px}.notate-viewer .nv-koma.nv-promoted .nv-code{fill:#c0241b}
.notate-viewer .nv-hand-bg{fill:#efe6d6}
.notate-viewer rect.nv-last{fill:#f6e36b;opacity:.55}
.notate-viewer .nv-picked{fill:#5aa9e6;opacity:.6}.notate-viewer .nv-premove{fill:#d9534f;opacity:.45}
.notate-viewer .nv-border{fill:none;stroke:#c0241b;stroke-width:.08}
.notate-viewer .nv-controls{display:flex;gap:6px;flex-wrap:wrap;margin-top:8px}
.notate-viewer button{font:inherit;padding:4px 10px;border:1px solid #999;border-radius:4px;background:#fff;cursor:pointer}
.notate-viewer button:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
.notate-viewer .nv-moves{max-height:320px;overflow:auto;margin:0;padding:0 0 0 2.6em;font-variant-numeric:tabular-nums}
.notate-viewer .nv-moves li{margin:1px 0}
.notate-viewer .nv-moves button{border:none;padding:1px 6px;background:none;min-width:5.5em;text-align:left}
.notate-viewer .nv-moves button[aria-current]{background:var(--accent);color:#fff}
.notate-viewer .nv-facts{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:10px 0 0}
.notate-viewer .nv-facts dt{font-weight:600}.notate-viewer .nv-facts dd{margin:0;word-break:break-all}
.notate-viewer .nv-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

/** The family of a raw document: a viewer document names it; bare tracks are told by their keys. */
function documentOf(value) {
  const doc = typeof value === 'string' ? JSON.parse(value) : value;
  if (doc.family) return doc;
  const family = doc.header ? 'shogi' : doc.metadata ? 'infinite' : 'chess';
  return { family, tracks: doc, positions: null, border: null };
}

/** Colour and kind of a piece from its track name (see the tracks formats in the README). */
export function pieceOf(family, name) {
  const side = name[0];
  if (family === 'shogi') return { side, kind: name[1] };
  if (family === 'infinite') {
    const promoted = name.indexOf('=');
    const code = promoted >= 0 ? name.slice(promoted + 1) : name.slice(1).match(/^[A-Z]+/)[0];
    return { side, kind: code };
  }
  // Chess: `wQ2` (a letter), `wkp` (a pawn), `wqr`, `wq`, `wk`.
  if (name[1] >= 'A' && name[1] <= 'Z') return { side, kind: name[1] };
  if (name.length >= 3 && name.endsWith('p')) return { side, kind: 'P' };
  return { side, kind: name[name.length - 1].toUpperCase() };
}

/**
 * Every position of a game as a map from piece name to place — `{square}`, or `{hand}` in a
 * shogi hand — with its side and whether it is turned over, by applying the tracks' actions.
 */
export function positionsOf(doc) {
  const { family, tracks } = doc;
  const start = new Map();
  for (const [name, value] of Object.entries(tracks.start)) {
    const piece = { ...pieceOf(family, name), square: null, hand: null, promoted: false };
    if (family === 'shogi' && (value === 'b' || value === 'w')) piece.hand = value;
    else if (family === 'shogi' && value.endsWith('+')) Object.assign(piece, { square: value.slice(0, -1), promoted: true });
    else piece.square = value;
    start.set(name, piece);
  }
  const states = [start];
  for (const move of tracks.moves) states.push(applyActions(family, states[states.length - 1], move.actions));
  return states;
}

/** The position after one ply's actions (a new map; `state` is left as it was). */
function applyActions(family, state, actions) {
  const next = new Map(state);
  for (const [name, target] of actions) {
    const before = next.get(name) ?? { ...pieceOf(family, name), square: null, hand: null, promoted: false };
    if (target === 'x' || target === 'p') next.delete(name);
    else if (family === 'shogi' && target === '+') next.set(name, { ...before, promoted: true });
    else if (family === 'shogi' && (target === 'b' || target === 'w')) {
      next.set(name, { ...before, side: target, hand: target, square: null, promoted: false });
    } else next.set(name, { ...before, square: target, hand: null });
  }
  return next;
}

/** The label of a ply in the move list. */
function labelOf(doc, ply, style) {
  const move = doc.tracks.moves[ply - 1];
  const facts = doc.positions?.[ply];
  if (doc.family === 'shogi') return (style === 'japanese' ? facts?.ki2 : facts?.western) ?? move.usi;
  if (doc.family === 'infinite') return short(move.icn);
  return move.san;
}

/** A game's title; `at`: its place in the input (0-based), for a game without players. */
function titleOf(doc, at) {
  const tags = doc.tracks.game_tags ?? doc.tracks.header ?? doc.tracks.metadata ?? {};
  const white = tags.White ?? tags['先手'] ?? tags['下手'];
  const black = tags.Black ?? tags['後手'] ?? tags['上手'];
  const players = white || black ? `${white ?? '?'} – ${black ?? '?'}` : `Game ${at + 1}`;
  const extra = [tags.Event ?? tags['棋戦'] ?? tags.Variant, tags.Result].filter((v) => v && v !== '?');
  return extra.length ? `${players} (${extra.join(', ')})` : players;
}

/** Numbers of more than 12 digits cut in the middle (`1000…000005`), for labels. */
function short(text) {
  return text.replace(/\d{13,}/g, (n) => `${n.slice(0, 4)}…${n.slice(-6)}`);
}

/** Big-integer coordinates of an infinite-chess square `x,y`. */
function coordOf(square) {
  const comma = square.indexOf(',');
  return [BigInt(square.slice(0, comma)), BigInt(square.slice(comma + 1))];
}

/**
 * Shows `games` in `container`: viewer documents (objects, or JSON lines as one string or an
 * array of strings; bare piece tracks also work, without the facts). Returns the viewer, whose
 * `go(ply)`, `step(±1)`, `select(game)` and `flip()` are what the controls call.
 *
 * For a game being played (a chess or shogi board), `append(move)` adds a ply as it comes, and
 * `options.input = {side, onMove(from, to)}` lets the user pick up `side`'s pieces (`w`/`b`)
 * in the last position and drop or click them on a square: the viewer knows no rules and
 * only reports the two squares; the piece stays where it was dropped until the next ply
 * or `go` puts the board right again.
 *
 * ```js
 * import { mount } from 'notate/viewer';
 * const viewer = mount(document.querySelector('#board'), convert(pgn, { to: 'view' }));
 * viewer.go(10);
 * ```
 */
export function mount(container, games, options) {
  return new Viewer(container, games, options);
}

/** The failure of an entry that stands for a game that could not be read
 * (`{"failed":{"game":2,"error":"…"}}`, which `notate render` writes in the game's place), or
 * null for a game. */
function failureOf(entry) {
  if (typeof entry === 'string') {
    if (!entry.startsWith('{"failed":')) return null;
    try {
      const parsed = JSON.parse(entry);
      return 'failed' in parsed ? Object(parsed.failed ?? {}) : null;
    } catch {
      return null;
    }
  }
  return entry && typeof entry === 'object' && 'failed' in entry && !('tracks' in entry) ? Object(entry.failed ?? {}) : null;
}

export class Viewer {
  // Its own name, which the package's minified build would shorten.
  static { Object.defineProperty(this, 'name', { value: 'Viewer' }); }

  constructor(container, games, options) {
    const entries = typeof games === 'string' ? games.split('\n').filter((l) => l.trim() !== '') : [...games];
    // The games, and the list as the input had it: a game (its index in `sources`) or a
    // failure in each place, so that the picker numbers the games as the input does.
    // An input that could not be read (`"game":null`) has its error listed, and no place.
    this.sources = [];
    this.listed = [];
    this.errors = [];
    for (const entry of entries) {
      const failure = failureOf(entry);
      if (!failure) {
        this.listed.push({ game: this.sources.push(entry) - 1 });
        continue;
      }
      const error = typeof failure.error === 'string' ? failure.error : JSON.stringify(failure);
      this.errors.push(error);
      if (failure.game !== null) this.listed.push({ error });
    }
    // Spread, `null` and `undefined` are no options alike.
    this.options = { shogiStyle: 'western', stepMs: STEP_MS, playMs: PLAY_MS, ...options };
    // The number of the first entry in its input (`notate render --game 7` lists game 7 only).
    const first = this.options.firstNumber;
    this.offset = Number.isSafeInteger(first) && first > 0 ? first - 1 : 0;
    this.place = this.listed.flatMap((item, at) => ('game' in item ? [at + this.offset] : []));
    this.docs = new Array(this.sources.length);
    this.container = container;
    this.game = -1;
    this.ply = 0;
    this.flipped = false;
    this.timer = null;
    this.token = 0;
    this.picked = null;
    installStyle(container.ownerDocument);
    this.build();
    if (this.options.input) this.listen();
    // For scripts and tests: the page's viewer is its container's `notateViewer`.
    container.notateViewer = this;
    if (this.sources.length > 0) this.select(this.options.game ?? 0, this.options.ply ?? 0);
    else {
      // A page whose every game failed: it says so, and its controls do nothing.
      this.title.text('No game to show');
      this.root.selectAll('.nv-controls button').attr('disabled', true);
    }
  }

  document(index) {
    if (!this.docs[index]) {
      const doc = documentOf(this.sources[index]);
      doc.states = positionsOf(doc);
      this.docs[index] = doc;
    }
    return this.docs[index];
  }

  build() {
    const root = d3.select(this.container).append('div').attr('class', 'notate-viewer').attr('tabindex', 0)
      .attr('role', 'region').attr('aria-roledescription', 'game viewer')
      .attr('aria-label', 'Game viewer: arrow keys step through the moves, Home and End go to the start and the end, f flips the board');
    this.root = root;
    const head = root.append('div').attr('class', 'nv-head');
    this.title = head.append('h2').attr('class', 'nv-title').style('margin', 0);
    if (this.listed.length > 1) {
      const label = head.append('label').text('Game ');
      this.picker = label.append('select').attr('class', 'nv-picker').on('change', (event) => this.select(Number(event.target.value)));
      // A game that failed keeps its number, and cannot be picked.
      this.picker.selectAll('option').data(this.listed).join('option')
        .attr('value', (item) => item.game ?? '').property('disabled', (item) => !('game' in item))
        .text((item, at) => `${at + 1 + this.offset}. ${'game' in item ? this.pickerLabel(item.game) : 'could not be read (see the list)'}`);
    }
    if (this.errors.length > 0) {
      root.append('ul').attr('class', 'nv-failed').attr('aria-label', 'Games that could not be read')
        .selectAll('li').data(this.errors).join('li').text((error) => error);
    }
    const left = root.append('div').attr('class', 'nv-left');
    this.svg = left.append('svg').attr('class', 'nv-board').attr('role', 'img').attr('xmlns', SVG);
    this.svg.append('defs');
    this.layer = this.svg.append('g').attr('class', 'nv-world');
    this.squares = this.layer.append('g').attr('class', 'nv-squares');
    this.marks = this.layer.append('g').attr('class', 'nv-marks');
    this.pieces = this.layer.append('g').attr('class', 'nv-pieces');
    this.coords = this.svg.append('g').attr('class', 'nv-coords');
    const controls = left.append('div').attr('class', 'nv-controls').attr('role', 'toolbar').attr('aria-label', 'Moves');
    const button = (name, label, text, action) => controls.append('button').attr('type', 'button')
      .attr('class', `nv-${name}`).attr('aria-label', label).attr('title', label).text(text).on('click', () => this.doc && action());
    button('first', 'First position (Home)', '|◀', () => this.go(0));
    button('prev', 'Previous move (←)', '◀', () => this.step(-1));
    this.playButton = button('play', 'Play (space)', 'Play', () => this.togglePlay());
    button('next', 'Next move (→)', '▶', () => this.step(1));
    // Class nv-last, as the last move's mark: the style names the mark by its `rect`.
    button('last', 'Last position (End)', '▶|', () => this.go(Infinity));
    button('flip', 'Flip the board (f)', '⇅', () => this.flip());
    this.styleButton = button('style', 'Japanese or Western notation (j)', '', () => this.toggleStyle());
    const right = root.append('div').attr('class', 'nv-right');
    right.append('h3').attr('class', 'nv-sr').text('Moves');
    this.moveList = right.append('ol').attr('class', 'nv-moves').attr('aria-label', 'Move list');
    this.facts = right.append('dl').attr('class', 'nv-facts').attr('aria-live', 'polite');
    this.live = root.append('div').attr('class', 'nv-sr').attr('aria-live', 'polite');
    root.on('keydown', (event) => this.key(event));
  }

  /** A game's title for the picker, from its tags alone (the tags come first in a document's
   * line, so a page of many games opens without parsing every game). */
  pickerLabel(index) {
    const source = this.sources[index];
    const found = typeof source === 'string' && source.match(/^\{"family":"\w+","tracks":\{"(game_tags|header|metadata)":(\{.*?\}),"start":/);
    try {
      return titleOf({ tracks: { [found[1]]: JSON.parse(found[2]) } }, this.place[index]);
    } catch {
      // Not a viewer document's line, or a `}` in a tag value: the whole game is read.
    }
    try {
      return titleOf(this.document(index), this.place[index]);
    } catch {
      return `Game ${this.place[index] + 1}`;
    }
  }

  key(event) {
    if (!this.doc || event.target.tagName === 'SELECT' || event.target.tagName === 'TEXTAREA') return;
    const pan = this.doc?.family === 'infinite' && event.shiftKey;
    const actions = {
      ArrowLeft: () => (pan ? this.panBy(-1, 0) : this.step(-1)),
      ArrowRight: () => (pan ? this.panBy(1, 0) : this.step(1)),
      ArrowUp: () => pan && this.panBy(0, 1),
      ArrowDown: () => pan && this.panBy(0, -1),
      Home: () => this.go(0),
      End: () => this.go(Infinity),
      ' ': () => this.togglePlay(),
      f: () => this.flip(),
      j: () => this.toggleStyle(),
      '+': () => this.zoomBy(1.25),
      '=': () => this.zoomBy(1.25),
      '-': () => this.zoomBy(0.8),
    };
    const action = actions[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === ' ' && event.target.tagName === 'BUTTON') return;
    event.preventDefault();
    action();
  }

  /** Shows game `index` (0-based) at `ply`. */
  select(index, ply = 0) {
    this.stop();
    this.game = index;
    this.doc = this.document(index);
    const doc = this.doc;
    if (this.picker) this.picker.property('value', index);
    this.root.attr('data-family', doc.family);
    this.svg.attr('data-game', this.place[index] + 1);
    this.title.text(titleOf(doc, this.place[index]));
    this.styleButton.style('display', doc.family === 'shogi' ? null : 'none')
      .text(this.options.shogiStyle === 'japanese' ? 'Western' : 'Japanese');
    this.pieces.selectAll('*').remove();
    this.marks.selectAll('*').remove();
    this.picked = null;
    this.setupBoard();
    this.renderMoves();
    this.show(Math.min(ply, doc.tracks.moves.length), false);
    return this;
  }

  get plies() {
    return this.doc ? this.doc.tracks.moves.length : 0;
  }

  /** Shows the position after `ply` plies (0: the start, Infinity: the end) at once. */
  go(ply) {
    this.stop();
    this.show(Math.max(0, Math.min(ply, this.plies)), false);
    return this;
  }

  /** One ply forward (1) or back (-1), animated. */
  step(delta) {
    if (this.timer && delta !== 0) this.stop();
    const ply = this.ply + delta;
    if (ply < 0 || ply > this.plies) return this;
    this.show(ply, true);
    return this;
  }

  flip() {
    this.flipped = !this.flipped;
    const viewer = this;
    this.marks.selectAll('rect[data-square]').each(function place() {
      const [x, y] = viewer.cell(this.getAttribute('data-square'));
      this.setAttribute('x', x);
      this.setAttribute('y', y);
    });
    this.setupBoard();
    this.show(this.ply, false);
    return this;
  }

  toggleStyle() {
    this.options.shogiStyle = this.options.shogiStyle === 'japanese' ? 'western' : 'japanese';
    this.styleButton.text(this.options.shogiStyle === 'japanese' ? 'Western' : 'Japanese');
    this.setupBoard();
    this.renderMoves();
    this.pieces.selectAll('*').remove();
    this.show(this.ply, false);
    return this;
  }

  togglePlay() {
    if (this.timer) return this.stop();
    if (this.ply >= this.plies) this.go(0);
    this.playButton.text('Pause').attr('aria-label', 'Pause (space)');
    this.timer = setInterval(() => {
      if (this.ply >= this.plies) this.stop();
      else this.show(this.ply + 1, true);
    }, this.options.playMs);
    return this;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.playButton?.text('Play').attr('aria-label', 'Play (space)');
    return this;
  }

  // ---- a game being played ----

  /**
   * Adds a ply to the game shown, `{san (or usi/icn), actions, facts}`; when the viewer
   * was showing the last position it steps to the new one, animated.
   */
  append(move) {
    const doc = this.doc;
    const atEnd = this.ply === this.plies;
    const { facts, ...rest } = move;
    doc.tracks.moves.push({ ply: doc.tracks.moves.length + 1, ...rest });
    doc.states.push(applyActions(doc.family, doc.states[doc.states.length - 1], move.actions));
    if (doc.positions) doc.positions.push(facts ?? {});
    this.renderMoves();
    this.picked = null;
    if (atEnd) this.show(this.plies, true);
    else this.renderFacts(this.ply);
    return this;
  }

  /** Marks squares (`['e2', 'e4']`) with the class `nv-<kind>` (`premove`, `picked`); none clears. */
  highlight(kind, squares = []) {
    this.marks.selectAll(`.nv-${kind}`).remove();
    for (const square of squares) {
      const [x, y] = this.cell(square);
      this.marks.append('rect').attr('class', `nv-${kind}`).attr('data-square', square)
        .attr('x', x).attr('y', y).attr('width', 1).attr('height', 1);
    }
    return this;
  }

  /** The square under a pointer event, or null off the board. */
  squareAt(event) {
    const size = this.doc.family === 'shogi' ? 9 : 8;
    const [px, py] = d3.pointer(event, this.layer.node());
    let col = Math.floor(px);
    let row = Math.floor(py);
    if (col < 0 || row < 0 || col >= size || row >= size) return null;
    if (this.flipped) [col, row] = [size - 1 - col, size - 1 - row];
    if (this.doc.family === 'chess') return `${CHESS_FILES[col]}${8 - row}`;
    return `${9 - col}${'abcdefghi'[row]}`;
  }

  /** The piece of `side` the user may pick up on `square` (in the last position only). */
  pickable(square) {
    const input = this.options.input;
    if (!input || !square || this.ply !== this.plies) return null;
    for (const [name, piece] of this.doc.states[this.ply]) {
      if (piece.square === square && piece.side === input.side) return name;
    }
    return null;
  }

  /** Pointer input: press a piece and drag it, or click it and then click a square. */
  listen() {
    const svg = this.svg;
    svg.style('cursor', 'pointer');
    let drag = null;
    svg.on('pointerdown.input', (event) => {
      if (event.button !== 0) return;
      const square = this.squareAt(event);
      const name = this.pickable(square);
      if (!name && this.picked) {
        const from = this.picked.square;
        this.unpick();
        if (square && square !== from) this.options.input.onMove(from, square);
        return;
      }
      if (!name) return this.unpick();
      event.preventDefault();
      this.picked = { name, square };
      this.highlight('picked', [square]);
      const element = this.pieces.select(`g[data-piece="${name}"]`);
      element.raise();
      drag = { name, element, start: d3.pointer(event, this.layer.node()), moved: false, pointer: event.pointerId };
      svg.node().setPointerCapture?.(event.pointerId);
    });
    svg.on('pointermove.input', (event) => {
      if (!drag || event.pointerId !== drag.pointer) return;
      const [x, y] = d3.pointer(event, this.layer.node());
      if (!drag.moved && Math.hypot(x - drag.start[0], y - drag.start[1]) < 0.15) return;
      drag.moved = true;
      drag.element.interrupt().attr('transform', `translate(${x - 0.5},${y - 0.5})`);
    });
    svg.on('pointerup.input pointercancel.input', (event) => {
      if (!drag || event.pointerId !== drag.pointer) return;
      const { moved, element } = drag;
      drag = null;
      if (!moved) return; // a click: the piece stays picked for a second click
      const from = this.picked?.square;
      const to = this.squareAt(event);
      this.unpick();
      if (from && to && to !== from) {
        const [x, y] = this.cell(to);
        element.attr('transform', `translate(${x},${y})`);
        this.options.input.onMove(from, to);
      } else this.show(this.ply, false);
    });
  }

  unpick() {
    this.picked = null;
    this.highlight('picked');
  }

  // ---- the board of each family ----

  setupBoard() {
    const doc = this.doc;
    // A view's transition still under way would go on moving the new board (interrupting it
    // also ends its key move: see moveView).
    this.svg.interrupt();
    this.squares.selectAll('*').remove();
    this.coords.selectAll('*').remove();
    this.svg.on('.zoom', null);
    this.layer.attr('transform', null);
    if (doc.family === 'infinite') return this.setupInfinite();
    const size = doc.family === 'shogi' ? 9 : 8;
    const hands = doc.family === 'shogi' ? 1.4 : 0;
    this.svg.attr('viewBox', `-0.5 ${-0.5 - hands} ${size + 1} ${size + 1 + 2 * hands}`);
    const cells = [];
    for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) cells.push([col, row]);
    this.squares.selectAll('rect').data(cells).join('rect').attr('x', (d) => d[0]).attr('y', (d) => d[1])
      .attr('width', 1).attr('height', 1)
      .attr('class', (d) => (doc.family === 'shogi' || (d[0] + d[1]) % 2 === 0 ? 'nv-sq-light' : 'nv-sq-dark'))
      .attr('stroke', doc.family === 'shogi' ? '#7a5a2b' : null).attr('stroke-width', doc.family === 'shogi' ? 0.02 : null);
    const labels = [];
    for (let i = 0; i < size; i++) {
      if (doc.family === 'chess') {
        const file = this.flipped ? 7 - i : i;
        const rank = this.flipped ? i + 1 : 8 - i;
        labels.push({ x: i + 0.5, y: 8.32, text: CHESS_FILES[file] }, { x: -0.25, y: i + 0.58, text: String(rank) });
      } else {
        const file = this.flipped ? i + 1 : 9 - i;
        const rank = this.flipped ? 8 - i : i;
        const rankText = this.options.shogiStyle === 'japanese' ? JAPANESE_RANKS[rank] : 'abcdefghi'[rank];
        labels.push({ x: i + 0.5, y: -0.12, text: String(file) }, { x: 9.25, y: i + 0.58, text: rankText });
      }
    }
    this.coords.selectAll('text').data(labels).join('text').attr('class', 'nv-coord')
      .attr('x', (d) => d.x).attr('y', (d) => d.y).attr('text-anchor', 'middle').text((d) => d.text);
    if (doc.family === 'shogi') {
      for (const y of [-1.4, 9.05]) this.squares.append('rect').attr('class', 'nv-hand-bg').attr('x', 0).attr('y', y).attr('width', 9).attr('height', 1.35).attr('rx', 0.1);
    }
  }

  /** Board coordinates (column, row; 0-based, row 0 at the top) of a square. */
  cell(square) {
    const family = this.doc.family;
    let col;
    let row;
    if (family === 'chess') {
      col = square.charCodeAt(0) - 97;
      row = 8 - Number(square.slice(1));
      if (this.flipped) [col, row] = [7 - col, 7 - row];
    } else {
      col = 9 - Number(square[0]);
      row = square.charCodeAt(1) - 97;
      if (this.flipped) [col, row] = [8 - col, 8 - row];
    }
    return [col, row];
  }

  /** Where each piece of `state` stands on screen, in board units, with its drawing. */
  layout(state) {
    const family = this.doc.family;
    const items = [];
    const hands = { b: [], w: [] };
    for (const [name, piece] of state) {
      if (piece.hand) {
        hands[piece.hand].push([name, piece]);
        continue;
      }
      let x;
      let y;
      if (family === 'infinite') {
        const [bx, by] = coordOf(piece.square);
        // Far pieces are drawn just off any view: SVG cannot place at 1e40.
        const clamp = (v) => (v > 1000000n ? 1e6 : v < -1000000n ? -1e6 : Number(v));
        x = clamp(bx - this.origin[0]);
        y = -clamp(by - this.origin[1]);
      } else [x, y] = this.cell(piece.square);
      items.push({ name, piece, x, y, turn: family === 'shogi' && piece.side === (this.flipped ? 'b' : 'w') });
    }
    // A hand: the pieces of a kind on one place, counted when more than one (a tsume
    // problem's 18 pawns spread out ran off the board): seven kinds fit its width.
    this.handCounts = [];
    for (const side of ['b', 'w']) {
      const list = hands[side].sort((a, b) => SHOGI_HAND_ORDER.indexOf(a[1].kind) - SHOGI_HAND_ORDER.indexOf(b[1].kind));
      const bottom = (side === 'b') !== this.flipped;
      const y = bottom ? 9.12 : -1.33;
      let x = -1.05;
      let last = null;
      for (const [name, piece] of list) {
        if (piece.kind !== last) {
          x += 1.05;
          this.handCounts.push({ key: side + piece.kind, x: (bottom ? x : 8 - x) + 0.95, y: y + 0.95, n: 0 });
        }
        last = piece.kind;
        this.handCounts[this.handCounts.length - 1].n++;
        items.push({ name, piece, x: bottom ? x : 8 - x, y, turn: !bottom, scale: 0.9 });
      }
    }
    this.marks.selectAll('text.nv-count').data(this.handCounts.filter((c) => c.n > 1), (c) => c.key).join('text')
      .attr('class', 'nv-count').attr('x', (c) => c.x).attr('y', (c) => c.y).attr('text-anchor', 'end')
      .attr('font-size', 0.38).text((c) => c.n);
    return items;
  }

  // ---- infinite chess: a board that pans and zooms around a big-integer origin ----

  setupInfinite() {
    const doc = this.doc;
    // The first view is centred on the start's pieces: on each axis, halfway between the
    // first and the last when they fit in the view, else between the two middle values (far
    // pieces do not pull the view away from the rest). That is the origin's square, or the
    // line between it and the next (then the view moves by half a square). The upper middle
    // value alone put the Classical start's ranks 1 … 8 around rank 7, rank 1 half off.
    const squares = [...doc.states[0].values()].map((p) => coordOf(p.square));
    const middle = (values) => {
      if (values.length === 0) return [0n, 0];
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const [first, last] = [sorted[0], sorted[sorted.length - 1]];
      const sum = last - first < BigInt(VIEW_SPAN) ? first + last
        : sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.floor(sorted.length / 2)];
      const odd = ((sum % 2n) + 2n) % 2n;
      return [(sum - odd) / 2n, Number(odd) / 2];
    };
    const [[x, halfX], [y, halfY]] = [middle(squares.map((s) => s[0])), middle(squares.map((s) => s[1]))];
    this.origin = [x, y];
    this.home = this.origin;
    // Screen y grows downwards, board y upwards.
    this.homeView = d3.zoomIdentity.translate(-halfX, halfY);
    // Square (0, 0) of the screen is the origin's, centred: the view spans -5.5 … 6.5.
    this.svg.attr('viewBox', `${VIEW_MIN} ${VIEW_MIN} ${VIEW_SPAN} ${VIEW_SPAN}`);
    const defs = this.svg.select('defs');
    defs.select('#nv-checker').remove();
    const pattern = defs.append('pattern').attr('id', 'nv-checker').attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 2).attr('height', 2);
    pattern.append('rect').attr('width', 2).attr('height', 2).attr('class', 'nv-sq-dark');
    pattern.append('rect').attr('width', 1).attr('height', 1).attr('class', 'nv-sq-light');
    pattern.append('rect').attr('x', 1).attr('y', 1).attr('width', 1).attr('height', 1).attr('class', 'nv-sq-light');
    this.squares.append('rect').attr('x', -1e6).attr('y', -1e6).attr('width', 2e6).attr('height', 2e6).attr('fill', 'url(#nv-checker)');
    this.pattern = pattern;
    this.colourSquares();
    this.drawBorder();
    this.zoom = d3.zoom().scaleExtent([0.05, 8]).on('zoom', (event) => {
      this.view = event.transform;
      this.layer.attr('transform', event.transform);
      this.drawInfiniteCoords();
    });
    this.svg.call(this.zoom).on('dblclick.zoom', null);
    this.view = this.homeView;
    this.svg.call(this.zoom.transform, this.homeView);
    this.drawInfiniteCoords();
  }

  /** A square is dark when x + y is even (1,1 is a1): the pattern's light corner goes to
   * the origin's square when its x + y is odd. */
  colourSquares() {
    const parity = Number(((this.origin[0] + this.origin[1]) % 2n + 2n) % 2n);
    this.pattern.attr('x', parity ? 0 : 1).attr('y', 0);
  }

  drawBorder() {
    const border = this.doc.border;
    this.squares.selectAll('.nv-border').remove();
    if (!border) return;
    const far = 1e7;
    const edge = (value, axis) => (value === undefined ? null : Number(BigInt(value) - this.origin[axis]));
    const left = edge(border.left, 0);
    const right = edge(border.right, 0);
    const bottom = edge(border.bottom, 1);
    const top = edge(border.top, 1);
    // Square (x, y) covers x … x + 1 and -y … -y + 1 of the layer.
    const x0 = left === null ? -far : left;
    const x1 = right === null ? far : right + 1;
    const y0 = top === null ? -far : -top;
    const y1 = bottom === null ? far : -bottom + 1;
    this.squares.append('rect').attr('class', 'nv-border').attr('x', x0).attr('y', y0).attr('width', x1 - x0).attr('height', y1 - y0);
  }

  drawInfiniteCoords() {
    const t = this.view ?? d3.zoomIdentity;
    // Which squares the view shows under the transform; a label in the middle of each
    // (every few squares when zoomed out).
    const first = (o) => Math.floor((VIEW_MIN - o) / t.k);
    const last = (o) => Math.ceil((VIEW_MIN + VIEW_SPAN - o) / t.k);
    // Every few squares when zoomed out or when the numbers are long.
    const width = short(String(this.origin[0] + BigInt(first(t.x)))).length * 0.17 + 0.2;
    const step = Math.max(1, Math.ceil(Math.max(1.2, width) / t.k));
    const labels = [];
    for (let i = first(t.x); i <= last(t.x); i++) {
      if (i % step === 0) labels.push({ x: (i + 0.4) * t.k + t.x, y: VIEW_MIN + VIEW_SPAN - 0.12, text: String(this.origin[0] + BigInt(i)) });
    }
    for (let j = first(t.y); j <= last(t.y); j++) {
      if (j % step === 0) labels.push({ x: VIEW_MIN + 0.08, y: (j + 0.6) * t.k + t.y, text: String(this.origin[1] - BigInt(j)) });
    }
    this.coords.selectAll('text').data(labels).join('text').attr('class', 'nv-coord')
      .attr('x', (d) => d.x).attr('y', (d) => d.y).attr('text-anchor', 'start').text((d) => short(d.text));
  }

  panBy(dx, dy) {
    if (this.doc.family !== 'infinite') return;
    this.moveView((t) => t.translate(-dx * 2, dy * 2));
  }

  zoomBy(factor) {
    if (this.doc.family !== 'infinite') return;
    // About the middle of the view, within the zoom's limits, as the zoom's own scaleBy.
    const [min, max] = this.zoom.scaleExtent();
    const middle = VIEW_MIN + VIEW_SPAN / 2;
    this.moveView((t) => {
      const k = Math.max(min, Math.min(max, t.k * factor));
      return d3.zoomIdentity.translate(middle - ((middle - t.x) * k) / t.k, middle - ((middle - t.y) * k) / t.k).scale(k);
    });
  }

  /** Moves the view to `change(from)` in a short transition. While a key's move is under way,
   * `from` is where it is going, so that quick presses add up: each started from wherever the
   * one before had got to, and two quick `+` zoomed by little more than one. */
  moveView(change) {
    const to = change(this.keyView ?? this.view);
    const token = (this.keyToken = (this.keyToken ?? 0) + 1);
    this.keyView = to;
    const done = () => {
      if (this.keyToken === token) this.keyView = null;
    };
    // `cancel`: stopped before its first frame (a far move, a wheel, another game).
    this.svg.transition().duration(150).call(this.zoom.transform, to).on('end.key interrupt.key cancel.key', done);
  }

  /** Keeps the last move's destination in view: far moves re-centre the origin there,
   * long before pieces are drawn at the ±10^6 they are kept within. */
  follow(square) {
    const [x, y] = coordOf(square);
    const dx = x - this.origin[0];
    const dy = y - this.origin[1];
    const t = this.view;
    const limit = BigInt(1e4);
    if (dx > limit || dx < -limit || dy > limit || dy < -limit) return this.recentre([x, y]);
    const sx = Number(dx) * t.k + t.x;
    const sy = -Number(dy) * t.k + t.y;
    if (sx < VIEW_MIN || sx > VIEW_MIN + VIEW_SPAN - 1 || sy < VIEW_MIN || sy > VIEW_MIN + VIEW_SPAN - 1) {
      this.svg.call(this.zoom.transform, d3.zoomIdentity.translate(-Number(dx) * t.k, Number(dy) * t.k).scale(t.k));
    }
    return false;
  }

  /** Moves the origin to `origin` and the view onto it (`view`: the zoom's transform);
   * true (the pieces are drawn anew). */
  recentre(origin, view = d3.zoomIdentity) {
    this.origin = origin;
    this.colourSquares();
    this.drawBorder();
    this.svg.call(this.zoom.transform, view);
    this.pieces.selectAll('*').remove();
    return true;
  }

  // ---- showing a ply ----

  show(ply, animate) {
    const doc = this.doc;
    this.ply = ply;
    const token = ++this.token;
    this.svg.attr('data-ply', null).attr('aria-busy', 'true');
    const state = doc.states[ply];
    const moved = ply > 0 ? doc.tracks.moves[ply - 1].actions.find((a) => a[1].length > 1 && a[1] !== 'x') : null;
    if (doc.family === 'infinite' && moved && moved[1].includes(',')) {
      if (this.follow(moved[1])) animate = false;
    } else if (doc.family === 'infinite' && ply === 0 && this.origin !== this.home) {
      // Back at the start after a far move: the start's view again.
      animate = !this.recentre(this.home, this.homeView);
    }
    this.markLast(ply);
    const items = this.layout(state);
    const duration = animate ? this.options.stepMs : 0;
    const family = doc.family;
    const style = this.options.shogiStyle;
    const key = (d) => d.name;
    const place = (d) => `translate(${d.x},${d.y})${d.turn ? ' rotate(180 0.5 0.5)' : ''}${d.scale ? ` scale(${d.scale})` : ''}`;
    const pieces = this.pieces.selectAll('g.nv-piece').data(items, key);
    const entered = pieces.enter().append('g').attr('opacity', 0).attr('transform', place);
    const all = entered.merge(pieces);
    all.attr('class', (d) => pieceClass(family, d.piece))
      .attr('data-piece', (d) => d.name)
      .attr('data-square', (d) => d.piece.square)
      .attr('data-hand', (d) => d.piece.hand)
      .attr('data-kind', (d) => `${d.piece.side}${d.piece.promoted ? '+' : ''}${d.piece.kind}`)
      .attr('aria-label', (d) => `${d.name} ${d.piece.square ?? `in hand ${d.piece.hand}`}`);
    all.each(function draw(d) {
      const look = `${family}:${d.piece.side}${d.piece.kind}${d.piece.promoted ? '+' : ''}:${style}`;
      if (this.getAttribute('data-look') === look) return;
      this.setAttribute('data-look', look);
      this.innerHTML = drawing(family, d.piece, style);
    });
    const exiting = pieces.exit().attr('data-piece', null).attr('data-square', null).attr('data-hand', null).attr('data-kind', null);
    const transitions = [];
    if (duration === 0) {
      this.pieces.selectAll('g').interrupt();
      all.attr('transform', place).attr('opacity', 1);
      exiting.remove();
    } else {
      const t = d3.transition().duration(duration).ease(d3.easeCubicInOut);
      transitions.push(all.transition(t).attr('transform', place).attr('opacity', 1).end());
      transitions.push(exiting.transition(t).attr('opacity', 0).remove().end());
    }
    this.renderFacts(ply);
    this.moveList.selectAll('button').attr('aria-current', (d) => (d === ply ? 'step' : null));
    const current = this.moveList.select(`button[data-ply="${ply}"]`).node();
    if (current) scrollIntoList(this.moveList.node(), current);
    this.live.text(ply === 0 ? 'Start position' : `${moveNumber(doc, ply)} ${labelOf(doc, ply, style)}`);
    const done = () => {
      if (token !== this.token) return;
      this.pieces.selectAll('g.nv-piece').filter(function stale() { return !this.hasAttribute('data-piece'); }).remove();
      this.svg.attr('data-ply', ply).attr('aria-busy', null);
      this.svg.attr('aria-label', `${titleOf(doc, this.place[this.game])}, ${ply === 0 ? 'start position' : `after ${moveNumber(doc, ply)} ${labelOf(doc, ply, style)}`}`);
    };
    if (transitions.length === 0) done();
    else Promise.allSettled(transitions).then(done);
  }

  /** Marks where the ply's first piece came from and went. */
  markLast(ply) {
    this.marks.selectAll('.nv-last').remove();
    if (ply === 0 || this.doc.family === 'infinite') return;
    const [name, to] = this.doc.tracks.moves[ply - 1].actions[0] ?? [];
    const from = this.doc.states[ply - 1].get(name)?.square;
    for (const square of [from, to]) {
      if (!square || square.length !== 2) continue;
      const [x, y] = this.cell(square);
      this.marks.append('rect').attr('class', 'nv-last').attr('x', x).attr('y', y).attr('width', 1).attr('height', 1);
    }
  }

  renderMoves() {
    const doc = this.doc;
    const style = this.options.shogiStyle;
    const rows = [];
    const perRow = doc.family === 'chess' ? 2 : 1;
    const first = doc.family === 'chess' && doc.positions?.[0]?.fen?.split(' ')[1] === 'b' ? 1 : 0;
    for (let ply = 1; ply <= doc.tracks.moves.length;) {
      const row = [];
      const take = rows.length === 0 && first ? 1 : perRow;
      for (let i = 0; i < take && ply <= doc.tracks.moves.length; i++) row.push(ply++);
      rows.push(row);
    }
    this.moveList.selectAll('li').remove();
    const items = this.moveList.selectAll('li').data(rows).join('li');
    items.selectAll('button').data((d) => d).join('button').attr('type', 'button').attr('data-ply', (d) => d)
      .attr('aria-label', (d) => `${moveNumber(doc, d)} ${labelOf(doc, d, style)}`)
      .text((d) => labelOf(doc, d, style))
      .on('click', (event, d) => this.go(d));
    this.moveList.attr('start', doc.family === 'chess' ? moveNumber(doc, 1).replace(/\D/g, '') : null);
  }

  renderFacts(ply) {
    const doc = this.doc;
    const facts = doc.positions?.[ply] ?? {};
    const rows = [];
    rows.push(['Ply', ply === 0 ? `0 of ${this.plies} (start)` : `${ply} of ${this.plies}: ${moveNumber(doc, ply)} ${labelOf(doc, ply, this.options.shogiStyle)}`]);
    if (facts.fen) rows.push(['FEN', facts.fen]);
    if (facts.sfen) rows.push(['SFEN', facts.sfen]);
    if (facts.turn) rows.push(['To move', facts.turn === 'w' ? 'White' : 'Black']);
    const features = facts.features ?? facts;
    if (features.checkmate) rows.push(['Check', 'checkmate']);
    else if (features.check) rows.push(['Check', 'check']);
    if (facts.move_type) rows.push(['Move type', facts.move_type.replaceAll('_', ' ')]);
    if (facts.lran) rows.push(['LRAN', facts.lran]);
    if (features.halfmove_clock !== undefined) rows.push(['Halfmove clock', String(features.halfmove_clock)]);
    if (features.repetition > 1) rows.push(['Repetition', String(features.repetition)]);
    const flags = ['threefold_repetition_claimable', 'fifty_move_draw_claimable', 'seventy_five_move_draw', 'fivefold_repetition', 'insufficient_material', 'stalemate']
      .filter((f) => features[f]).map((f) => f.replaceAll('_', ' '));
    if (flags.length) rows.push(['Draw', flags.join(', ')]);
    if (facts.clock !== undefined) rows.push(['Clock', clockText(facts.clock * 1000)]);
    if (facts.clock_ms !== undefined) rows.push(['Clock', clockText(facts.clock_ms)]);
    if (facts.emt !== undefined) rows.push(['Time used', clockText(facts.emt * 1000)]);
    if (facts.spent_ms !== undefined) rows.push(['Time used', clockText(facts.spent_ms) + (facts.total_ms !== undefined ? ` (total ${clockText(facts.total_ms)})` : '')]);
    if (facts.eval !== undefined) rows.push(['Eval', (facts.eval > 0 ? '+' : '') + facts.eval]);
    if (facts.mate !== undefined) rows.push(['Eval', `mate in ${facts.mate}`]);
    if (facts.glyphs) rows.push(['Glyphs', facts.glyphs.join(' ')]);
    if (facts.annotation) rows.push(['Annotation', facts.annotation]);
    if (facts.comment) rows.push(['Comment', facts.comment]);
    this.facts.selectAll('*').remove();
    for (const [name, value] of rows) {
      this.facts.append('dt').text(name);
      this.facts.append('dd').text(value);
    }
  }
}

function moveNumber(doc, ply) {
  if (doc.family !== 'chess') return `${ply}.`;
  const fen = doc.positions?.[0]?.fen?.split(' ');
  const blackFirst = fen?.[1] === 'b' ? 1 : 0;
  const start = Number(fen?.[5] ?? 1);
  const index = ply - 1 + blackFirst;
  const number = start + Math.floor(index / 2);
  return index % 2 === 0 ? `${number}.` : `${number}…`;
}

/** A time in milliseconds as h:mm:ss, with the fraction of a second the record gave
 * (`0:02:59.9`): rounded to the second, 2:59.9 left showed as 0:03:00, and 0.4 s as 0:00:00. */
function clockText(ms) {
  // Whole milliseconds: a chess clock comes in seconds, and 179.9 × 1000 is not 179900.
  const all = Math.abs(Math.round(ms));
  const total = Math.floor(all / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const fraction = all % 1000 ? `.${String(all % 1000).padStart(3, '0').replace(/0+$/, '')}` : '';
  return `${ms < 0 ? '-' : ''}${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${fraction}`;
}

function scrollIntoList(list, item) {
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

function pieceClass(family, piece) {
  const extra = family === 'shogi' ? ' nv-koma' : '';
  const promoted = piece.promoted ? ' nv-promoted' : '';
  const kind = piece.kind === 'VO' ? ' nv-void' : '';
  return `nv-piece nv-${piece.side}${extra}${promoted}${kind}`;
}

/** The inside of a piece's `<g>`: one board unit wide. */
function drawing(family, piece, style) {
  const scale = 'transform="scale(0.01)"';
  if (family === 'shogi') {
    const letters = piece.promoted ? SHOGI_PROMOTED[style] : SHOGI_LETTERS[style];
    const text = letters[piece.kind] ?? piece.kind;
    const size = text.length > 1 ? 'style="font-size:28px"' : '';
    return `<g ${scale}><path class="nv-shape" d="${SHOGI_PIECE}"/><text class="nv-code" x="50" y="58" ${size}>${text}</text></g>`;
  }
  const shape = CHESS_SHAPES[piece.kind];
  if (shape) return `<g ${scale}><g class="nv-shape">${shape}</g></g>`;
  if (piece.kind === 'OB' || piece.kind === 'VO') {
    return `<g ${scale}><rect class="nv-shape" x="10" y="10" width="80" height="80" rx="8"/>${piece.kind === 'OB' ? '<text class="nv-code" x="50" y="52">OB</text>' : ''}</g>`;
  }
  // A fairy piece: a disc with its code (AM amazon, CH chancellor, AR archbishop, HA hawk …);
  // a royal one (RQ, RC) wears a crown.
  const royal = piece.kind === 'RQ' || piece.kind === 'RC' ? '<path class="nv-shape" d="M34,20 l6,-12 l10,10 l10,-10 l6,12 z"/>' : '';
  return `<g ${scale}><circle class="nv-shape" cx="50" cy="54" r="36"/>${royal}<text class="nv-code" x="50" y="56">${piece.kind}</text></g>`;
}

function installStyle(document) {
  if (document.getElementById('notate-viewer-style')) return;
  const style = document.createElement('style');
  style.id = 'notate-viewer-style';
  style.textContent = STYLE;
  document.head.append(style);
}
