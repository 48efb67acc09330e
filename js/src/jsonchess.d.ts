export * from './jsonchess-api.js';
