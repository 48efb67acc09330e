// The page `notate serve` gives at `/`: a jsonchess client around the board viewer in live
// mode. It signs in (or plays as the guest the server made of it), seeks and accepts games
// in the lobby (notate's `/lobby` channel of generic updates), plays them — moves by dragging
// or clicking, premoves, clocks that tick from the server's time, draw offers and claims,
// resignation, rematch, chat — and watches other players' games.
//
// It knows no rules: the server checks every move, and the packed moves it broadcasts carry
// what the board needs (from, to, the castling rook, the pawn taken en passant, the promotion
// piece), which this file turns into the viewer's piece-track actions. It makes no request but
// its WebSocket, so it also runs inlined into one page under a strict Content-Security-Policy.
//
// The page is testable like the viewer: `data-*` attributes name what a test reads (see
// `js/test/live.test.mjs`), and `element.notateLive` is the client.

import { mount } from './board.js';

const FILES = 'abcdefgh';
const TOKEN_KEY = 'notate-serve-token';
/** Plies after which the clocks run (the protocol's first timed ply). */
const FIRST_TIMED_PLY = 2;
const START = {
  wqr: 'a1', wqn: 'b1', wqb: 'c1', wq: 'd1', wk: 'e1', wkb: 'f1', wkn: 'g1', wkr: 'h1',
  wqrp: 'a2', wqnp: 'b2', wqbp: 'c2', wqp: 'd2', wkp: 'e2', wkbp: 'f2', wknp: 'g2', wkrp: 'h2',
  bqrp: 'a7', bqnp: 'b7', bqbp: 'c7', bqp: 'd7', bkp: 'e7', bkbp: 'f7', bknp: 'g7', bkrp: 'h7',
  bqr: 'a8', bqn: 'b8', bqb: 'c8', bq: 'd8', bk: 'e8', bkb: 'f8', bkn: 'g8', bkr: 'h8',
};

/** The protocol's square number (0 = a1 … 63 = h8) of a square name. */
export function squareNumber(square) {
  return FILES.indexOf(square[0]) + 8 * (Number(square[1]) - 1);
}

/** The fields of a packed move (`3,4,exd6,1407781768400,e5,d6,N,N,ep,d5`). */
export function unpack(packed) {
  const f = packed.split(',');
  return { index: Number(f[1]), san: f[2], time: Number(f[3]), from: f[4], to: f[5], group: f[8], a: f[9], b: f[10] };
}

/**
 * A game from the standard start as its packed moves arrive: the pieces by square, and each
 * move as piece-track actions (identities as notate's tracks name them).
 */
export class Tracker {
  // Its own name, which the package's minified build would shorten.
  static { Object.defineProperty(this, 'name', { value: 'Tracker' }); }

  constructor() {
    this.board = new Map(Object.entries(START).map(([name, square]) => [square, name]));
    this.made = {};
  }

  /** The actions of a packed move, applied to the board. */
  play(packed) {
    const m = unpack(packed);
    const board = this.board;
    const mover = board.get(m.from);
    if (!mover) throw new Error(`no piece on ${m.from} for ${m.san}`);
    const actions = [[mover, m.to]];
    const taken = m.group === 'ep' ? m.a : m.to;
    if (board.has(taken)) {
      actions.push([board.get(taken), 'x']);
      board.delete(taken);
    }
    board.delete(m.from);
    board.set(m.to, mover);
    if (m.group === 'c') {
      const rook = board.get(m.a);
      actions.push([rook, m.b]);
      board.delete(m.a);
      board.set(m.b, rook);
    } else if (m.group === 'p') {
      const kind = mover[0] + m.a;
      this.made[kind] = (this.made[kind] ?? 0) + 1;
      const name = this.made[kind] === 1 ? kind : `${kind}${this.made[kind]}`;
      actions.push([mover, 'p'], [name, m.to]);
      board.set(m.to, name);
    }
    return { san: m.san, actions, time: m.time };
  }
}

/** `m:ss`, or `s.t` under ten seconds. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const seconds = Math.ceil(left / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The clocks (ms, white then black) of a game at server time `now`, as the server keeps them. */
export function clocksOf(game, times, now) {
  const { initialTime, timeIncrement } = game.options;
  const clocks = [initialTime + (game.addedTime?.w ?? 0), initialTime + (game.addedTime?.b ?? 0)];
  for (let i = FIRST_TIMED_PLY; i < times.length; i++) {
    clocks[i % 2] += timeIncrement - (times[i] - times[i - 1]);
  }
  if (times.length >= FIRST_TIMED_PLY) {
    const end = game.isInProgress ? now : game.endAt ?? now;
    clocks[times.length % 2] -= Math.max(0, end - times[times.length - 1]);
  }
  return clocks;
}

/** A generic update (`add`, `remove`, `update`) applied to the lobby document, or an Error. */
export function applyUpdate(doc, { op, key, value }) {
  // The key path: names joined by `.`, a number indexes an array, `list:ID` picks by id.
  let parent = null;
  let last = null;
  let target = doc;
  for (const part of key.split('.')) {
    const [name, id] = part.split(':');
    parent = target;
    last = /^\d+$/.test(name) && Array.isArray(target) ? Number(name) : name;
    target = target?.[last];
    if (id !== undefined) {
      if (!Array.isArray(target)) throw new Error(`${key}: ${name} is not a list`);
      parent = target;
      last = target.findIndex((item) => String(item?.id) === id);
      if (last < 0) throw new Error(`${key}: no ${id} in ${name}`);
      target = target[last];
    }
    if (target === undefined) throw new Error(`${key}: no ${part}`);
  }
  if (op === 'add' && Array.isArray(target)) target.push(value);
  else if (op === 'remove' && Array.isArray(target)) {
    const at = target.findIndex((item) => item?.id === value);
    if (at < 0) throw new Error(`${key}: no ${value} to remove`);
    target.splice(at, 1);
  } else if (op === 'update') parent[last] = value;
  else throw new Error(`${key}: cannot ${op}`);
}

const STYLE = `
.notate-live{font:14px/1.4 system-ui,'DejaVu Sans',sans-serif;color:#1d1d1d;max-width:1100px;margin:0 auto;padding:8px}
.notate-live header{display:flex;gap:12px;align-items:center;flex-wrap:wrap;border-bottom:1px solid #ddd;padding-bottom:8px;margin-bottom:8px}
.notate-live h1{font-size:18px;margin:0 12px 0 0}
.notate-live form{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin:0}
.notate-live input{font:inherit;padding:3px 6px;border:1px solid #999;border-radius:4px}
.notate-live input[type=number]{width:4.5em}
.notate-live button{font:inherit;padding:4px 10px;border:1px solid #999;border-radius:4px;background:#fff;cursor:pointer}
.notate-live button:focus-visible,.notate-live input:focus-visible{outline:3px solid #2f6fbf;outline-offset:1px}
.notate-live [hidden]{display:none !important}
.notate-live ul:empty::after{content:'none';color:#777}
.notate-live .nl-lobby{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px}
.notate-live section h2{font-size:15px;margin:8px 0 4px}
.notate-live ul{list-style:none;margin:0;padding:0}.notate-live li{margin:3px 0;display:flex;gap:8px;align-items:center}
.notate-live .nl-player{display:flex;justify-content:space-between;align-items:center;max-width:560px;padding:4px 8px;background:#f3f3f3;border-radius:4px;margin:4px 0}
.notate-live .nl-clock{font:600 20px/1 'DejaVu Sans Mono',monospace;padding:4px 8px;border-radius:4px;background:#fff;border:1px solid #ccc;min-width:4.5em;text-align:right}
.notate-live .nl-clock[data-running]{background:#2f6fbf;color:#fff}
.notate-live .nl-clock[data-low]{background:#c0241b;color:#fff}
.notate-live .nl-status{min-height:1.4em;font-weight:600;margin:6px 0}
.notate-live .nl-chat{max-height:120px;overflow:auto;font-size:13px;margin:6px 0}
.notate-live .nl-promotion{display:flex;gap:6px;align-items:center}
`;

function element(doc, tag, attrs = {}, text = null) {
  const el = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== null) el.textContent = text;
  return el;
}

function timing(options) {
  return `${options.initialTime / 60000}+${options.timeIncrement / 1000}`;
}

function named(player) {
  return `${player.name} (${Math.round(player.rating)})`;
}

/**
 * The live client in `container`, connected to the server the page came from (or
 * `options.url`, a `ws://…/ws` address).
 */
export function live(container, options) {
  return new Live(container, options);
}

export class Live {
  // Its own name, which the package's minified build would shorten.
  static { Object.defineProperty(this, 'name', { value: 'Live' }); }

  constructor(container, options) {
    // `null` is no options. (This module is served alone with the board, without the
    // WebAssembly package's core: no import from it.)
    options = options ?? {};
    this.container = container;
    this.doc = container.ownerDocument;
    const location = this.doc.defaultView.location;
    this.url = options.url ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    this.storage = options.storage ?? this.doc.defaultView.localStorage;
    this.me = null;
    this.user = null;
    this.lobby = { seeks: [], users: [], games: [] };
    this.game = null;
    this.offset = 0;
    this.build();
    container.notateLive = this;
    this.connect();
    this.clockTimer = setInterval(() => this.renderClocks(), 100);
  }

  // ---- the connection ----

  connect() {
    const token = this.storage?.getItem(TOKEN_KEY);
    const ws = new WebSocket(token ? `${this.url}?token=${encodeURIComponent(token)}` : this.url);
    this.ws = ws;
    this.root.dataset.connection = 'connecting';
    ws.addEventListener('open', () => {
      this.root.dataset.connection = 'open';
      this.timeAsked = Date.now();
      this.send('/request/time', 'sync');
      this.send('/feed/activate', '/lobby');
      this.send('/request/games');
      // A spectator watches again (a player's games come back with `/games`).
      if (this.game && !this.game.side) this.send('/request/game', this.game.id);
    });
    ws.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message.topic, message.data);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.root.dataset.connection = 'closed';
      this.say('Connection lost: reconnecting…');
      this.retry = setTimeout(() => this.connect(), 1000);
    });
  }

  send(topic, data) {
    if (this.ws?.readyState !== 1) return false;
    this.ws.send(JSON.stringify(data === undefined ? { topic } : { topic, data }));
    return true;
  }

  /** Server time now (ms since the epoch), from the offset measured on connecting. */
  now() {
    return Date.now() + this.offset;
  }

  receive(topic, data) {
    const parts = topic.split('/');
    if (parts[1] === 'game' && parts.length > 3) return this.gameMessage(parts[2], parts.slice(3).join('/'), data);
    if (parts[1] === 'time') {
      const back = Date.now();
      this.offset = data - (this.timeAsked + back) / 2;
      return;
    }
    if (parts[1] === 'player_connection_status') return this.connectionStatus(parts[2], data);
    switch (topic) {
      case '/session':
        this.me = data.playerId;
        this.storage?.setItem(TOKEN_KEY, data.token);
        return;
      case '/user':
      case '/user/login/success':
      case '/user/register/success':
        if (data) this.setUser(data);
        if (topic !== '/user') this.say(topic.endsWith('login/success') ? `Signed in as ${data.username}` : `Registered as ${data?.username}`);
        return;
      case '/user/login/failure':
      case '/user/register/failure':
        return this.say(data);
      case '/user/logout':
        this.me = data;
        this.send('/request/user');
        return this.say('Signed out: you play as a guest');
      case '/lobby':
        this.lobby = data;
        return this.renderLobby();
      case '/lobby/updates':
        try {
          for (const update of data) applyUpdate(this.lobby, update);
        } catch {
          // Out of step: ask for the whole lobby again.
          this.send('/feed/deactivate', '/lobby');
          this.send('/feed/activate', '/lobby');
        }
        return this.renderLobby();
      case '/seek/waiting':
        this.seeking = data;
        this.renderSeek();
        return this.say(`Waiting for an opponent (${timing(data.options)})…`);
      case '/seek/expired':
        this.seeking = null;
        this.renderSeek();
        return this.say('Your seek has ended');
      case '/seek/error':
        return this.say(data);
      case '/seek/matched':
        this.seeking = null;
        this.renderSeek();
        return this.open(data);
      case '/game':
        return this.open(data);
      case '/games':
        if (data.length > 0 && !this.game) this.open(data[0]);
        else if (this.game) for (const g of data) if (g.id === this.game.id) this.open(g);
        return;
      case '/game/not_found':
        return this.say(`No game ${data}`);
      case '/error':
        if (this.game && data.topic.startsWith(`/game/${this.game.id}/`)) this.viewer.go(this.viewer.plies);
        return this.say(`Refused: ${data.reason}`);
      default:
    }
  }

  // ---- the page ----

  build() {
    const doc = this.doc;
    if (!doc.getElementById('notate-live-style')) {
      const style = element(doc, 'style', { id: 'notate-live-style' }, STYLE);
      doc.head.append(style);
    }
    const root = element(doc, 'div', { class: 'notate-live' });
    this.root = root;
    root.innerHTML = `
<header>
  <h1>notate serve</h1>
  <span data-me aria-live="polite"></span>
  <form data-form="account" aria-label="Account">
    <input name="username" autocomplete="username" placeholder="name" aria-label="Name" required maxlength="32">
    <input name="password" type="password" autocomplete="current-password" placeholder="password" aria-label="Password" required>
    <button name="login" type="submit">Sign in</button>
    <button name="register" type="button">Register</button>
  </form>
  <button data-action="logout" type="button" hidden>Sign out</button>
</header>
<p class="nl-status" role="status" data-status></p>
<div class="nl-lobby" data-lobby>
  <section aria-labelledby="nl-seek-title">
    <h2 id="nl-seek-title">New game</h2>
    <form data-form="seek">
      <label>Minutes <input name="minutes" type="number" min="0.5" step="0.5" value="5"></label>
      <label>Increment (s) <input name="increment" type="number" min="0" step="1" value="3"></label>
      <label>Rating ± <input name="range" type="number" min="0" step="50" value="500"></label>
      <button type="submit">Seek</button>
      <button data-action="cancel-seek" type="button" hidden>Cancel seek</button>
    </form>
    <h2>Open seeks</h2>
    <ul data-list="seeks" aria-label="Open seeks"></ul>
  </section>
  <section>
    <h2>Games being played</h2>
    <ul data-list="games" aria-label="Games being played"></ul>
    <h2>Online: <span data-count="users">0</span></h2>
    <ul data-list="users" aria-label="Players online"></ul>
  </section>
</div>
<section data-game hidden aria-label="Game">
  <div class="nl-player" data-seat="top"><span data-name></span><span class="nl-clock" data-clock></span></div>
  <div data-board></div>
  <div class="nl-player" data-seat="bottom"><span data-name></span><span class="nl-clock" data-clock></span></div>
  <div class="nl-promotion" data-promotion hidden role="group" aria-label="Promote to">Promote to
    <button type="button" data-piece="Q">Queen</button><button type="button" data-piece="R">Rook</button>
    <button type="button" data-piece="B">Bishop</button><button type="button" data-piece="N">Knight</button>
    <button type="button" data-piece="">Cancel</button></div>
  <p class="nl-status" data-game-status aria-live="polite"></p>
  <div class="nl-actions" role="toolbar" aria-label="Game actions">
    <button type="button" data-action="offer-draw">Offer draw</button>
    <button type="button" data-action="accept-draw" hidden>Accept draw</button>
    <button type="button" data-action="claim-draw">Claim draw</button>
    <button type="button" data-action="resign">Resign</button>
    <button type="button" data-action="cancel-premove" hidden>Cancel premove</button>
    <button type="button" data-action="rematch" hidden>Rematch</button>
    <button type="button" data-action="decline-rematch" hidden>Decline rematch</button>
    <button type="button" data-action="lobby">Lobby</button>
  </div>
  <div class="nl-chat" data-chat aria-label="Game chat" aria-live="polite"></div>
  <form data-form="chat"><input name="body" maxlength="500" aria-label="Message" placeholder="Say something"><button type="submit">Send</button></form>
</section>`;
    this.container.append(root);
    const q = (selector) => root.querySelector(selector);
    this.el = {
      me: q('[data-me]'),
      status: q('[data-status]'),
      account: q('[data-form=account]'),
      logout: q('[data-action=logout]'),
      seekForm: q('[data-form=seek]'),
      cancelSeek: q('[data-action=cancel-seek]'),
      seeks: q('[data-list=seeks]'),
      games: q('[data-list=games]'),
      users: q('[data-list=users]'),
      userCount: q('[data-count=users]'),
      lobby: q('[data-lobby]'),
      game: q('[data-game]'),
      board: q('[data-board]'),
      top: q('[data-seat=top]'),
      bottom: q('[data-seat=bottom]'),
      promotion: q('[data-promotion]'),
      gameStatus: q('[data-game-status]'),
      chat: q('[data-chat]'),
      chatForm: q('[data-form=chat]'),
    };
    const credentials = () => ({ username: this.el.account.elements.username.value.trim(), password: this.el.account.elements.password.value });
    this.el.account.addEventListener('submit', (event) => {
      event.preventDefault();
      this.send('/user/login', credentials());
    });
    this.el.account.elements.register.addEventListener('click', () => {
      if (this.el.account.reportValidity()) this.send('/user/register', credentials());
    });
    this.el.logout.addEventListener('click', () => this.send('/user/logout'));
    this.el.seekForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const f = this.el.seekForm.elements;
      const range = Math.round(Number(f.range.value));
      this.send('/seek', {
        initialTime: Math.round(Number(f.minutes.value) * 60000),
        timeIncrement: Math.round(Number(f.increment.value) * 1000),
        acceptRatingMin: `-${range}`,
        acceptRatingMax: `+${range}`,
      });
    });
    this.el.cancelSeek.addEventListener('click', () => this.send('/seek/cancel'));
    root.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-action], button[data-seek], button[data-watch]');
      if (!button) return;
      if (button.dataset.seek) return this.send('/seek/accept', button.dataset.seek);
      if (button.dataset.watch) return this.send('/request/game', button.dataset.watch);
      this.action(button.dataset.action);
    });
    this.el.promotion.addEventListener('click', (event) => {
      const piece = event.target.closest('button')?.dataset.piece;
      if (piece === undefined) return;
      this.el.promotion.hidden = true;
      const pending = this.promotionPending;
      this.promotionPending = null;
      if (piece && pending) this.move(pending.from, pending.to, piece);
      else this.viewer.go(this.viewer.plies);
    });
    this.el.chatForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = this.el.chatForm.elements.body;
      if (this.game && body.value.trim()) this.send(`/game/${this.game.id}/chat`, body.value.trim());
      body.value = '';
    });
  }

  say(text) {
    this.el.status.textContent = text;
  }

  setUser(user) {
    this.user = user;
    this.el.me.textContent = `${user.isLoggedIn ? user.username : 'Guest'} · ${Math.round(user.rating)}`;
    this.el.me.dataset.player = user.playerId;
    this.el.account.hidden = user.isLoggedIn;
    this.el.logout.hidden = !user.isLoggedIn;
  }

  renderSeek() {
    this.el.cancelSeek.hidden = !this.seeking;
  }

  renderLobby() {
    const doc = this.doc;
    const list = (el, items, row) => el.replaceChildren(...items.map((item) => {
      const li = element(doc, 'li', { 'data-id': item.id });
      row(li, item);
      return li;
    }));
    list(this.el.seeks, this.lobby.seeks, (li, seek) => {
      li.append(element(doc, 'span', {}, `${named(seek.owner)} · ${timing(seek.options)}`));
      if (seek.owner.id !== this.me) li.append(element(doc, 'button', { type: 'button', 'data-seek': seek.id, 'aria-label': `Play ${seek.owner.name}, ${timing(seek.options)}` }, 'Play'));
    });
    list(this.el.games, this.lobby.games, (li, game) => {
      li.append(element(doc, 'span', {}, `${named(game.white)} – ${named(game.black)} · ${timing(game.options)} · ply ${game.plies}`));
      li.append(element(doc, 'button', { type: 'button', 'data-watch': game.id, 'aria-label': `Watch ${game.white.name} – ${game.black.name}` }, 'Watch'));
    });
    list(this.el.users, this.lobby.users, (li, user) => li.append(element(doc, 'span', {}, `${named(user)}${user.id === this.me ? ' · you' : ''}`)));
    this.el.userCount.textContent = String(this.lobby.users.length);
    if (this.seeking && !this.lobby.seeks.some((s) => s.id === this.seeking.id)) {
      this.seeking = null;
      this.renderSeek();
    }
  }

  // ---- a game ----

  /** Shows a game (game JSON): the player's own, or one to watch. The same game again catches up. */
  open(json) {
    if (this.game?.id === json.id) return this.catchUp(json);
    const side = json.white.id === this.me ? 'w' : json.black.id === this.me ? 'b' : null;
    const tracker = new Tracker();
    const game = {
      id: json.id,
      json,
      side,
      tracker,
      times: [],
      queued: new Map(),
      result: json.result,
      premove: null,
    };
    this.game = game;
    const doc = {
      family: 'chess',
      tracks: { game_tags: { White: json.white.name, Black: json.black.name, Event: `notate serve ${timing(json.options)}` }, start: { ...START }, moves: [] },
      positions: null,
      border: null,
    };
    // The moves so far are shown at once; the ones to come are animated.
    for (const packed of json.history) {
      const move = tracker.play(packed);
      game.times.push(move.time);
      doc.tracks.moves.push({ ply: game.times.length, san: move.san, actions: move.actions });
    }
    this.el.board.replaceChildren();
    this.viewer = mount(this.el.board, [doc], {
      stepMs: 180,
      ply: game.times.length,
      input: side ? { side, onMove: (from, to) => this.input(from, to) } : undefined,
    });
    if (side === 'b') this.viewer.flip();
    this.root.dataset.game = json.id;
    this.root.dataset.side = side ?? 'spectator';
    this.el.lobby.hidden = true;
    this.el.game.hidden = false;
    this.el.chat.replaceChildren();
    if (json.isDrawOffered) this.drawOffered = true;
    this.rematchBy = json.rematchOfferedBy ?? null;
    this.renderGame();
    this.say(side ? `You play ${side === 'w' ? 'white' : 'black'} against ${side === 'w' ? json.black.name : json.white.name}` : `Watching ${json.white.name} – ${json.black.name}`);
    this.viewer.root.node().focus();
  }

  catchUp(json) {
    const game = this.game;
    game.json = { ...game.json, ...json, history: undefined };
    for (const packed of json.history.slice(game.times.length)) this.apply(packed);
    game.result = json.result;
    this.renderGame();
  }

  /** A packed move by the protocol's ordering rule: the next one is played (then any queued
   * after it), a later one waits, an earlier one is an echo. */
  apply(packed) {
    const game = this.game;
    const index = Number(packed.split(',')[1]);
    if (index < game.times.length) return;
    if (index > game.times.length) {
      game.queued.set(index, packed);
      this.send(`/game/${game.id}/request/moves`, game.times.length);
      return;
    }
    const move = game.tracker.play(packed);
    game.times.push(move.time);
    this.viewer.append({ san: move.san, actions: move.actions });
    this.drawOffered = false;
    const next = game.queued.get(game.times.length);
    if (next) {
      game.queued.delete(game.times.length);
      this.apply(next);
    }
  }

  gameMessage(id, what, data) {
    const game = this.game;
    if (what === 'rematch' && game?.id === id) {
      this.say('Rematch!');
      this.game = null;
      return this.open(data);
    }
    if (!game || game.id !== id) return;
    switch (what) {
      case 'move':
        this.apply(data);
        // A move of our own side used up the premove (a premove that could not be played is
        // dropped with a null premove message).
        if (game.premove && game.times.length % 2 === (game.side === 'w' ? 1 : 0)) {
          game.premove = null;
          this.viewer.highlight('premove');
        }
        break;
      case 'premove':
        game.premove = data;
        this.viewer.highlight('premove', data ? [data.from, data.to].map((n) => `${FILES[n % 8]}${Math.floor(n / 8) + 1}`) : []);
        break;
      case 'game_over':
        game.result = data;
        game.json.isInProgress = false;
        game.json.endAt = this.now();
        break;
      case 'aborted':
        game.aborted = true;
        game.json.isInProgress = false;
        game.json.endAt = this.now();
        break;
      case 'draw_offer':
        this.drawOffered = data !== game.side;
        this.drawOfferedBy = data;
        break;
      case 'rematch/offered':
        this.rematchBy = data;
        break;
      case 'rematch/declined':
      case 'rematch/canceled':
      case 'rematch/expired':
        this.rematchBy = null;
        this.el.gameStatus.dataset.rematch = what.split('/')[1];
        break;
      case 'chat':
        this.el.chat.append(element(this.doc, 'p', {}, `${data.from}: ${data.body}`));
        this.el.chat.scrollTop = this.el.chat.scrollHeight;
        break;
      default:
    }
    this.renderGame();
  }

  connectionStatus(player, connected) {
    const game = this.game;
    if (!game) return;
    for (const seat of ['white', 'black']) if (game.json[seat].id === player) game.json[seat].isConnected = connected;
    this.renderGame();
  }

  /** The user dropped or clicked a piece from `from` to `to`. */
  input(from, to) {
    const game = this.game;
    if (!game || !game.json.isInProgress || !game.side) return this.viewer.go(this.viewer.plies);
    // Pawns' track names end in `p` (`wkp`); no other piece's does.
    const pawn = game.tracker.board.get(from)?.endsWith('p');
    if (pawn && (to[1] === '8' || to[1] === '1')) {
      this.promotionPending = { from, to };
      this.el.promotion.hidden = false;
      this.el.promotion.querySelector('button').focus();
      return;
    }
    this.move(from, to);
  }

  move(from, to, promoteTo) {
    const game = this.game;
    const data = { from: squareNumber(from), to: squareNumber(to) };
    if (promoteTo) data.promoteTo = promoteTo;
    const myTurn = (game.times.length % 2 === 0) === (game.side === 'w');
    if (myTurn) {
      this.send(`/game/${game.id}/move`, data);
    } else {
      // Not our turn: a premove, kept by the server until the opponent has moved.
      this.send(`/game/${game.id}/premove`, data);
      this.viewer.go(this.viewer.plies);
    }
  }

  action(name) {
    const game = this.game;
    const id = game?.id;
    switch (name) {
      case 'logout': return this.send('/user/logout');
      case 'offer-draw': return this.send(`/game/${id}/offer_draw`);
      case 'accept-draw': return this.send(`/game/${id}/accept_draw`);
      case 'claim-draw': return this.send(`/game/${id}/claim_draw`);
      case 'resign': return this.send(`/game/${id}/resign`);
      case 'cancel-premove': return this.send(`/game/${id}/premove/cancel`);
      case 'rematch': return this.send(`/game/${id}/rematch`);
      case 'decline-rematch': return this.send(`/game/${id}/rematch/decline`);
      case 'lobby':
        this.game = null;
        this.el.game.hidden = true;
        this.el.lobby.hidden = false;
        delete this.root.dataset.game;
        delete this.root.dataset.side;
        return this.say('');
      default:
    }
  }

  renderGame() {
    const game = this.game;
    if (!game) return;
    const { json, side } = game;
    const over = !json.isInProgress;
    const bottom = side === 'b' ? 'black' : 'white';
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [seat, colour] of [[this.el.top, top], [this.el.bottom, bottom]]) {
      const p = json[colour];
      seat.dataset.colour = colour[0];
      const you = p.id === this.me ? ' · you' : '';
      seat.querySelector('[data-name]').textContent = `${colour === 'white' ? '○' : '●'} ${named(p)}${you}${p.isConnected === false ? ' (disconnected)' : ''}`;
    }
    const toMove = game.times.length % 2 === 0 ? 'w' : 'b';
    const mine = side && !over && toMove === side;
    let text;
    if (game.aborted) text = 'Game aborted: the first moves were not made in time';
    else if (game.result) text = `${game.result.summary}: ${game.result.description}`;
    else if (side) text = mine ? 'Your move' : 'Waiting for your opponent';
    else text = `${toMove === 'w' ? 'White' : 'Black'} to move`;
    if (!over && this.drawOffered) text += ' · a draw is offered to you';
    if (over && this.rematchBy) text += this.rematchBy === side ? ' · rematch offered' : ' · your opponent offers a rematch';
    this.el.gameStatus.textContent = text;
    this.el.gameStatus.dataset.state = game.aborted ? 'aborted' : game.result ? 'over' : 'playing';
    const show = (action, visible) => {
      this.root.querySelector(`[data-action=${action}]`).hidden = !visible;
    };
    show('offer-draw', side && !over);
    show('accept-draw', side && !over && this.drawOffered);
    show('claim-draw', side && !over);
    show('resign', side && !over);
    show('cancel-premove', side && !over && game.premove);
    show('rematch', side && over && !game.aborted && this.rematchBy !== side);
    show('decline-rematch', side && over && this.rematchBy && this.rematchBy !== side);
    const rematch = this.root.querySelector('[data-action=rematch]');
    rematch.textContent = this.rematchBy && this.rematchBy !== side ? 'Accept rematch' : 'Rematch';
    this.renderClocks();
  }

  renderClocks() {
    const game = this.game;
    if (!game) return;
    const clocks = clocksOf(game.json, game.times, this.now());
    const running = game.json.isInProgress && game.times.length >= FIRST_TIMED_PLY ? game.times.length % 2 : -1;
    for (const seat of [this.el.top, this.el.bottom]) {
      const index = seat.dataset.colour === 'w' ? 0 : 1;
      const clock = seat.querySelector('[data-clock]');
      const text = clockText(clocks[index]);
      if (clock.textContent !== text) clock.textContent = text;
      clock.dataset.ms = String(Math.max(0, Math.round(clocks[index])));
      clock.toggleAttribute('data-running', running === index);
      clock.toggleAttribute('data-low', clocks[index] < 10000);
      clock.setAttribute('aria-label', `${index === 0 ? 'White' : 'Black'}'s clock ${text}`);
    }
  }
}
