#!/usr/bin/env node
// Builds the package into dist/ from the Rust sources:
//   1. the crate notate-wasm for wasm32-unknown-unknown (cargo profile `wasm`: small),
//   2. its JavaScript glue by wasm-bindgen (`--target web`: ES modules for node and pages),
//   3. the package's own modules (minified by esbuild) and type declarations from src/,
//   4. dist/d3.js: what the viewer's board takes from D3 (`d3.select` …), bundled by esbuild
//      from the modules' ES builds, only the parts it uses, as one ES module,
//   5. dist/viewer.html: the viewer app as a static page.
// Needs `rustup target add wasm32-unknown-unknown` and the wasm-bindgen command of the
// crate's exact wasm-bindgen version (`cargo install wasm-bindgen-cli --version =0.2.130`),
// found on PATH, in $WASM_BINDGEN, or in ~/.cargo/bin.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, transformSync } from 'esbuild';

const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(js, '..');
const dist = join(js, 'dist');
const target = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(root, 'target');

/** What the viewer's board takes from D3, by the module that has it. */
const D3_PARTS = {
  'd3-selection': ['select', 'pointer'],
  'd3-transition': ['transition'],
  'd3-zoom': ['zoom', 'zoomIdentity'],
  'd3-ease': ['easeCubicInOut'],
};

function run(command, args) {
  process.stderr.write(`$ ${command} ${args.join(' ')}\n`);
  execFileSync(command, args, { cwd: root, stdio: 'inherit' });
}

function wasmBindgen() {
  if (process.env.WASM_BINDGEN) return process.env.WASM_BINDGEN;
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'wasm-bindgen'))) return join(dir, 'wasm-bindgen');
  }
  const cargoBin = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin', 'wasm-bindgen');
  if (existsSync(cargoBin)) return cargoBin;
  console.error('wasm-bindgen not found: cargo install wasm-bindgen-cli --version =0.2.130 (or set WASM_BINDGEN)');
  process.exit(1);
}

run('cargo', ['build', '--locked', '-p', 'notate-wasm', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm']);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const wasm = join(target, 'wasm32-unknown-unknown', 'wasm', 'notate_wasm.wasm');
// No TypeScript declarations of the glue: the package's own (src/*.d.ts) are its types.
run(wasmBindgen(), ['--target', 'web', '--no-typescript', '--out-dir', join(dist, 'wasm'), '--out-name', 'notate', wasm]);
addRestart(join(dist, 'wasm', 'notate.js'));
minified(join(dist, 'wasm', 'notate.js'));
for (const file of readdirSync(join(js, 'src'))) {
  cpSync(join(js, 'src', file), join(dist, file));
  if (file.endsWith('.js')) minified(join(dist, file));
}
writeFileSync(join(dist, 'd3.js'), d3Module());
writeFileSync(join(dist, 'viewer.html'), readFileSync(join(js, 'scripts', 'viewer.html')));
process.stderr.write(`built ${dist}\n`);

/**
 * Adds to wasm-bindgen's glue a way to start a fresh instance of the compiled module. An
 * instance that traps (an allocation that fails aborts the layer) keeps its memory and its
 * broken state; the glue holds its instance in variables of its own module, which only code
 * in that module can replace. Its finalizers free an object's memory in whichever instance
 * runs when they run: each registration now holds the instance it was made in, and a
 * finalizer of an object of an instance since replaced does nothing (its memory went with
 * it). Checked against the glue of the pinned wasm-bindgen: the build fails if the glue no
 * longer has what this relies on.
 */
function addRestart(glue) {
  let code = readFileSync(glue, 'utf8');
  const changed = (what, pattern, replacement) => {
    const count = (code.match(pattern) ?? []).length;
    if (count === 0) throw new Error(`${glue}: wasm-bindgen's glue changed (no ${what}): see addRestart in scripts/build.mjs`);
    code = code.replace(pattern, replacement);
    return count;
  };
  for (const needed of ['let wasmModule, wasmInstance, wasm;', 'let __wbg_init_promise;',
    'function initSync(module) {\n    if (wasm !== undefined) return wasm;']) {
    if (!code.includes(needed)) {
      throw new Error(`${glue}: wasm-bindgen's glue changed (no \`${needed.split('\n')[0]}\`): see addRestart in scripts/build.mjs`);
    }
  }
  const registries = changed('finalization registries', /new FinalizationRegistry\(ptr => wasm\.(__wbg_\w+_free)\(ptr, 1\)\)/g,
    'new FinalizationRegistry(([ptr, instance]) => instance === wasm && wasm.$1(ptr, 1))');
  const registrations = changed('registrations', /(\w+Finalization)\.register\((\w+), \2\.__wbg_ptr, \2\)/g,
    '$1.register($2, [$2.__wbg_ptr, wasm], $2)');
  if (/FinalizationRegistry\(ptr =>|Finalization\.register\(\w+, \w+\.__wbg_ptr,/.test(code) || registrations < registries) {
    throw new Error(`${glue}: a finalizer or registration of wasm-bindgen's glue was not changed: see addRestart`);
  }
  writeFileSync(glue, `${code}
// Added by notate's build (js/scripts/build.mjs): a fresh instance of the same compiled
// module, for js/src/core.js after a trap; the old one is left to the garbage collector.
export function __notateRestart() {
    wasm = undefined;
    __wbg_init_promise = undefined;
    return initSync({ module: wasmModule });
}
`);
}

/**
 * The module minified by esbuild: without comments, blanks or redundant syntax, and its local
 * names shortened (exports keep theirs): the package ships within its 512 KiB, and its
 * documentation is in the declarations (`.d.ts`) and in src/, whose comments say why. A stack
 * trace then names a function by its short name, at its place in the file (keeping the names
 * cost 2.7 KB, which the fixes of 2026-12-04 needed). The exported classes say their own
 * `name` in src/ (`console.log(error)` shows `NotateError`, not its short name).
 */
function minified(file) {
  const out = transformSync(readFileSync(file, 'utf8'), {
    minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: true,
    format: 'esm', target: 'esnext', legalComments: 'none', sourcefile: file,
  });
  writeFileSync(file, out.code);
}



/**
 * The parts of D3 the board uses, as one ES module exporting `d3`: bundled from the modules'
 * ES builds, so that only what those parts need comes along (the whole of each module, as
 * the command line's page has them from scripts/d3-modules.txt, was 2 KB more gzipped, in a
 * package at its size budget). A `d3.name` the board uses and this lacks fails the build.
 */
function d3Module() {
  const board = readFileSync(join(js, 'src', 'board.js'), 'utf8');
  const parts = Object.values(D3_PARTS).flat();
  const used = new Set([...board.matchAll(/\bd3\.(\w+)/g)].map((m) => m[1]).filter((name) => name !== 'js'));
  const missing = [...used].filter((name) => !parts.includes(name));
  if (missing.length) throw new Error(`src/board.js uses d3.${missing.join(', d3.')}: add it to D3_PARTS in scripts/build.mjs`);
  const entry = Object.entries(D3_PARTS)
    .map(([module, names]) => `import { ${names.join(', ')} } from '${module}';`)
    .concat(`export const d3 = { ${parts.join(', ')} };`)
    .join('\n');
  const { outputFiles } = buildSync({
    stdin: { contents: entry, resolveDir: js, sourcefile: 'd3.js' },
    bundle: true, minify: true, format: 'esm', target: 'esnext', legalComments: 'none', write: false,
  });
  return `// D3 (ISC licence, https://d3js.org): ${Object.keys(D3_PARTS).join(', ')} and what they use.\n${outputFiles[0].text}`;
}
