import type { Screen } from './routes';

export interface ScreenInfo {
  label: string;
  /** What the screen is for, in the PM's words; shown on screens that are not built yet. */
  purpose: string;
  /** What it will show, as short bullet points. */
  will: string[];
  built: boolean;
}

export const screenInfo: Record<Screen, ScreenInfo> = {
  home: {
    label: 'Home',
    purpose: 'Today at a glance: the book against its limits, what awaits your decision, and what the analyst and the schedule are doing.',
    will: [],
    built: true,
  },
  chat: {
    label: 'Chat',
    purpose: 'Talk with the analyst about markets, Views and positions.',
    will: [
      'Answers stream in as the analyst writes them',
      'Each tool call (read, search, write, dispatch…) shown inline as it happens',
      'Sub-agent tasks started from the conversation, with their results',
    ],
    built: true,
  },
  views: {
    label: 'Views',
    purpose: 'Your theses: scope, confidence, scenarios and invalidation conditions.',
    will: [],
    built: true,
  },
  expressions: {
    label: 'Expressions',
    purpose: 'Trades that express a View, each checked against the risk guardrails.',
    will: [],
    built: true,
  },
  tasks: {
    label: 'Tasks',
    purpose: 'Live progress of the sub-agents the analyst dispatches.',
    will: [
      'Running, waiting and finished tasks with their dependencies',
      'Retries, validation and contrastive checks as they happen',
      'Cancel a task; see every failure, never a silent drop',
    ],
    built: true,
  },
  proposals: {
    label: 'Proposals',
    purpose: 'Skill edits the MetaOptimizer proposes from repeated lessons.',
    will: [
      'A diff of each proposed edit with its rationale',
      'The five or more Process Knowledge entries that back it',
      'Approve to apply it as a versioned skill edit, or reject with a reason',
    ],
    built: true,
  },
  calibration: {
    label: 'Calibration',
    purpose: 'How well your stated confidence matches what happened, by category and confidence band.',
    will: [],
    built: true,
  },
  schedule: {
    label: 'Schedule',
    purpose: 'The morning review, end of day, weekly retrospective and hourly monitoring: when they run next and what each run did.',
    will: [],
    built: true,
  },
  builds: {
    label: 'Builds',
    purpose: 'The builder working through a project phase by phase.',
    will: [],
    built: true,
  },
  contracts: {
    label: 'Contracts',
    purpose: 'The governance contracts the MCP server serves to builders and IDEs: edit them, checked as you type, each save kept as a version.',
    will: [],
    built: true,
  },
  skills: {
    label: 'Skills',
    purpose: "The analyst's skills: procedures, templates and references.",
    will: ['Each skill’s SKILL.md, templates and scripts in an editor', 'The history of approved edits to each skill'],
    built: true,
  },
  portfolio: {
    label: 'Portfolio',
    purpose: 'Your book and the hard risk limits every Expression is checked against.',
    will: [
      'Portfolio state and constraints',
      'Single-trade risk, gross, duration and factor concentration against their limits',
      'Calibration by category and confidence band: hit rate and Brier score',
    ],
    built: true,
  },
  data: {
    label: 'Data',
    purpose: 'The sources the analyst fetches from, their health and keys, and the option and curve analytics.',
    will: [],
    built: true,
  },
  mcp: {
    label: 'MCP',
    purpose: 'The governance MCP server that IDEs and external agents attach to.',
    will: ['Server status, transports (stdio and local HTTP) and connected sessions', 'Copy-paste instructions to attach an IDE'],
    built: true,
  },
  desk: {
    label: 'Desk',
    purpose: 'The desk’s books against their limits and the Expressions waiting for a decision, for the person signed in (on a server run for a desk).',
    will: [],
    built: true,
  },
  settings: {
    label: 'Settings',
    purpose: 'Appearance, your profile, the model connection, search weights and API keys.',
    will: [],
    built: true,
  },
};
