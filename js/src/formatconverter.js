// `notate/formatconverter`: FormatConverter.js's functions, ready on import.
import { init } from './core.js';

await init();

export * from './formatconverter-api.js';
