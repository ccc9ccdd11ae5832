import type { BuildManager } from '../../builder';
import { inspectSpecs } from './builds-inspect';
import type { PartialHandlerMap } from './types';

/**
 * The Builds screen's procedures, over the core's BuildManager (src-main/builder/runner.ts). The
 * manager is created on first use: a workspace that never builds never opens a build.
 */
export function buildHandlers(manager: () => Promise<BuildManager>): PartialHandlerMap {
  return {
    'builds/inspect': ({ dir, feature }) => inspectSpecs(dir, feature),
    'builds/start': async (input) => ({ build: await (await manager()).start(input) }),
    'builds/list': async () => ({ builds: (await manager()).list() }),
    'builds/get': async ({ id }) => (await manager()).detail(id),
    'builds/pause': async ({ id }) => ({ build: (await manager()).pause(id) }),
    'builds/resume': async ({ id }) => ({ build: (await manager()).resume(id) }),
    'builds/stop': async ({ id }) => ({ build: (await manager()).stop(id) }),
    'builds/answer': async ({ id, answer }) => ({ build: (await manager()).answer(id, answer) }),
    'builds/decide-command': async ({ id, requestId, allow }) => ({ build: (await manager()).decideCommand(id, requestId, allow) }),
    'builds/set-network': async ({ id, allow }) => ({ build: (await manager()).setNetwork(id, allow) }),
  };
}
