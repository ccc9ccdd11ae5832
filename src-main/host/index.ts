export { createCore } from './core';
export type { Core } from './core';
export type { CoreConfig, AppMode } from './config';
export type { CoreContext } from './context';
export { EventBus } from './events';
export { startHeadlessHost } from './http/server';
export type { HeadlessHost, HeadlessHostOptions } from './http/server';
