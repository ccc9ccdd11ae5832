import { create } from 'zustand';
import type { EventName } from '../../src-main/api';

/** Bytes of the local search model on disk while it downloads (pushed by the core), or null when none runs. */
export const useModelDownloadProgress = create<{ file: string; done: number; total: number } | { done: null }>(() => ({ done: null }));

export const modelEventNames = ['search/model-progress'] as const satisfies readonly EventName[];

export function handleModelProgress(payload: { file: string; done: number; total: number }): void {
  useModelDownloadProgress.setState(payload, true);
}
