import type { ProcessKnowledge, StanceDirection } from './pk';

/**
 * The evidence bar for a skill edit (seed §11, §14): Process Knowledge of weight ≥ 0.4, grouped by
 * skill and by the claim it makes; a group needs 5 entries making the same claim in the same
 * direction, and no entry (of weight ≥ 0.4, for any skill) making it in the opposite direction.
 */

export interface EvolutionThresholds {
  minWeight: number;
  minCorroborations: number;
}

export const DEFAULT_THRESHOLDS: EvolutionThresholds = { minWeight: 0.4, minCorroborations: 5 };

/** Entries of one skill that make the same claim in the same direction. */
export interface PkCluster {
  skill: string;
  claim: string;
  direction: StanceDirection;
  /** The corroborating entries, in id order. */
  pkIds: string[];
  /** Entries that make the same claim in the opposite direction. */
  contradictions: string[];
}

export interface Clustering {
  clusters: PkCluster[];
  /** Entries that cannot count, each with why (so the retrospective can fix them). */
  ignored: { id: string; reason: string }[];
}

const byId = (a: string, b: string) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')) || a.localeCompare(b);

export function clusterKey(c: Pick<PkCluster, 'skill' | 'claim' | 'direction'>): string {
  return `${c.skill}/${c.direction}/${c.claim}`;
}

export function clusterPk(entries: ProcessKnowledge[], thresholds: EvolutionThresholds = DEFAULT_THRESHOLDS): Clustering {
  const ignored: Clustering['ignored'] = [];
  const eligible: (ProcessKnowledge & { stance: NonNullable<ProcessKnowledge['stance']> })[] = [];
  for (const pk of entries) {
    if (pk.weight === null || !(pk.weight >= thresholds.minWeight))
      ignored.push({ id: pk.id, reason: `weight ${pk.weight ?? 'missing'} is below ${thresholds.minWeight}` });
    else if (pk.status && pk.status !== 'active') ignored.push({ id: pk.id, reason: `status is ${pk.status}, not active` });
    else if (!pk.stance) ignored.push({ id: pk.id, reason: 'it states no stance (`stance: for <claim>` or `stance: against <claim>`)' });
    else if (!pk.skills.length) ignored.push({ id: pk.id, reason: 'it names no skill' });
    else eligible.push(pk as (typeof eligible)[number]);
  }
  // Who argues which way on each claim, across every skill: a lesson contradicted anywhere is not settled.
  const sides = new Map<string, Record<StanceDirection, Set<string>>>();
  const groups = new Map<string, PkCluster>();
  for (const pk of eligible) {
    const { claim, direction } = pk.stance;
    const side = sides.get(claim) ?? { for: new Set<string>(), against: new Set<string>() };
    side[direction].add(pk.id);
    sides.set(claim, side);
    for (const skill of pk.skills) {
      const key = clusterKey({ skill, claim, direction });
      const g = groups.get(key) ?? { skill, claim, direction, pkIds: [], contradictions: [] };
      if (!g.pkIds.includes(pk.id)) g.pkIds.push(pk.id);
      groups.set(key, g);
    }
  }
  const clusters = [...groups.values()].map((g) => {
    const opposite = sides.get(g.claim)![g.direction === 'for' ? 'against' : 'for'];
    return { ...g, pkIds: [...g.pkIds].sort(byId), contradictions: [...opposite].sort(byId) };
  });
  clusters.sort((a, b) => a.skill.localeCompare(b.skill) || a.claim.localeCompare(b.claim) || a.direction.localeCompare(b.direction));
  return { clusters, ignored };
}
