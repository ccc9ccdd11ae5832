/**
 * A public IR test collection with graded judgements, read from a folder the user fetched (never
 * committed: see resources/eval/README.md for names, licences and where to get them). Two layouts:
 *
 * - Cranfield 1400: `cran.all.1400`, `cran.qry`, `cranqrel` (SMART format, as distributed by the
 *   University of Glasgow IR group).
 * - BEIR: `corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv` (e.g. NFCorpus, TREC-COVID, SciFact).
 *
 * Grades are mapped to gains (0 = not relevant) explicitly, per collection; nDCG uses 2^gain − 1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../src-main/common/errors';

export interface IrDoc {
  id: string;
  title: string;
  text: string;
}
export interface IrQuery {
  id: string;
  text: string;
}
export interface IrCollection {
  name: string;
  docs: IrDoc[];
  /** Only queries with at least one relevant document (gain > 0) are kept: the others cannot score. */
  queries: IrQuery[];
  /** Query id → document id → gain (> 0; documents judged not relevant are left out). */
  qrels: Map<string, Record<string, number>>;
  /** How the collection's grades became gains, printed with the figures. */
  gradeMapping: string;
}

/**
 * Cranfield relevance codes as the qrels' own readme defines them (Cleverdon): 1 = a complete answer,
 * 2 = high relevance, 3 = useful background, 4 = minimum interest, −1 = no interest. Gain = 5 − code,
 * so a complete answer weighs most. (ir_datasets reads the same codes with the scale reversed; the
 * readme shipped with the file is followed here.)
 */
export const CRANFIELD_GRADES = 'cranqrel code 1→gain 4, 2→3, 3→2, 4→1, −1/5→0 (not relevant)';
export function cranfieldGain(code: number): number {
  return code >= 1 && code <= 4 ? 5 - code : 0;
}

/** BEIR qrels are already gains (0 = judged not relevant; NFCorpus uses 1–2, TREC-COVID 1–2). */
export const BEIR_GRADES = 'BEIR qrels score used as the gain (0 or below = not relevant)';

/** Splits SMART-format text (`.I n` starts a record, `.X` starts field X) into records of fields. */
function smartRecords(text: string, what: string): { id: string; fields: Record<string, string> }[] {
  const out: { id: string; fields: Record<string, string> }[] = [];
  let field = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const start = /^\.I\s+(\d+)\s*$/.exec(line);
    if (start) {
      out.push({ id: String(Number(start[1])), fields: {} });
      field = '';
      continue;
    }
    const marker = /^\.([A-Z])\s*$/.exec(line);
    if (marker) {
      field = marker[1];
      continue;
    }
    const rec = out.at(-1);
    if (!rec) {
      if (line.trim()) throw new InvalidInputError(`${what} does not start with an ".I <number>" line; is this a Cranfield file?`);
      continue;
    }
    if (field) rec.fields[field] = rec.fields[field] ? `${rec.fields[field]} ${line.trim()}` : line.trim();
  }
  return out;
}

export function parseCranfieldDocs(text: string): IrDoc[] {
  return smartRecords(text, 'cran.all.1400').map((r) => ({ id: r.id, title: (r.fields.T ?? '').trim(), text: (r.fields.W ?? '').trim() }));
}

/**
 * Queries in file order. cranqrel numbers queries 1..225 by their position in cran.qry, not by the
 * `.I` number (which skips: 1, 2, 4, 8, 9, …), so the id here is the position.
 */
export function parseCranfieldQueries(text: string): IrQuery[] {
  return smartRecords(text, 'cran.qry').map((r, i) => ({ id: String(i + 1), text: (r.fields.W ?? '').trim() }));
}

/** Parses `query doc code` lines; a line that is not three integers is refused with its number. */
export function parseCranfieldQrels(text: string): Map<string, Record<string, number>> {
  const qrels = new Map<string, Record<string, number>>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const parts = line.split(/\s+/);
    if (parts.length !== 3 || !parts.every((p) => /^-?\d+$/.test(p))) {
      throw new InvalidInputError(`cranqrel line ${i + 1} is "${line.slice(0, 60)}"; expected three numbers: query, document, relevance code.`);
    }
    const gain = cranfieldGain(Number(parts[2]));
    if (gain <= 0) return;
    const q = String(Number(parts[0]));
    const rel = qrels.get(q) ?? {};
    rel[String(Number(parts[1]))] = gain;
    qrels.set(q, rel);
  });
  return qrels;
}

function jsonLines<T>(text: string, what: string): T[] {
  return text
    .split(/\r?\n/)
    .map((l, i) => ({ l: l.trim(), i }))
    .filter((x) => x.l)
    .map(({ l, i }) => {
      try {
        return JSON.parse(l) as T;
      } catch {
        throw new InvalidInputError(`${what} line ${i + 1} is not JSON.`);
      }
    });
}

export function parseBeirCorpus(text: string): IrDoc[] {
  return jsonLines<{ _id: unknown; title?: unknown; text?: unknown }>(text, 'corpus.jsonl').map((d) => ({
    id: String(d._id),
    title: typeof d.title === 'string' ? d.title : '',
    text: typeof d.text === 'string' ? d.text : '',
  }));
}

export function parseBeirQueries(text: string): IrQuery[] {
  return jsonLines<{ _id: unknown; text?: unknown }>(text, 'queries.jsonl').map((q) => ({ id: String(q._id), text: typeof q.text === 'string' ? q.text : '' }));
}

/** `query-id<TAB>corpus-id<TAB>score`, with an optional header line. */
export function parseBeirQrels(text: string): Map<string, Record<string, number>> {
  const qrels = new Map<string, Record<string, number>>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || (i === 0 && /^query-id\s/i.test(line))) return;
    const [q, d, s, ...rest] = line.split('\t');
    if (!q || !d || s === undefined || rest.length || !/^-?\d+$/.test(s.trim())) {
      throw new InvalidInputError(`qrels line ${i + 1} is "${line.slice(0, 60)}"; expected query-id, corpus-id and an integer score separated by tabs.`);
    }
    const gain = Number(s);
    if (gain <= 0) return;
    const rel = qrels.get(q) ?? {};
    rel[d] = gain;
    qrels.set(q, rel);
  });
  return qrels;
}

/** Reads a collection folder in either layout; a folder in neither says which files it expected. */
export function loadIrCollection(dir: string): IrCollection {
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  let c: Omit<IrCollection, 'queries'> & { queries: IrQuery[] };
  if (existsSync(join(dir, 'cran.all.1400'))) {
    c = {
      name: 'Cranfield 1400',
      docs: parseCranfieldDocs(read('cran.all.1400')),
      queries: parseCranfieldQueries(read('cran.qry')),
      qrels: parseCranfieldQrels(read('cranqrel')),
      gradeMapping: CRANFIELD_GRADES,
    };
  } else if (existsSync(join(dir, 'corpus.jsonl'))) {
    c = {
      name: `BEIR ${dir.split(/[\\/]/).filter(Boolean).at(-1)}`,
      docs: parseBeirCorpus(read('corpus.jsonl')),
      queries: parseBeirQueries(read('queries.jsonl')),
      qrels: parseBeirQrels(read(join('qrels', 'test.tsv'))),
      gradeMapping: BEIR_GRADES,
    };
  } else {
    throw new InvalidInputError(
      `${dir} holds neither cran.all.1400 + cran.qry + cranqrel (Cranfield) nor corpus.jsonl + queries.jsonl + qrels/test.tsv (BEIR).`,
    );
  }
  const docIds = new Set(c.docs.map((d) => d.id));
  const unknown = [...c.qrels.values()].flatMap((r) => Object.keys(r)).filter((d) => !docIds.has(d));
  if (unknown.length) throw new InvalidInputError(`The qrels name ${unknown.length} documents missing from the corpus (e.g. ${unknown[0]}).`);
  return { ...c, queries: c.queries.filter((q) => q.text && c.qrels.has(q.id)) };
}

/** nDCG@k with gain 2^g − 1 and the ideal ranking from all judged documents. */
export function ndcgAt(ranked: string[], rel: Record<string, number>, k: number): number {
  const gain = (g: number) => 2 ** g - 1;
  const dcg = ranked.slice(0, k).reduce((s, id, i) => s + gain(rel[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(rel)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}

/** Share of the documents with gain ≥ minGain found in the top k. */
export function recallAt(ranked: string[], rel: Record<string, number>, k: number, minGain = 1): number {
  const relevant = Object.entries(rel)
    .filter(([, g]) => g >= minGain)
    .map(([id]) => id);
  if (!relevant.length) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}
