import type { SessionFS, WriteContext } from '../fs';
import type { GuardrailLimits } from '../guardrails';
import type { Model } from '../llm';
import type { ProviderRegistry } from '../providers';
import type { SearchRequest, SearchResponse } from '../search';

/** The review ledger's gate, as the write tool needs it (see executor/ReviewLedger). */
export interface ReviewGate {
  approvalFor(sessionId: string, content: string): { approved: boolean; message: string };
}

/** What the analyst's tools reach during one run: built per run by the agent service. */
export interface AnalystToolContext {
  /** ForgeFS seen from the run's session: `/session/...` means this session's folder. */
  fs: SessionFS;
  /** Who writes (agent, subagent:<task>, pm ...), with session and task, for the audit log. */
  writer: WriteContext;
  /** The hard limits as configured now. */
  limits: () => GuardrailLimits;
  /** The search index; absent when none is configured. */
  search?: (request: SearchRequest) => Promise<SearchResponse>;
  providers: ProviderRegistry;
  /** The model the compact tool calls (role `compact`). */
  model?: Model;
  /**
   * Reviews filed in this workspace. When present, an agent may only propose an Expression whose
   * exact text the latest review approved (issue 6: review before the PM is asked).
   */
  reviews?: ReviewGate;
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * The run is "as of" this date (YYYY-MM-DD, a retrospective): fetch passes it to the providers
   * and the registry refuses any result dated after it.
   */
  asOf?: string;
}
