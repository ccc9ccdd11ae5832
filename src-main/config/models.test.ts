import { describe, expect, it } from 'vitest';
import { defaultModelRouting, modelRoles, modelRoutingSchema, routerFor, MODEL_TIERS } from './models';

describe('model routing', () => {
  it('gives every role a model, strongest for judgement, middle for focused work, fastest for compaction', () => {
    expect(Object.keys(defaultModelRouting).sort()).toEqual([...modelRoles].sort());
    for (const r of ['agent', 'contrastive', 'review', 'synthesis', 'builder', 'planner'] as const) expect(defaultModelRouting[r]).toBe(MODEL_TIERS.strongest);
    for (const r of ['subagent', 'validation', 'proposal'] as const) expect(defaultModelRouting[r]).toBe(MODEL_TIERS.middle);
    expect(defaultModelRouting.compact).toBe(MODEL_TIERS.fastest);
  });

  it('an old settings file with only some roles still loads, the rest take defaults', () => {
    const parsed = modelRoutingSchema.parse({ agent: 'claude-sonnet-5-5' });
    expect(parsed.agent).toBe('claude-sonnet-5-5');
    expect(parsed.compact).toBe(defaultModelRouting.compact);
  });

  it('a typo in a model id is refused with a message saying what a model id looks like', () => {
    const r = modelRoutingSchema.safeParse({ review: 'Claude Opus!' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['review']);
    expect(r.error!.issues[0]!.message).toContain('e.g. claude-opus-5-5');
    expect(modelRoutingSchema.safeParse({ agent: '' }).success).toBe(false);
  });

  it('routes roles from live settings and refuses an unknown role instead of guessing', () => {
    let routing = { ...defaultModelRouting };
    const route = routerFor(() => routing);
    expect(route('compact')).toBe(MODEL_TIERS.fastest);
    routing = { ...routing, compact: 'claude-sonnet-5-5' };
    expect(route('compact')).toBe('claude-sonnet-5-5');
    expect(() => route('janitor')).toThrow(/Unknown model role "janitor"/);
  });
});
