import { AppError } from '../../common/errors';
import type { PartialHandlerMap } from './types';

const notYet = () => {
  throw new AppError('unavailable', 'Memory is being set up; try again shortly.');
};

export const memoryHandlers: PartialHandlerMap = {
  'memory/list': notYet,
  'memory/read': notYet,
  'memory/history': notYet,
  'memory/audit': notYet,
};
