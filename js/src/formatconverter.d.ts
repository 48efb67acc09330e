export * from './formatconverter-api.js';
