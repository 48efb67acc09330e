// The WebAssembly instance and what every module shares: loading, NotateError, exact JSON.
//
// The glue in ./wasm/ is made by `wasm-bindgen --target web` (npm run build); it loads the
// module from a URL, a Response or bytes. Node has no fetch for file: URLs, so there the
// bytes are read from the package's folder.

import initWasm, { initSync as initWasmSync, __notateRestart } from './wasm/notate.js';
import * as wasm from './wasm/notate.js';

export { wasm };

let loaded = null;
/** The instance's exports, once loaded (for its memory). */
let exports = null;

/** Whether the WebAssembly module is ready. */
export function isLoaded() {
  return loaded !== null && loaded !== 'loading';
}

/**
 * Loads the WebAssembly module: from `source` (a URL, a Response, bytes or a compiled
 * WebAssembly.Module) or, by default, from `notate_bg.wasm` beside this file.
 */
export async function init(source) {
  if (source !== undefined && !(source instanceof URL || typeof source === 'string' || ArrayBuffer.isView(source)
    || source instanceof ArrayBuffer || source instanceof WebAssembly.Module
    || (typeof Response === 'function' && source instanceof Response))) {
    throw usage(`init: a URL, a Response, bytes or a WebAssembly.Module, not ${kindOf(source)}`);
  }
  if (isLoaded()) return;
  try {
    await load(source);
  } catch (e) {
    throw loadError(e);
  }
}

/** Why loading failed, as a NotateError (`io`: the module could not be fetched or compiled). */
function loadError(e) {
  if (e instanceof NotateError) return e;
  const error = new NotateError(`notate could not be loaded: ${e instanceof Error ? e.message : String(e)}`, { kind: 'io' });
  error.cause = e;
  return error;
}

async function load(source) {
  if (source === undefined) {
    const url = new URL('./wasm/notate_bg.wasm', import.meta.url);
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      source = await readFile(url);
    } else {
      source = url;
    }
  }
  if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer || source instanceof WebAssembly.Module) {
    exports = initWasmSync({ module: source });
  } else {
    exports = await initWasm({ module_or_path: source });
  }
  loaded = true;
}

/** Loads the WebAssembly module from bytes (or a compiled module), at once. */
export function initSync(bytes) {
  if (!(ArrayBuffer.isView(bytes) || bytes instanceof ArrayBuffer || bytes instanceof WebAssembly.Module)) {
    throw usage(`initSync: bytes or a WebAssembly.Module, not ${kindOf(bytes)}`);
  }
  if (isLoaded()) return;
  try {
    exports = initWasmSync({ module: bytes });
  } catch (e) {
    throw loadError(e);
  }
  loaded = true;
}

/** The bytes of WebAssembly memory in use (it grows, never shrinks: its high-water mark). */
export function wasmMemoryBytes() {
  return exports ? exports.memory.buffer.byteLength : 0;
}

/**
 * What every notate function throws on bad input: one class, with the place of the problem
 * as the command line prints it (line and column 1-based).
 */
export class NotateError extends Error {
  // Its own name, which the package's minified build would shorten.
  static { Object.defineProperty(this, 'name', { value: 'NotateError' }); }

  constructor(message, fields = {}) {
    super(message);
    this.name = 'NotateError';
    /** `syntax`, `illegal`, `encoding`, `too-large`, `unwritable`, `io` or `usage`. */
    this.kind = fields.kind ?? 'syntax';
    this.line = fields.line ?? null;
    this.column = fields.column ?? null;
    this.offset = fields.offset ?? null;
    this.game = fields.game ?? null;
    this.ply = fields.ply ?? null;
    this.token = fields.token ?? null;
    this.path = fields.path ?? null;
  }

  /** An error as the WebAssembly layer gives it (its JSON). */
  static fromJson(json) {
    return new NotateError(json.display || json.message, json);
  }
}

/** The NotateError for anything a WebAssembly call threw. */
export function toNotateError(thrown) {
  if (thrown instanceof NotateError) return thrown;
  if (typeof thrown === 'string' && thrown.startsWith('{')) {
    try {
      return NotateError.fromJson(JSON.parse(thrown));
    } catch {
      // Not the layer's JSON after all: said as it is below.
    }
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new NotateError(`internal error: ${message}`, { kind: 'internal' });
}

/**
 * The WebAssembly objects made and not yet collected (Trackers, stream feeds), as WeakRefs:
 * a restart must disown them.
 */
const made = new Set();
const collected = new FinalizationRegistry((ref) => made.delete(ref));
/** How many times the instance was started again (see `restart`). */
let restarts = 0;

/**
 * Keeps a WebAssembly object known until it is collected, so that a restart can disown it;
 * returns it, with the instance it belongs to (compare with `instanceNumber()`).
 */
export function track(object) {
  const ref = new WeakRef(object);
  made.add(ref);
  collected.register(object, ref);
  return { object, instance: restarts };
}

/** Which instance runs now: objects of an earlier one are gone. */
export function instanceNumber() {
  return restarts;
}

/**
 * After a trap (an allocation that failed aborts the layer, which leaves the instance's
 * memory full and its state broken): a fresh instance of the same module, and the objects
 * of the old one disowned, their pointers zeroed and their finalizers unregistered (a
 * finalizer would otherwise free their memory in the new instance). The error says so.
 */
function restart(thrown) {
  const memory = wasmMemoryBytes();
  for (const ref of made) ref.deref()?.__destroy_into_raw();
  made.clear();
  restarts += 1;
  try {
    exports = __notateRestart();
  } catch (e) {
    loaded = null;
    exports = null;
    return new NotateError(`internal error: notate stopped (${thrown.message}) and could not start again (${e.message})`, { kind: 'internal' });
  }
  // A trap after memory grew past a gigabyte is memory running out; any other is a bug.
  const outOfMemory = memory >= 2 ** 30;
  const what = outOfMemory ? `notate ran out of memory (${Math.round(memory / 2 ** 20)} MiB)` : `internal error: ${thrown.message}`;
  return new NotateError(
    `${what}: it was started again, and what was made before (Trackers, game streams) must be made again`,
    { kind: outOfMemory ? 'too-large' : 'internal' },
  );
}

/** Calls a WebAssembly export; whatever it throws becomes a NotateError. */
export function call(fn, ...args) {
  if (!isLoaded()) {
    throw new NotateError('notate is not loaded: await init() first (or import "notate", which loads it)', { kind: 'usage' });
  }
  try {
    return fn(...args);
  } catch (thrown) {
    if (thrown instanceof WebAssembly.RuntimeError) throw restart(thrown);
    throw toNotateError(thrown);
  }
}

/** A usage error (a bad argument), thrown before anything is read. */
export function usage(message) {
  return new NotateError(message, { kind: 'usage' });
}

/** What a value is, to say in a usage error. */
function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A value as a usage error shows it: strings quoted, numbers as written, others by kind. */
export function shown(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (['number', 'bigint', 'boolean'].includes(typeof value)) return String(value);
  return kindOf(value);
}

/**
 * A string argument, checked here: the WebAssembly layer takes strings only, and
 * wasm-bindgen's glue traps on anything else (a number makes it write out of bounds). With
 * `optional`, `undefined` and `null` are no value (`undefined`).
 */
export function text(value, name, optional = false) {
  if (typeof value === 'string') return value;
  if (optional && (value === undefined || value === null)) return undefined;
  throw usage(`${name}: a string${optional ? ' or nothing' : ''}, not ${kindOf(value)}`);
}

/**
 * A whole number argument from 0 to `max` (a number, a BigInt or a numeric string, as
 * JavaScript would take it): anything else is a usage error, not a value rounded or clamped.
 */
export function wholeNumber(value, name, max = Number.MAX_SAFE_INTEGER) {
  const n = typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > max || (typeof value === 'string' && value.trim() === '')) {
    throw usage(`${name}: a whole number from 0 to ${max}, not ${shown(value)}`);
  }
  return n;
}

/**
 * JSON text of a value for the WebAssembly layer. What JSON cannot hold (a cycle, nesting
 * deeper than the engine's stack, a BigInt, a Symbol's `toJSON`) is a usage error naming
 * `name`, not the engine's TypeError or RangeError.
 */
export function jsonOf(value, name) {
  const json = stringify(value, undefined, name);
  if (json === undefined) throw usage(`${name}: not JSON (${kindOf(value)})`);
  return json;
}

/** JSON.stringify, its TypeError or RangeError a usage error (`name`: what is said). */
function stringify(value, replacer, name) {
  try {
    return JSON.stringify(value, replacer);
  } catch (e) {
    throw usage(`${name ? `${name}: ` : ''}not JSON (${e.message})`);
  }
}

/**
 * A function's options: the object given, or `{}` for none (`undefined` or `null`, as a
 * caller passing "no options" may write either); anything else is a usage error.
 */
export function optionsOf(options, name) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw usage(`${name}: the options must be an object, not ${kindOf(options)}`);
  // Read once, here: a getter or a Proxy that throws is a usage error (with the thrown
  // value as its cause), not an error of the caller's own escaping from inside notate.
  return readOut(() => ({ ...options }), `${name}: the options`);
}

/** `read()`, a reading of the caller's values; what it throws is a usage error about `what`. */
export function readOut(read, what) {
  try {
    return read();
  } catch (e) {
    throw refused(e, `${what} could not be read`);
  }
}

/** What a caller's value threw (a getter, a Proxy's trap), as notate's error: its `cause`. */
function refused(e, said) {
  if (e instanceof NotateError) return e;
  const error = usage(`${said}: ${e instanceof Error ? e.message : String(e)}`);
  error.cause = e;
  return error;
}

const encoder = new TextEncoder();

/** Text or bytes as the bytes the WebAssembly layer reads. */
export function bytesOf(input) {
  if (typeof input === 'string') return encoder.encode(input);
  // In readOut: a Proxy's traps, which `instanceof` runs, may throw.
  return readOut(() => {
    if (!(input instanceof ArrayBuffer) && !ArrayBuffer.isView(input)) {
      throw usage(`expected a string or bytes, not ${kindOf(input)}`);
    }
    // A view made anew from the buffer: a detached buffer cannot be viewed, a usage error.
    return input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }, 'the bytes');
}

// Integers past 2^53 travel as exact JSON numbers; JSON.parse would round them, so they are
// marked (a string starting with U+0000, which a JSON text holds only escaped) and made
// BigInts. The mark is one that none of the caller's strings holds: the first of `mark(0)`,
// `mark(1)` … that is free.
const mark = (n) => (n === 0 ? '\u0000bigint:' : `\u0000bigint${n}:`);
/** How a JSON text writes `s`, without the quotes. */
const escaped = (s) => JSON.stringify(s).slice(1, -1);
const LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;

/** JSON.parse, with integers past 2^53 as BigInt. */
export function parseExact(text) {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let n = 0;
  while (text.includes(escaped(mark(n)))) n++;
  const free = mark(n);
  const marked = text.replace(LONG_INTEGER, (token) =>
    token[0] === '"' || Number.isSafeInteger(Number(token)) ? token : `"${escaped(free)}${token}"`,
  );
  return JSON.parse(marked, (_, value) =>
    typeof value === 'string' && value.startsWith(free) ? BigInt(value.slice(free.length)) : value,
  );
}

/** JSON.stringify, with BigInts written as exact integers. */
export function stringifyExact(value) {
  let text;
  try {
    // The common case, without a replacer (which costs a call per value).
    text = JSON.stringify(value);
  } catch {
    // A BigInt; or a cycle, or nesting past the stack, which fail again here.
    for (let n = 0; ; n++) {
      const free = mark(n);
      let held = false;
      text = stringify(value, (key, v) => {
        if (typeof v === 'bigint') return `${free}${v}`;
        held ||= key.includes(free) || (typeof v === 'string' && v.includes(free));
        return v;
      });
      if (!held) {
        const pattern = new RegExp(`"${escaped(free).replace(/\\/g, '\\\\')}(-?\\d+)"`, 'g');
        return text.replace(pattern, '$1');
      }
    }
  }
  if (text === undefined) throw usage(`expected a JSON value, got ${typeof value}`);
  return text;
}

/**
 * Whether every own property of `doc` can be deleted and defined again (an array's length
 * written), and new ones added: what replacing its contents in place needs.
 */
export function changeable(doc) {
  if (!Object.isExtensible(doc)) return false;
  const descriptors = Object.getOwnPropertyDescriptors(doc);
  for (const key of Reflect.ownKeys(descriptors)) {
    const d = descriptors[key];
    if (Array.isArray(doc) && key === 'length' ? !d.writable : !d.configurable) return false;
  }
  return true;
}

/**
 * Replaces the contents of `target` (an object or an array) with `source`'s own enumerable
 * properties, in place; all or nothing: if the target refuses a change (a Proxy's trap
 * throws), it is given its old properties back, as far as it lets, and the error is
 * notate's. Defined, not assigned: a key "__proto__" (JSON.parse makes it an own key) would
 * otherwise replace the object's prototype.
 */
export function replaceContents(target, source) {
  const before = readOut(() => Object.getOwnPropertyDescriptors(target), 'the object');
  try {
    fill(target, source);
  } catch (e) {
    try {
      fill(target, before, true);
    } catch {
      // The target refuses even its old contents: the first failure is the one to say.
    }
    throw refused(e, 'the object could not be changed (it was left as it was)');
  }
  return target;
}

/** `target`'s contents made `source`'s: its values, or (`descriptors`) its properties. */
function fill(target, source, descriptors = false) {
  const array = Array.isArray(target);
  if (array) target.length = 0;
  else for (const key of Object.keys(target)) delete target[key];
  for (const key of descriptors ? Reflect.ownKeys(source) : Object.keys(source)) {
    if (array && key === 'length') continue;
    const property = descriptors ? source[key] : { value: source[key], writable: true, enumerable: true, configurable: true };
    Object.defineProperty(target, key, property);
  }
  if (array && descriptors) target.length = source.length.value;
}
