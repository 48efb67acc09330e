export * from './api.js';
export { init, initSync, isLoaded, NotateError, WasmSource } from './core.js';
