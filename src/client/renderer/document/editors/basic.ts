// The light line editors share one chunk.
export { input, money, number } from './text';
