/**
 * Generates the search evaluation set: macro notes (Views, Observations, Process Knowledge) and
 * queries with graded relevance. Run: `npx tsx resources/eval/generate.ts` (deterministic; the
 * output JSON is committed next to this file).
 *
 * Grades follow from construction, never from a search run. Every note has a topic, a subtopic and
 * the instruments/entities it names; every query targets one subtopic (and sometimes one entity):
 *   3 = same subtopic and names the query's entity (or the query names none)
 *   2 = same subtopic, another entity
 *   1 = same topic, another subtopic
 *   0 = anything else
 * Queries are phrased partly with the notes' words and partly with paraphrases, so keyword and
 * vector search each have something to get right.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Subtopic {
  key: string;
  titles: string[];
  /** Sentences; {E} is the entity, {N} a number, {M} a month. */
  lines: string[];
  queries: { text: string; entity?: boolean }[];
}
interface Topic {
  key: string;
  entities: string[];
  subs: Subtopic[];
}

const TOPICS: Topic[] = [
  { key: 'us-rates', entities: ['UST 2y', 'UST 10y', 'SOFR futures', 'Fed funds'], subs: [
    { key: 'fed-cuts', titles: ['Fed easing path', 'Cuts priced for {M}', 'Dovish Fed read-through'],
      lines: ['Market now prices {C} cuts through {M}; {E} rallied on softer labour data.', 'Powell leaned towards the employment side of the mandate, supporting {E}.', 'Risk is that the Fed front-loads easing if claims keep rising.', 'Receiving {E} still offers carry if cuts arrive on schedule.'],
      queries: [{ text: 'Fed rate cuts pricing {E}', entity: true }, { text: 'central bank easing sooner than expected in the US' }] },
    { key: 'curve-steepener', titles: ['{E} curve steepener', '2s10s steepening trade', 'Bull steepening into cuts'],
      lines: ['2s10s steepened {N}bp as the front end rallied harder than {E}.', 'Term premium rebuilds when supply rises; the long end lags.', 'The steepener works in both a cutting cycle and a fiscal scare.', 'Entry on {E} after the auction tail; stop if the curve re-inverts.'],
      queries: [{ text: 'yield curve steepening {E}', entity: true }, { text: 'long end underperforming front end, term premium' }] },
    { key: 'treasury-supply', titles: ['Refunding and coupon supply', 'Auction tails in {E}', 'Treasury issuance pressure'],
      lines: ['The refunding raised coupon sizes again; {E} auction tailed {N}bp.', 'Dealer balance sheets are full and swap spreads moved more negative.', 'Bills share of issuance is falling, pushing duration supply to the market.', 'Indirect bidders were weak at the {E} auction.'],
      queries: [{ text: 'auction tail weak demand {E}', entity: true }, { text: 'too much government bond issuance hitting dealers' }] },
  ]},
  { key: 'eur-rates', entities: ['Bund', 'BTP', 'OAT', 'Schatz'], subs: [
    { key: 'ecb-policy', titles: ['ECB on hold', 'ECB cut debate', 'Lagarde press conference read'],
      lines: ['The ECB kept the deposit rate at {N}% and signalled patience.', 'Hawks on the council push back on another cut while services inflation stays sticky.', '{E} yields rose after the press conference.', 'Forward guidance remains meeting by meeting.'],
      queries: [{ text: 'ECB deposit rate decision {E}', entity: true }, { text: 'European central bank patience on easing' }] },
    { key: 'periphery-spreads', titles: ['{E}-Bund spread', 'Periphery spread compression', 'Italian spread risk'],
      lines: ['{E} spread to Bunds tightened {N}bp on strong auction demand.', 'Fiscal slippage in the budget is the main risk to the periphery trade.', 'Real money keeps adding periphery as carry beats core.', 'Rating agency review in {M} is the next catalyst for {E}.'],
      queries: [{ text: '{E} spread versus Bunds', entity: true }, { text: 'southern European sovereign spreads compressing' }] },
    { key: 'german-fiscal', titles: ['German fiscal expansion', 'Debt brake reform and Bunds', 'Bund supply jump'],
      lines: ['The debt brake reform opens room for defence and infrastructure spending.', '{E} cheapened {N}bp versus swaps on the supply outlook.', 'A larger issuance calendar steepens the German curve.', 'Fiscal impulse lifts growth forecasts for next year.'],
      queries: [{ text: 'German debt brake spending {E}', entity: true }, { text: 'Berlin borrowing more for defence' }] },
  ]},
  { key: 'fx-majors', entities: ['EURUSD', 'USDJPY', 'GBPUSD', 'DXY'], subs: [
    { key: 'dollar-strength', titles: ['Dollar bid on growth gap', 'USD upside', '{E} lower on US exceptionalism'],
      lines: ['US growth outperformance keeps the dollar supported; {E} broke support.', 'Rate differentials moved {N}bp in favour of USD.', 'Positioning in long dollar is not yet stretched.', 'A strong payroll print would extend the move in {E}.'],
      queries: [{ text: 'USD strength rate differentials {E}', entity: true }, { text: 'greenback rally on American outperformance' }] },
    { key: 'yen-intervention', titles: ['MoF intervention risk', 'Yen weakness near 160', 'BoJ and the yen'],
      lines: ['{E} near the line where the Ministry of Finance stepped in last time.', 'Verbal warnings escalated; actual intervention risk is rising.', 'The BoJ may hike {N}bp to slow yen weakness.', 'Carry still favours short yen until intervention.'],
      queries: [{ text: 'Japan intervention to support the yen {E}', entity: true }, { text: 'Tokyo stepping in on currency weakness' }] },
    { key: 'sterling', titles: ['Sterling and the BoE', '{E} on UK data', 'Gilt-sterling link'],
      lines: ['UK wage growth at {N}% keeps the BoE cautious; {E} firmer.', 'Fiscal event risk links gilts and sterling again.', 'Services inflation remains the BoE focus.', 'Sterling carry attracts inflows while volatility stays low.'],
      queries: [{ text: 'Bank of England wages pound {E}', entity: true }, { text: 'British currency and UK inflation' }] },
  ]},
  { key: 'commodities-energy', entities: ['Brent', 'WTI', 'TTF', 'Henry Hub'], subs: [
    { key: 'opec-supply', titles: ['OPEC+ supply decision', 'OPEC quota unwind', 'Saudi production policy'],
      lines: ['OPEC+ agreed to add {N}k barrels per day from {M}; {E} fell.', 'Spare capacity is high, capping the upside.', 'Compliance among members is slipping.', 'Saudi Arabia wants market share back.'],
      queries: [{ text: 'OPEC production increase {E}', entity: true }, { text: 'oil cartel adding barrels' }] },
    { key: 'oil-curve', titles: ['{E} backwardation', 'Oil time spreads', 'Inventory draw and the curve'],
      lines: ['{E} prompt spreads widened to {N} dollars backwardation.', 'Cushing inventories drew for a fifth week.', 'Refinery margins are strong going into driving season.', 'A contango would signal the surplus has arrived.'],
      queries: [{ text: '{E} backwardation time spreads', entity: true }, { text: 'crude stocks drawing, prompt tightness' }] },
    { key: 'natgas', titles: ['European gas storage', '{E} and winter risk', 'LNG flows'],
      lines: ['EU storage is {N}% full ahead of winter; {E} eased.', 'LNG cargoes diverted to Asia tighten Europe.', 'A cold winter would drain storage quickly.', 'Norwegian maintenance lifts {E} near term.'],
      queries: [{ text: 'natural gas storage winter {E}', entity: true }, { text: 'LNG cargoes and heating season risk' }] },
  ]},
  { key: 'metals', entities: ['copper', 'gold', 'iron ore', 'aluminium'], subs: [
    { key: 'china-demand', titles: ['China stimulus and metals', '{E} on Chinese demand', 'Property drag on metals'],
      lines: ['Beijing announced stimulus worth {N}bn; {E} rallied.', 'Property starts keep falling, weighing on steel demand.', 'Grid investment supports {E} consumption.', 'Import data for {M} will show whether restocking is real.'],
      queries: [{ text: 'Chinese stimulus metals demand {E}', entity: true }, { text: 'Beijing infrastructure spending and industrial commodities' }] },
    { key: 'gold-reserves', titles: ['Central bank gold buying', 'Gold breakout', 'Real yields and gold'],
      lines: ['Central banks bought {N} tonnes last quarter.', 'Gold decoupled from real yields as reserve managers diversify.', 'ETF holdings turned up for the first time in months.', 'A Fed cutting cycle adds to the case for {E}.'],
      queries: [{ text: 'central bank purchases of gold reserves', entity: true }, { text: 'bullion decoupling from real rates' }] },
    { key: 'supply-disruption', titles: ['Mine supply disruption', '{E} supply shock', 'Smelter cuts'],
      lines: ['A major mine halted output; {E} jumped {N}%.', 'Concentrate treatment charges collapsed, showing tight supply.', 'Smelters in China agreed to cut output.', 'Strikes in Chile add to disruption risk for {E}.'],
      queries: [{ text: 'mine outage supply shock {E}', entity: true }, { text: 'smelter output cuts and tight concentrate' }] },
  ]},
  { key: 'em', entities: ['USDMXN', 'USDBRL', 'USDZAR', 'USDTRY'], subs: [
    { key: 'em-carry', titles: ['EM carry basket', 'High yielders and carry', '{E} carry trade'],
      lines: ['Implied yield on {E} still {N}% above funding.', 'Low volatility supports high-carry EM FX.', 'Carry trades unwind fast when VIX spikes.', 'Fund the basket in low yielders to reduce USD beta.'],
      queries: [{ text: 'emerging market carry trade {E}', entity: true }, { text: 'high yielding currencies funded cheaply' }] },
    { key: 'em-politics', titles: ['Election risk', 'Fiscal credibility in EM', '{E} on politics'],
      lines: ['Election polls tightened; {E} weakened {N}%.', 'The fiscal framework lost credibility after the budget.', 'Judicial reform headlines hit local assets.', 'Political noise gives a better entry on {E}.'],
      queries: [{ text: 'election and fiscal risk {E}', entity: true }, { text: 'political uncertainty in developing markets' }] },
    { key: 'em-central-banks', titles: ['EM central bank cuts', 'Orthodox tightening', 'Real rates in EM'],
      lines: ['The central bank cut {N}bp, more than expected; {E} sold off.', 'Real policy rates remain very high, leaving room to ease.', 'An orthodox hike restored credibility.', 'Inflation expectations are re-anchoring.'],
      queries: [{ text: 'emerging market central bank rate cut {E}', entity: true }, { text: 'real policy rates and disinflation in developing economies' }] },
  ]},
  { key: 'credit', entities: ['CDX IG', 'CDX HY', 'iTraxx Main', 'iTraxx Crossover'], subs: [
    { key: 'spread-widening', titles: ['Credit spreads widen', '{E} wider on growth scare', 'Credit lagging equities'],
      lines: ['{E} widened {N}bp as growth data disappointed.', 'Credit is lagging the equity rebound, a warning sign.', 'Outflows from high yield funds continued.', 'Protection via {E} is cheap relative to equity vol.'],
      queries: [{ text: 'credit spreads widening {E}', entity: true }, { text: 'corporate bond risk premium rising' }] },
    { key: 'defaults', titles: ['Default cycle', 'Distress in leveraged loans', 'Downgrade wave'],
      lines: ['Default rates rose to {N}% in leveraged loans.', 'CCC names are where the stress shows first.', 'Rating downgrades clustered in consumer sectors.', 'Recoveries are lower than last cycle.'],
      queries: [{ text: 'defaults rising leveraged loans {E}', entity: true }, { text: 'bankruptcies and distressed borrowers increasing' }] },
    { key: 'issuance', titles: ['Heavy IG issuance', 'Primary market supply', 'Issuance calendar'],
      lines: ['Record issuance of {N}bn this week; books still covered.', 'New issue concessions widened slightly.', 'Hyperscalers are funding capex in the bond market.', 'Supply pressure weighs on {E} near term.'],
      queries: [{ text: 'new bond issuance supply {E}', entity: true }, { text: 'companies borrowing heavily in primary markets' }] },
  ]},
  { key: 'us-macro', entities: ['payrolls', 'CPI', 'retail sales', 'ISM'], subs: [
    { key: 'labour', titles: ['Labour market cooling', 'Payrolls and claims', 'Unemployment drifting up'],
      lines: ['Nonfarm payrolls rose {N}k, below consensus.', 'Continuing claims keep climbing.', 'The unemployment rate ticked up; Sahm rule watchers take note.', 'Wage growth is slowing, easing inflation risk.'],
      queries: [{ text: 'jobs report unemployment claims', entity: true }, { text: 'hiring slowing and workers losing jobs' }] },
    { key: 'inflation', titles: ['Inflation print', 'Core services sticky', 'Goods disinflation'],
      lines: ['Core CPI rose {N}% m/m, services ex-housing firm.', 'Goods prices are deflating as supply chains normalise.', 'Shelter inflation is finally slowing.', 'Tariff pass-through could lift core goods.'],
      queries: [{ text: 'CPI core services inflation', entity: true }, { text: 'prices rising faster than expected' }] },
    { key: 'consumer', titles: ['Consumer slowdown', 'Retail sales miss', 'Spending and savings'],
      lines: ['Retail sales fell {N}% with control group weak.', 'Lower income households are cutting discretionary spending.', 'The savings rate is low, limiting the buffer.', 'Card data points to softer holiday spending.'],
      queries: [{ text: 'consumer weakness retail sales', entity: true }, { text: 'households spending less, shoppers pulling back' }] },
  ]},
  { key: 'positioning', entities: ['CTA', 'leveraged funds', 'asset managers', 'retail'], subs: [
    { key: 'crowded-trades', titles: ['Crowded long', 'Positioning stretched', 'Everyone on the same side'],
      lines: ['{E} positioning is at the {N}th percentile, very stretched.', 'A crowded trade means asymmetric downside on any surprise.', 'CFTC data shows the largest net long in years.', 'Flows desk says {E} are all in.'],
      queries: [{ text: 'crowded positioning stretched {E}', entity: true }, { text: 'too many investors on one side of a trade' }] },
    { key: 'systematic-flows', titles: ['CTA flows', 'Vol control selling', 'Systematic deleveraging'],
      lines: ['CTAs flip to selling below the {N}-day average.', 'Vol-control funds cut exposure as realised vol rose.', 'Trend followers are max long bonds.', 'Systematic supply could exacerbate the drop.'],
      queries: [{ text: 'trend followers systematic selling {E}', entity: true }, { text: 'quant funds deleveraging on volatility' }] },
    { key: 'squeeze', titles: ['Short squeeze', 'Short covering rally', 'Pain trade higher'],
      lines: ['Shorts covered fast; the move extended {N}% in two days.', 'The pain trade is higher with shorts still large.', '{E} were caught offside after the data.', 'Squeezes fade once covering is done.'],
      queries: [{ text: 'short squeeze covering {E}', entity: true }, { text: 'bears forced to buy back' }] },
  ]},
  { key: 'process', entities: ['sizing', 'stops', 'entry timing', 'review'], subs: [
    { key: 'sizing-lessons', titles: ['Lesson: size to conviction', 'Position sizing mistake', 'Half size into events'],
      lines: ['I sized at full risk into a binary event and gave back {N}bp of P&L.', 'Size should scale with conviction and liquidity, not with recent wins.', 'Starting at half size and adding on confirmation worked better.', 'Risk per trade above {N}% of budget hurt drawdowns.'],
      queries: [{ text: 'lessons on position sizing', entity: true }, { text: 'how big to make a trade before an event' }] },
    { key: 'stop-discipline', titles: ['Lesson: respect stops', 'Stop placement', 'Moving stops is a mistake'],
      lines: ['Moving the stop wider turned a small loss into a {N}bp loss.', 'Stops belong beyond the range, not at round numbers.', 'When the invalidation triggers, exit and re-assess.', 'Mental stops failed in fast markets.'],
      queries: [{ text: 'stop loss discipline lessons', entity: true }, { text: 'cutting losers when the thesis is invalidated' }] },
    { key: 'timing', titles: ['Lesson: early is wrong', 'Entry timing', 'Waiting for the catalyst'],
      lines: ['Right view, wrong timing: carry bled {N}bp before the move.', 'Waiting for the catalyst saved money on the last three trades.', 'Options let me be early without bleeding too much.', 'Entering after confirmation gives up a little but avoids chop.'],
      queries: [{ text: 'entry timing too early lessons', entity: true }, { text: 'being right too soon costs carry' }] },
  ]},
  { key: 'asia', entities: ['USDCNH', 'KOSPI', 'Nikkei', 'CGB'], subs: [
    { key: 'china-policy', titles: ['PBoC easing', 'China policy support', 'RRR cut'],
      lines: ['The PBoC cut the RRR by {N}bp; {E} reacted modestly.', 'Fiscal support is back-loaded and smaller than hoped.', 'Credit growth remains weak despite easing.', 'Deflation pressure persists in producer prices.'],
      queries: [{ text: 'PBoC easing China policy {E}', entity: true }, { text: 'Chinese authorities supporting the economy' }] },
    { key: 'japan-equities', titles: ['Japan equities and governance', 'Nikkei at highs', 'Corporate reform in Japan'],
      lines: ['Buybacks hit a record as governance reform continues; {E} up {N}%.', 'Foreign investors keep adding Japan equities.', 'A stronger yen is the main risk for exporters.', 'Cross-shareholding unwinds release capital.'],
      queries: [{ text: 'Japanese stocks governance buybacks {E}', entity: true }, { text: 'Tokyo corporate reform driving shares' }] },
    { key: 'tech-cycle', titles: ['Semiconductor cycle', 'Korea exports and chips', 'AI demand for memory'],
      lines: ['Korean chip exports rose {N}% y/y on AI demand.', 'Memory prices are recovering sharply.', 'Inventory restocking is nearly done, watch for a peak.', '{E} tracks the chip cycle closely.'],
      queries: [{ text: 'semiconductor exports memory prices {E}', entity: true }, { text: 'AI hardware demand boosting Asian chipmakers' }] },
  ]},
  { key: 'geopolitics', entities: ['Middle East', 'Russia', 'Taiwan', 'tariffs'], subs: [
    { key: 'trade-war', titles: ['Tariff escalation', 'Trade war risk', 'Tariffs and inflation'],
      lines: ['New tariffs of {N}% announced on imports; risk assets dipped.', 'Retaliation is likely to target agriculture.', 'Tariffs lift goods inflation but hit growth.', 'Supply chains are rerouting through third countries.'],
      queries: [{ text: 'tariff escalation trade war', entity: true }, { text: 'import duties and retaliation between countries' }] },
    { key: 'conflict-risk', titles: ['Conflict risk premium', 'Shipping disruption', 'Oil risk premium from conflict'],
      lines: ['Strikes in the {E} region added a risk premium to oil.', 'Shipping through the strait is being rerouted, lifting freight {N}%.', 'Hedging with gold and vol is cheaper than exiting risk.', 'Escalation scenarios put oil above 100.'],
      queries: [{ text: 'geopolitical conflict risk premium {E}', entity: true }, { text: 'war and shipping routes disrupted' }] },
    { key: 'sanctions', titles: ['Sanctions impact', 'Energy sanctions', 'Secondary sanctions risk'],
      lines: ['New sanctions target {E} energy exports.', 'Secondary sanctions would hit buyers of discounted crude.', 'Enforcement has been loose, limiting the supply effect.', 'Shadow fleet tankers carry {N}% of exports.'],
      queries: [{ text: 'sanctions on energy exports {E}', entity: true }, { text: 'penalties on oil buyers and shadow fleet' }] },
  ]},
];

const MONTHS = ['January', 'March', 'June', 'September', 'December'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}
const r = rng(2026);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const fill = (s: string, e: string) => s.replace(/\{E\}/g, e).replace(/\{C\}/g, () => String(2 + Math.floor(r() * 4))).replace(/\{N\}/g, () => String(Math.floor(5 + r() * 90))).replace(/\{M\}/g, () => pick(MONTHS));

interface EvalNote {
  id: string;
  category: 'views' | 'observations' | 'pk';
  title: string;
  header: Record<string, string | number>;
  body: string;
  date: string;
  topic: string;
  subtopic: string;
  entity: string;
}

const notes: EvalNote[] = [];
const counters = { views: 0, observations: 0, pk: 0 };
const prefix = { views: 'V', observations: 'O', pk: 'PK' } as const;
for (const topic of TOPICS) {
  for (const sub of topic.subs) {
    // 9 notes per subtopic: 2 Views, 5 Observations, 2 PK; entities rotate so each subtopic covers several.
    const plan: EvalNote['category'][] = ['views', 'views', 'observations', 'observations', 'observations', 'observations', 'observations', 'pk', 'pk'];
    plan.forEach((category, i) => {
      const entity = topic.entities[(i + topic.subs.indexOf(sub)) % topic.entities.length];
      const n = ++counters[category];
      const id = `${prefix[category]}-${String(n).padStart(3, '0')}`;
      const lines = [...sub.lines].sort(() => r() - 0.5).slice(0, category === 'observations' ? 2 : 3).map((l) => fill(l, entity));
      const title = category === 'pk' ? `Lesson from ${entity}: ${fill(pick(sub.titles), entity).replace(/^Lesson: /, '').toLowerCase()}` : fill(pick(sub.titles), entity);
      const date = new Date(Date.UTC(2025, 0, 1) + Math.floor(r() * 500) * 86_400_000).toISOString().slice(0, 10);
      let header: Record<string, string | number>;
      let body: string;
      if (category === 'views') {
        header = { status: pick(['active', 'active', 'monitoring', 'closed']), confidence: Number((0.4 + r() * 0.45).toFixed(2)), scope: topic.key.replace('-', ' '), instruments: entity };
        body = `## SUMMARY\n${lines[0]}\n\n## THESIS\n${lines.slice(1).join(' ')}\n\n## INVALIDATION\n- ${pick(['The data turns the other way for two months.', 'Positioning flips to the other side.', 'Policy makers push back explicitly.'])}`;
      } else if (category === 'pk') {
        header = { weight: Number((0.2 + r() * 0.7).toFixed(2)), category: pick(['sizing', 'timing', 'risk', 'process']), instruments: entity };
        body = `## LESSON\n${lines.join(' ')}\n\n## APPLIES WHEN\nTrading ${entity} around ${sub.key.replace(/-/g, ' ')}.`;
      } else {
        header = { source: pick(['desk', 'data', 'research', 'news']), instruments: entity };
        body = lines.join(' ');
      }
      notes.push({ id, category, title, header, body, date, topic: topic.key, subtopic: sub.key, entity });
    });
  }
}

interface EvalQuery {
  id: string;
  query: string;
  scope: string;
  topic: string;
  subtopic: string;
  entity: string | null;
  /** note id → grade (1–3); unlisted notes are 0. */
  relevance: Record<string, number>;
}

function grade(n: EvalNote, topic: string, sub: string, entity: string | null): number {
  if (n.subtopic === sub) return entity === null || n.entity === entity ? 3 : 2;
  return n.topic === topic ? 1 : 0;
}

const queries: EvalQuery[] = [];
for (const topic of TOPICS) {
  for (const sub of topic.subs) {
    sub.queries.forEach((q, i) => {
      const entity = q.entity ? topic.entities[(topic.subs.indexOf(sub) + i) % topic.entities.length] : null;
      const text = q.text.includes('{E}') && entity ? q.text.replace('{E}', entity) : q.text.replace(' {E}', '');
      const scope = i === 1 && queries.length % 3 === 0 ? '/memory/views/' : '/memory/';
      const pool = notes.filter((n) => scope === '/memory/' || n.category === 'views');
      const relevance: Record<string, number> = {};
      for (const n of pool) {
        const g = grade(n, topic.key, sub.key, entity);
        if (g) relevance[n.id] = g;
      }
      queries.push({ id: `Q-${String(queries.length + 1).padStart(3, '0')}`, query: text, scope, topic: topic.key, subtopic: sub.key, entity, relevance });
    });
  }
}

const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, 'notes.json'), JSON.stringify(notes, null, 1) + '\n');
writeFileSync(join(here, 'queries.json'), JSON.stringify(queries, null, 1) + '\n');
console.log(`${notes.length} notes, ${queries.length} queries`);
