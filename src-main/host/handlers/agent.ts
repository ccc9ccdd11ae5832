import { approveExpression, rejectExpression } from '../../tools';
import type { AnalystService } from '../analyst';
import type { PartialHandlerMap } from './types';

/** Handlers for the analyst, its sessions and the PM's approval gate (built over one AnalystService). */
export function agentHandlers(service: AnalystService): PartialHandlerMap {
  const a = service.analyst;
  return {
    'agent/send': (input) => a.send({ message: input.message, sessionId: input.sessionId, newSession: input.newSession, asOf: input.asOf }),
    'agent/cancel': (input) => ({ cancelled: service.cancel(input.runId) }),
    'agent/status': async (_input, ctx) => {
      await ctx.memory.ready;
      return { hasApiKey: service.hasApiKey(), model: service.modelName(), running: service.running(), fixedContext: a.fixedContext() };
    },
    'agent/demo': () => service.demo(),
    'sessions/list': async (input, ctx) => {
      await ctx.memory.ready;
      return a.sessions.list(input.limit ?? 50, input.offset ?? 0);
    },
    'sessions/open': async (input, ctx) => {
      await ctx.memory.ready;
      return { ...a.sessions.open(input.id), usage: a.sessionTotals(input.id) };
    },
    'expressions/approve': async (input, ctx) => {
      await ctx.memory.ready;
      const r = await approveExpression(ctx.memory.fs, input.id, service.limits());
      return { ...r, violations: r.violations.map((v) => ({ rule: v.rule, actual: v.actual, limit: v.limit, message: v.message })) };
    },
    'expressions/reject': async (input, ctx) => {
      await ctx.memory.ready;
      return rejectExpression(ctx.memory.fs, input.id, input.reason, service.limits());
    },
  };
}
