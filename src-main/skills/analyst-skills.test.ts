import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ANALYST_SKILL_SECTIONS, skillSection } from './frontmatter';
import { SkillLoader } from './loader';
import { runScriptOfSkill, runSkillScript } from './script-runner';

// The ten analyst skills shipped in the repository's top-level skills/ folder.
const SKILLS_ROOT = fileURLToPath(new URL('../../skills', import.meta.url));
const TEN = [
  'attention-allocation',
  'context-retrieval',
  'event-analysis',
  'expression-design',
  'portfolio-review',
  'portfolio-synthesis',
  'retrospective',
  'rv-analysis',
  'scenario-analysis',
  'view-validation',
];
const READ_ONLY_TOOLS = ['read', 'search', 'fetch', 'run_script'];

type ScriptModule = Record<string, (input: unknown) => Record<string, unknown>>;
async function importScript(rel: string): Promise<ScriptModule> {
  return (await import(pathToFileURL(path.join(SKILLS_ROOT, rel)).href)) as ScriptModule;
}

describe('the ten analyst skills', () => {
  const loader = new SkillLoader(SKILLS_ROOT, { mode: 'strict', requiredSections: ANALYST_SKILL_SECTIONS });

  it('all load in strict mode with zero problems (not even warnings)', () => {
    expect(loader.problems()).toEqual([]);
    expect(loader.catalog().map((c) => c.name)).toEqual(TEN);
  });

  it('grant sub-agents only read-only tools, and run_script only where the skill has scripts', () => {
    for (const name of TEN) {
      const s = loader.load(name);
      expect(
        s.allowedTools.every((t) => READ_ONLY_TOOLS.includes(t)),
        `${name}: ${s.allowedTools.join(' ')}`,
      ).toBe(true);
      expect(s.allowedTools).toContain('read');
      expect(s.allowedTools.includes('run_script'), name).toBe(s.scripts.length > 0);
    }
  });

  it('every file a skill body points to exists in the skill', () => {
    for (const name of TEN) {
      const s = loader.load(name);
      const mentioned = [...s.body.matchAll(/`((?:templates|references|scripts|assets)\/[\w.-]+)`/g)].map((m) => m[1]!);
      const have = s.resources.map((r) => r.path);
      for (const m of mentioned) expect(have, `${name} mentions ${m}`).toContain(m);
    }
  });

  it('ship the resources the issue names', () => {
    const files = Object.fromEntries(TEN.map((n) => [n, loader.load(n).resources.map((r) => r.path)]));
    expect(files['context-retrieval']).toContain('references/gap-assessment.md');
    expect(files['view-validation']).toEqual(expect.arrayContaining(['templates/output.md', 'references/calibration.md']));
    expect(files['expression-design']).toEqual(expect.arrayContaining(['templates/expression.md', 'scripts/kelly.mjs', 'scripts/option-payoff.mjs']));
    expect(files['portfolio-synthesis']).toEqual(expect.arrayContaining(['templates/synthesis.md', 'references/integration-brief.md']));
    expect(files['scenario-analysis']).toContain('scripts/scenario-tree.mjs');
    expect(files['rv-analysis']).toContain('scripts/zscore.mjs');
    expect(files.retrospective).toContain('references/counterfactual-guide.md');
  });

  it('every skill asks for a SUMMARY first and has at least four eval criteria the validator can check', () => {
    for (const name of TEN) {
      const body = loader.load(name).body;
      expect(skillSection(body, 'Output Format'), name).toMatch(/SUMMARY/);
      const criteria = skillSection(body, 'Eval Criteria')!
        .split('\n')
        .filter((l) => l.startsWith('- '));
      expect(criteria.length, name).toBeGreaterThanOrEqual(4);
    }
  });

  it('the synthesis template carries parseable VIEW UPDATES and EXPRESSION IMPLICATIONS blocks with the contract fields', () => {
    const t = loader.readResource('portfolio-synthesis', 'templates/synthesis.md');
    const block = (heading: string) => {
      const section = skillSection(t, heading)!;
      return parseYaml(/```yaml\n([\s\S]*?)```/.exec(section)![1]!) as Record<string, unknown>[];
    };
    const views = block('VIEW UPDATES');
    expect(Object.keys(views[0]!)).toEqual(['view_id', 'prior_confidence', 'updated_confidence', 'direction', 'scenario_changes', 'key_evidence']);
    expect(Object.keys((views[0]!.scenario_changes as Record<string, unknown>[])[0]!)).toEqual(['scenario', 'prior_probability', 'updated_probability']);
    const exprs = block('EXPRESSION IMPLICATIONS');
    expect(Object.keys(exprs[0]!)).toEqual(['expression_id', 'action', 'adjustment', 'urgency']);
  });

  it('the expression template carries the fields the guardrails check', () => {
    const t = loader.readResource('expression-design', 'templates/expression.md');
    const yaml = parseYaml(/```yaml\n([\s\S]*?)```/.exec(skillSection(t, 'EXPRESSION')!)![1]!) as Record<string, unknown>;
    expect(Object.keys(yaml)).toEqual(expect.arrayContaining(['view_id', 'notional', 'max_loss_pct', 'duration_impact', 'factor', 'stop', 'target']));
  });
});

describe('kelly.mjs', () => {
  it('binary bet: p = 0.6 at even odds is 20% full Kelly, half Kelly 10%, cut to 5% by the single-risk limit', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    // f* = p/loss − q/win = 0.6/1 − 0.4/1 = 0.2; half Kelly = 0.1; at 1.0 loss per unit 0.1 risks 10% NAV > 5% → 0.05.
    const r = kelly!({ probability: 0.6, win: 1, loss: 1 });
    expect(r.full_kelly).toBeCloseTo(0.2, 9);
    expect(r.fractional_kelly).toBeCloseTo(0.1, 9);
    expect(r.recommended).toBeCloseTo(0.05, 12);
    expect(r.capped_by).toBe('max_risk_pct');
    expect(r.capital_at_risk_pct).toBeCloseTo(5, 9);
    // growth at full Kelly: 0.6·ln 1.2 + 0.4·ln 0.8 = 0.6·0.1823216 − 0.4·0.2231436 = 0.0201355
    expect((r.log_growth as { full: number }).full).toBeCloseTo(0.0201355, 6);
  });

  it('stop/target trade: 55% to make 2 for 1 is 32.5% full Kelly; with a 20% risk budget half Kelly stands', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    // f* = 0.55/1 − 0.45/2 = 0.55 − 0.225 = 0.325; half = 0.1625; risk = 0.1625 × 1 = 16.25% ≤ 20% → uncapped.
    const r = kelly!({ probability: 0.55, win: 2, loss: 1, max_risk_pct: 20 });
    expect(r.full_kelly).toBeCloseTo(0.325, 9);
    expect(r.recommended).toBeCloseTo(0.1625, 9);
    expect(r.capped_by).toBeNull();
  });

  it('scenario outcomes: +20% / −10% at 50/50 gives 2.5× full Kelly (solved numerically)', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    // d/df [0.5 ln(1+0.2f) + 0.5 ln(1−0.1f)] = 0 → 0.1(1−0.1f) = 0.05(1+0.2f) → 0.1 − 0.01f = 0.05 + 0.01f → f = 2.5
    const r = kelly!({
      outcomes: [
        { probability: 0.5, return: 0.2 },
        { probability: 0.5, return: -0.1 },
      ],
      kelly_fraction: 0.25,
      max_risk_pct: 100,
    });
    expect(r.full_kelly).toBeCloseTo(2.5, 9);
    expect(r.recommended).toBeCloseTo(0.625, 9);
    expect(r.edge).toBeCloseTo(0.05, 12);
  });

  it('says do not trade when the edge is negative, and refuses probabilities that do not sum to 1', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    // edge = 0.4·1 − 0.6·1 = −0.2 → no bet
    const r = kelly!({ probability: 0.4, win: 1, loss: 1 });
    expect(r.full_kelly).toBe(0);
    expect(r.recommended).toBe(0);
    expect(() =>
      kelly!({
        outcomes: [
          { probability: 0.5, return: 0.1 },
          { probability: 0.4, return: -0.1 },
        ],
      }),
    ).toThrow(/sum to 0.9/);
  });
});

describe('kelly.mjs validates the binary and outcomes forms the same way', () => {
  it('a sure win is an error in both forms (Kelly would stake without limit), not a giant size', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    expect(() => kelly!({ probability: 1, win: 1, loss: 1 })).toThrow(/no outcome with a positive probability loses money/);
    expect(() =>
      kelly!({
        outcomes: [
          { probability: 0.7, return: 0.1 },
          { probability: 0.3, return: 0 },
        ],
      }),
    ).toThrow(/no outcome with a positive probability loses money/);
  });

  it('a loss worse than the capital deployed (a percent typed as a decimal) is refused in both forms', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    expect(() => kelly!({ probability: 0.6, win: 1, loss: 10 })).toThrow(/"loss" loses more than the capital deployed/);
    expect(() =>
      kelly!({
        outcomes: [
          { probability: 0.6, return: 0.1 },
          { probability: 0.4, return: -10 },
        ],
      }),
    ).toThrow(/outcomes\[1\]\.return loses more than the capital deployed/);
  });

  it('no edge gives size 0 with a reason in both forms; the binary form equals its two outcomes', async () => {
    const { kelly } = await importScript('expression-design/scripts/kelly.mjs');
    const binary = kelly!({ probability: 0.5, win: 0.1, loss: 0.1 });
    const outcomes = kelly!({
      outcomes: [
        { probability: 0.5, return: 0.1 },
        { probability: 0.5, return: -0.1 },
      ],
    });
    for (const r of [binary, outcomes]) {
      expect(r.full_kelly).toBe(0);
      expect(r.reason).toMatch(/no positive expected edge/);
    }
    const b = kelly!({ probability: 0.55, win: 2, loss: 1, max_risk_pct: 100 });
    const o = kelly!({
      outcomes: [
        { probability: 0.55, return: 2 },
        { probability: 0.45, return: -1 },
      ],
      max_risk_pct: 100,
    });
    expect(b.full_kelly).toBeCloseTo(o.full_kelly as number, 12);
    expect(b.recommended).toBeCloseTo(o.recommended as number, 12);
  });
});

describe('option-payoff.mjs', () => {
  it('long 100 call for 3: loses the premium below the strike, breaks even at 103, unbounded upside', async () => {
    const { optionPayoff } = await importScript('expression-design/scripts/option-payoff.mjs');
    const r = optionPayoff!({ legs: [{ type: 'call', strike: 100, premium: 3, quantity: 1 }], prices: [90, 100, 103, 110] });
    // payoff = max(S − 100, 0) − 3 → 90: −3, 100: −3, 103: 0, 110: 7
    expect((r.table as { payoff: number }[]).map((x) => x.payoff)).toEqual([-3, -3, 0, 7]);
    expect(r.breakevens).toEqual([103]);
    expect(r.max_loss).toBe(-3);
    expect(r.max_profit).toBe('unbounded');
  });

  it('100/110 call spread for a net 2 debit: max profit 8, max loss 2, breakeven 102, with a 1,000 multiplier', async () => {
    const { optionPayoff } = await importScript('expression-design/scripts/option-payoff.mjs');
    const r = optionPayoff!({
      legs: [
        { type: 'call', strike: 100, premium: 3, quantity: 1 },
        { type: 'call', strike: 110, premium: 1, quantity: -1 },
      ],
      prices: [95, 105, 120],
      multiplier: 1000,
    });
    // net premium = (3 − 1) × 1000 = 2000 debit; at 105: (5 − 3) + (0 + 1) = 3 → 3000; at 120: (20 − 3) − (10 − 1) = 8 → 8000
    expect(r.net_premium).toBe(2000);
    expect((r.table as { payoff: number }[]).map((x) => x.payoff)).toEqual([-2000, 3000, 8000]);
    expect(r.max_profit).toBe(8000);
    expect(r.max_loss).toBe(-2000);
    expect(r.breakevens).toEqual([102]);
    expect(r.reward_to_risk).toBe(4);
  });

  it('long 50 put for 2: worth 48 if the underlying goes to zero, breakeven 48; short call loss is unbounded', async () => {
    const { optionPayoff } = await importScript('expression-design/scripts/option-payoff.mjs');
    const put = optionPayoff!({ legs: [{ type: 'put', strike: 50, premium: 2, quantity: 1 }] });
    expect(put.max_profit).toBe(48); // (50 − 0) − 2
    expect(put.max_loss).toBe(-2);
    expect(put.breakevens).toEqual([48]);
    const short = optionPayoff!({ legs: [{ type: 'call', strike: 100, premium: 3, quantity: -1 }] });
    expect(short.max_loss).toBe('unbounded');
    expect(short.max_profit).toBe(3);
    expect(short.premium_side).toBe('credit');
  });
});

describe('scenario-tree.mjs', () => {
  it('flat tree: 60% at +10, 40% at −5 → EV 4, variance 54', async () => {
    const { scenarioTree } = await importScript('scenario-analysis/scripts/scenario-tree.mjs');
    // EV = 0.6·10 + 0.4·(−5) = 6 − 2 = 4; E[v²] = 0.6·100 + 0.4·25 = 70; var = 70 − 16 = 54
    const r = scenarioTree!({
      scenarios: [
        { name: 'up', probability: 0.6, value: 10 },
        { name: 'down', probability: 0.4, value: -5 },
      ],
      market_value: 1,
    });
    expect(r.expected_value).toBeCloseTo(4, 12);
    expect(r.variance).toBeCloseTo(54, 12);
    expect(r.edge_vs_market).toBeCloseTo(3, 12);
  });

  it('nested tree multiplies conditional probabilities: EV 0, variance 150, skew 0.8165', async () => {
    const { scenarioTree } = await importScript('scenario-analysis/scripts/scenario-tree.mjs');
    // leaves: A>A1 0.5·0.5 = 0.25 at 20, A>A2 0.25 at 0, B 0.5 at −10 → EV = 5 + 0 − 5 = 0
    // var = 0.25·400 + 0.5·100 = 150; third moment = 0.25·8000 − 0.5·1000 = 1500; skew = 1500 / 150^1.5 = 0.81650
    const r = scenarioTree!({
      scenarios: [
        {
          name: 'A',
          probability: 0.5,
          children: [
            { name: 'A1', probability: 0.5, value: 20 },
            { name: 'A2', probability: 0.5, value: 0 },
          ],
        },
        { name: 'B', probability: 0.5, value: -10 },
      ],
    });
    expect(r.expected_value).toBeCloseTo(0, 12);
    expect(r.variance).toBeCloseTo(150, 12);
    expect(r.skew).toBeCloseTo(0.816497, 6);
    expect(r.probability_negative).toBe(0.5);
    expect((r.worst as { path: string }).path).toBe('B');
    expect((r.leaves as { path: string; probability: number }[]).map((l) => [l.path, l.probability])).toEqual([
      ['A > A1', 0.25],
      ['A > A2', 0.25],
      ['B', 0.5],
    ]);
  });

  it('refuses branches whose probabilities do not sum to 1, naming the branch', async () => {
    const { scenarioTree } = await importScript('scenario-analysis/scripts/scenario-tree.mjs');
    expect(() =>
      scenarioTree!({
        scenarios: [
          {
            name: 'A',
            probability: 1,
            children: [
              { name: 'A1', probability: 0.5, value: 1 },
              { name: 'A2', probability: 0.4, value: 2 },
            ],
          },
        ],
      }),
    ).toThrow(/branches under "A" sum to 0.9/);
    // within tolerance: 0.1 + 0.2 + 0.7 is 1.0000000000000002 in floating point and is accepted
    expect(() => scenarioTree!({ scenarios: [0.1, 0.2, 0.7].map((p, i) => ({ name: `s${i}`, probability: p, value: i })) })).not.toThrow();
  });
});

describe('zscore.mjs', () => {
  it('series 1..5: mean 3, stdev 1.5811, current z 1.2649, 100th percentile, no mean reversion', async () => {
    const { zscore } = await importScript('rv-analysis/scripts/zscore.mjs');
    // mean = 15/5 = 3; sample var = (4+1+0+1+4)/4 = 2.5; sd = 1.58114; z = (5 − 3)/1.58114 = 1.26491
    // AR(1) on (1,2),(2,3),(3,4),(4,5): slope 1 → not mean-reverting
    const r = zscore!({ series: [1, 2, 3, 4, 5] });
    expect(r.mean).toBe(3);
    expect(r.stdev).toBeCloseTo(1.581139, 6);
    expect(r.z).toBeCloseTo(1.264911, 6);
    expect(r.percentile).toBe(100);
    expect((r.ar1 as { half_life: number | null }).half_life).toBeNull();
  });

  it('AR(1) half-life: a spread that keeps 80% of its deviation each day halves in 3.106 days', async () => {
    const { zscore } = await importScript('rv-analysis/scripts/zscore.mjs');
    // s_t = 0.8·s_{t−1} exactly → phi = 0.8, half-life = ln 0.5 / ln 0.8 = −0.693147 / −0.223144 = 3.10628
    const r = zscore!({ series: [100, 80, 64, 51.2, 40.96] });
    const ar1 = r.ar1 as { phi: number; half_life: number };
    expect(ar1.phi).toBeCloseTo(0.8, 9);
    expect(ar1.half_life).toBeCloseTo(3.10628, 4);
    expect(r.percentile).toBe(20); // the current 40.96 is the lowest of five
  });

  it('pair spread with a least-squares hedge ratio: a = 2b + noise gives a ratio near 2', async () => {
    const { zscore } = await importScript('rv-analysis/scripts/zscore.mjs');
    // b = 1..6, a = 2b + [0.1, −0.1, 0.1, −0.1, 0.1, −0.1]; Σ(b−3.5)² = 17.5; Σ(b−3.5)·noise = −0.25+0.15−0.05−0.05+0.15−0.25 = −0.3;
    // slope = (2·17.5 − 0.3)/17.5 = 34.7/17.5 = 1.982857
    const b = [1, 2, 3, 4, 5, 6];
    const a = b.map((x, i) => 2 * x + (i % 2 === 0 ? 0.1 : -0.1));
    const r = zscore!({ a, b, hedge_ratio: 'ols' });
    expect(r.hedge_ratio).toBeCloseTo(1.982857, 6);
    expect(r.n).toBe(6);
    expect(() => zscore!({ a: [1, 2], b: [1, 2, 3] })).toThrow(/must align/);
  });
});

describe('zscore.mjs claims mean reversion only when the ADF test rejects a unit root', () => {
  // The same seeded generator the analytics library's tests use (mulberry32 + Box–Muller), so runs repeat exactly.
  function rng(seed: number) {
    let state = seed >>> 0;
    let spare: number | null = null;
    const uniform = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return () => {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      const u = Math.max(uniform(), 1e-300);
      const v = uniform();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    };
  }

  it('of 200 random walks (n = 250) at most 10% are called mean-reverting — the half-life alone (|phi| < 1) calls most of them', async () => {
    const { zscore } = await importScript('rv-analysis/scripts/zscore.mjs');
    const normal = rng(20240611);
    let called = 0;
    let finiteHalfLife = 0;
    for (let i = 0; i < 200; i++) {
      const y = [100];
      for (let t = 1; t < 250; t++) y.push(y[t - 1]! + normal());
      const r = zscore!({ series: y });
      if (r.mean_reverting) called++;
      if ((r.ar1 as { half_life: number | null }).half_life !== null) finiteHalfLife++;
    }
    expect(called).toBeLessThanOrEqual(20);
    expect(finiteHalfLife).toBeGreaterThan(150); // what the half-life alone would have claimed
  });

  it('of 200 AR(1) spreads with phi = 0.8 (n = 250) at least 90% are called mean-reverting', async () => {
    const { zscore } = await importScript('rv-analysis/scripts/zscore.mjs');
    const normal = rng(8);
    let called = 0;
    for (let i = 0; i < 200; i++) {
      let x = normal() / 0.6;
      const y: number[] = [];
      for (let t = 0; t < 250; t++) {
        y.push(50 + x);
        x = 0.8 * x + normal();
      }
      const r = zscore!({ series: y });
      if (r.mean_reverting) called++;
      expect((r.ar1 as { mean_reverting: boolean }).mean_reverting).toBe(r.mean_reverting);
    }
    expect(called).toBeGreaterThanOrEqual(180);
  });

  it('reports the test: tau, MacKinnon critical values for its sample, lags, and why reversion is not claimed', async () => {
    const { zscore } = await importScript('rv-analysis/scripts/zscore.mjs');
    const trend = Array.from({ length: 120 }, (_, t) => t + ((t * 13) % 7) / 7);
    const r = zscore!({ series: trend, adf_lags: 2 });
    const adf = r.adf as { statistic: number; lags: number; nobs: number; critical_values: Record<string, number>; rejects_unit_root: Record<string, boolean> };
    expect(adf.lags).toBe(2);
    expect(adf.nobs).toBe(117); // 119 changes, 2 lost to the lags
    // MacKinnon (2010): −2.86154 − 2.8903/117 − 4.234/117² − 40.04/117³ = −2.86154 − 0.024703 − 0.000309 − 0.000025 = −2.886578
    expect(adf.critical_values['5%']).toBeCloseTo(-2.886578, 6);
    expect(r.mean_reverting).toBe(false);
    expect((r.notes as string[]).some((n) => /ADF does not reject a unit root at 5%/.test(n))).toBe(true);
    expect(() => zscore!({ series: trend, adf_level: '2%' })).toThrow(/"adf_level" must be/);
  });
});

describe('the skill scripts through the sandboxed runner', () => {
  const loader = new SkillLoader(SKILLS_ROOT);
  it('each script runs as a child process and returns its numbers', async () => {
    const run = (skill: string, script: string, input: unknown) => runSkillScript({ skillDir: loader.find(skill)!.dir, script, input });
    const [k, o, s, z] = await Promise.all([
      run('expression-design', 'kelly.mjs', { probability: 0.6, win: 1, loss: 1, max_risk_pct: 100 }),
      run('expression-design', 'option-payoff.mjs', { legs: [{ type: 'call', strike: 100, premium: 3, quantity: 1 }], prices: [110] }),
      run('scenario-analysis', 'scenario-tree.mjs', {
        scenarios: [
          { name: 'up', probability: 0.6, value: 10 },
          { name: 'down', probability: 0.4, value: -5 },
        ],
      }),
      run('rv-analysis', 'zscore.mjs', { series: [1, 2, 3, 4, 5] }),
    ]);
    expect((k.output as { recommended: number }).recommended).toBeCloseTo(0.1, 9);
    expect((o.output as { table: { payoff: number }[] }).table[0]!.payoff).toBe(7);
    expect((s.output as { expected_value: number }).expected_value).toBeCloseTo(4, 12);
    expect((z.output as { percentile: number }).percentile).toBe(100);
    const bad = await runSkillScript({
      skillDir: loader.find('scenario-analysis')!.dir,
      script: 'scenario-tree.mjs',
      input: { scenarios: [{ name: 'x', probability: 0.9, value: 1 }] },
    }).catch((e: { code: string; message: string }) => e);
    expect(bad).toMatchObject({ code: 'invalid_input' });
    // by skill name, in the seed's underscore spelling; a missing script names the ones that exist
    const byName = await runScriptOfSkill(loader, 'rv_analysis', 'zscore.mjs', { series: [16, 8, 4, 2, 1] });
    expect((byName.output as { ar1: { half_life: number } }).ar1.half_life).toBeCloseTo(1, 12); // phi = 0.5 → ln .5/ln .5 = 1
    await expect(runScriptOfSkill(loader, 'expression-design', 'black-scholes.mjs', {})).rejects.toThrow(
      /Its scripts: scripts\/kelly.mjs, scripts\/option-payoff.mjs/,
    );
    expect((bad as { message: string }).message).toMatch(/sum to 0.9; they must sum to 1/);
  });
});
