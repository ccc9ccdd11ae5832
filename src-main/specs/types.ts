/**
 * The contract model every spec format is read into (issue #28). A spec package is the user's own
 * documents, read as they are and never modified: GitHub spec-kit, Kiro, OpenSpec, a plain folder of
 * Markdown with a phased plan, or Forge's own `Forge/Contracts/` layout. The builder, the governance
 * MCP tools, dump mode and the bench all read a package through this one shape.
 */

export type SpecFormat = 'spec-kit' | 'kiro' | 'openspec' | 'plain' | 'forge';

/** One document of the package, briefed from its own text (never from Forge's descriptions, except Forge's own contracts). */
export interface SpecDocument {
  /** Stable id the tools take (`forge_get_contract`): the path relative to the package root, `/` separators, e.g. `specs/001-photo-albums/plan.md`. */
  id: string;
  /** What role the document plays in its format: constitution, spec, plan, tasks, research, data-model, quickstart, contract, requirements, design, steering, proposal, delta-spec, base-spec, project, roadmap, doc, or a Forge contract name. */
  kind: string;
  /** The document's own title (first `#` heading), or its file name. */
  title: string;
  /** Its first paragraph (trimmed to ~300 characters): what `forge_list_contracts` shows. */
  brief: string;
  /** Size in tokens (the package's tokenizer; o200k BPE). */
  tokens: number;
  /** The text, as read (UTF-8, BOM removed, line endings normalised to \n). */
  text: string;
}

export interface SpecTask {
  /** The format's own id: `T001`, `1.2`, `2`; or the task's ordinal within its phase when it has none. */
  id: string;
  text: string;
  /** spec-kit's `[P]`: may run in parallel with its neighbours. */
  parallel?: boolean;
  /** Checklist state, where the format keeps one (`- [x]`). */
  done?: boolean;
  /** Requirement references (Kiro's `_Requirements: 1.2, 3.1_`). */
  refs?: string[];
  /** Sub-tasks (Kiro's nested checklist items). */
  subtasks?: SpecTask[];
}

export interface SpecPhase {
  /** The plan's own number as written: `0`, `1`, `3.1`, `2`. Tools and prompts use it as is. */
  id: string;
  /** Position in the plan, from 0 (order only; never shown as a phase number). */
  ordinal: number;
  name: string;
  tasks: SpecTask[];
  /** The phase's own text as written (heading included). */
  text: string;
  /** The document the phase came from (a SpecDocument id). */
  source: string;
}

export interface SpecPackage {
  format: SpecFormat;
  /** Absolute path of the folder read. */
  root: string;
  /** For feature-based formats, which feature/change was chosen (`001-photo-albums`, `add-2fa`); null otherwise. */
  feature: string | null;
  documents: SpecDocument[];
  phases: SpecPhase[];
  /**
   * Text of the plan before its first phase (tech stack, project structure, conventions): carried in
   * every phase window, because a phase needs it.
   */
  preamble: string;
  /** What the reader saw but could not use, one sentence each (a file it could not classify, a heading it could not number). */
  notUnderstood: string[];
  /** Why this format was chosen, one sentence (and which other layouts were also found and left unread). */
  detected?: string;
  /** For feature-based formats, every feature/change the package holds (the chosen one included), so a UI can offer the others. */
  features?: string[];
}
