// `notate/jsonchess`: the jsonchess library's modules, ready on import.
import { init } from './core.js';

await init();

export * from './jsonchess-api.js';
