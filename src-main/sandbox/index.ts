export {
  type BubblewrapCheck,
  checkBubblewrap,
  isUnder,
  onPath,
  programPrefix,
  SYSTEM_DIRS,
  type SandboxSpec,
  sandboxArgs,
} from './bubblewrap';
export { SECRET_ENV_NAME, scrubEnv } from './env';
export { createProcessGroupLimit, type ProcessGroupLimit } from './process-limit';
export { killTree, type ProcessOutcome, type ProcessSpec, runProcess, type StartedProcess, type StopReason } from './spawn';
