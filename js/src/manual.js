// `notate/manual`: everything, without loading the WebAssembly module on import, for pages
// that give its bytes or URL themselves: `await init(bytesOrUrl)` (or `initSync(bytes)`)
// before the first call.
export * from './api.js';
export { init, initSync, isLoaded } from './core.js';
export * as formatconverter from './formatconverter-api.js';
export * as jsonchess from './jsonchess-api.js';
