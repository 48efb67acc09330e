// `notate`: loads the WebAssembly module (top-level await), then gives notate's API.
import { init } from './core.js';

await init();

export * from './api.js';
export { init, initSync, isLoaded } from './core.js';
