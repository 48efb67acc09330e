export * from './api.js';
export { init, initSync, isLoaded, WasmSource } from './core.js';
export * as formatconverter from './formatconverter-api.js';
export * as jsonchess from './jsonchess-api.js';
