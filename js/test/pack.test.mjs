// `npm pack` makes a tarball that installs with no network and works by its import names,
// within the size goal (512 KiB gzipped for the whole package).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');

test('the packed tarball installs offline and runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'notate-pack-'));
  try {
    const name = execFileSync('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], { cwd: js, encoding: 'utf8' }).trim().split('\n').pop();
    const tarball = join(dir, name);
    const bytes = statSync(tarball).size;
    process.stderr.write(`# ${name}: ${bytes} bytes\n`);
    assert.ok(bytes <= 512 * 1024, `${bytes} bytes`);
    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true,"type":"module"}');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: app });
    writeFileSync(
      join(app, 'main.js'),
      [
        "import { convert } from 'notate';",
        "import { ShortToLong_Format } from 'notate/formatconverter';",
        "import { Move } from 'notate/jsonchess';",
        "console.log(convert('1. e4 *', { from: 'pgn', to: 'uci' }).trim());",
        "console.log(ShortToLong_Format('w K5,1|k5,8').turn);",
        "console.log(Move.encodeAndPack('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e4'));",
      ].join('\n'),
    );
    const out = execFileSync('node', ['main.js'], { cwd: app, encoding: 'utf8' });
    assert.equal(out, 'e2e4\nwhite\n1,0,e4,0,e2,e4,N,e3\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
