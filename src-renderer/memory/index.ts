export { MemoryScreen } from './MemoryScreen';
export { recordBody, metaParts, relativeTime, headerValue, screenOfId } from './format';
