import { memoryCore } from './001_memory';
import { searchIndex } from './002_search';
import { mcpProjects } from './003_mcp';
import { subAgentTasks } from './004_tasks';
import { taskAttempts } from './005_task_attempts';
import { providerCache } from './006_provider_cache';
import { researchPassages } from './007_research_passages';
import { buildRuns } from './008_build_runs';
import { researchVectors } from './009_research_vectors';
import { calibrationForecasts } from './010_calibration_forecasts';
import { scheduleRuns } from './011_schedule';
import { reviewReports } from './012_review_reports';
import { recordTables } from './013_record_tables';
import { searchBlocks } from './014_search_blocks';
import { buildDocuments } from './015_build_documents';
import { guardrailChecks } from './016_guardrail_checks';
import { keywordChanges } from './017_keyword_changes';
import { searchSlotPatches } from './018_search_slot_patches';
import { deferredFullText } from './019_deferred_full_text';
import type { Migration } from './types';

/** Every schema version in order; version N is at index N-1. Version 2 is the search index. */
export const migrations: readonly Migration[] = [
  memoryCore,
  searchIndex,
  mcpProjects,
  subAgentTasks,
  taskAttempts,
  providerCache,
  researchPassages,
  buildRuns,
  researchVectors,
  calibrationForecasts,
  scheduleRuns,
  reviewReports,
  recordTables,
  searchBlocks,
  buildDocuments,
  guardrailChecks,
  keywordChanges,
  searchSlotPatches,
  deferredFullText,
];

export type { Migration } from './types';
