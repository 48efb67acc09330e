// `notate/viewer`: the board viewer (see ./board.js) and the viewer app: drop, open or paste
// a game file of any format notate reads, and it plays, entirely in the page — the
// WebAssembly package turns the file into viewer documents.

import { mount } from './board.js';
import { init, optionsOf, bytesOf } from './core.js';
import { convert } from './api.js';

export { mount, Viewer, pieceOf, positionsOf } from './board.js';

/**
 * The viewer documents of a game file (text or bytes) of any format notate reads — PGN, EGD,
 * game JSON, jsonchess, ICN in either form, KIF, KI2, CSA, USI, SFEN, Western, JKF — or of
 * piece tracks and viewer documents themselves (used as they are). Loads the WebAssembly
 * module when it is needed. `{documents, errors}`: every game that could be read, and a
 * NotateError (with line and column) for each one that could not.
 *
 * ```js
 * const { documents, errors } = await viewerDocuments(await file.arrayBuffer());
 * ```
 */
export async function viewerDocuments(input, options) {
  options = optionsOf(options, 'viewerDocuments');
  const text = typeof input === 'string' ? input : null;
  const head = (text ?? new TextDecoder().decode(bytesOf(input).subarray(0, 4096))).trimStart();
  if (head.startsWith('{"family"') || /^\{"(game_tags|header|metadata)":[^\n]*"start":\{[^\n]*"actions":/.test(head)) {
    const lines = (text ?? new TextDecoder().decode(bytesOf(input))).split('\n').filter((line) => line.trim() !== '');
    return { documents: lines, errors: [] };
  }
  await init(options.wasm);
  const { output, errors } = convert(input, { from: options.from, to: 'view', errors: 'collect' });
  return { documents: output.split('\n').filter((line) => line !== ''), errors };
}

/**
 * The viewer app in `element`: a file picker, a drop zone and a paste box above the board.
 * `options.wasm`: where the WebAssembly module is (default: beside this file).
 */
export function app(element, options) {
  options = optionsOf(options, 'app');
  const doc = element.ownerDocument;
  const form = doc.createElement('form');
  form.className = 'nv-app';
  form.innerHTML = `
    <p><label>Open a game file <input type="file" name="file"></label> or drop one on this page, or paste a game:</p>
    <textarea name="text" rows="5" cols="70" aria-label="Game text (PGN, ICN, KIF, KI2, CSA, JKF, EGD, tracks …)"></textarea>
    <p><button type="submit">Show</button> <output name="status" role="status"></output></p>`;
  const board = doc.createElement('div');
  element.append(form, board);
  const status = form.elements.status;
  const show = async (input, name) => {
    status.textContent = `reading ${name}…`;
    try {
      const { documents, errors } = await viewerDocuments(input, options);
      board.replaceChildren();
      const said = errors.map((e) => `${name}: ${e.message}`);
      status.textContent = said.length ? said.join('\n') : `${name}: ${documents.length} game${documents.length === 1 ? '' : 's'}`;
      status.dataset.errors = String(errors.length);
      if (documents.length > 0) mount(board, documents).root.node().focus();
    } catch (error) {
      board.replaceChildren();
      status.textContent = `${name}: ${error.message}`;
      status.dataset.errors = '1';
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    show(form.elements.text.value, 'pasted text');
  });
  form.elements.file.addEventListener('change', async () => {
    const file = form.elements.file.files[0];
    if (file) show(new Uint8Array(await file.arrayBuffer()), file.name);
  });
  doc.addEventListener('dragover', (event) => event.preventDefault());
  doc.addEventListener('drop', async (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (file) show(new Uint8Array(await file.arrayBuffer()), file.name);
  });
  return { show };
}
