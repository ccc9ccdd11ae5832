import type { ProviderRegistry } from '../providers';
import { type PassageEmbedder, type PassageRanker, ResearchProvider } from '../providers/research';
import { cleanText, DEFAULT_TUNING, queryVectorFor, type SearchIndex, type SearchWeights, searchPassages, tokenize } from '../search';

/**
 * Wiring between the broker notes (providers/research) and the search index (search/): the
 * research index may not import search (contracts/boundaries.json), so the host hands it the
 * search index's embedder and hybrid ranking, and hands the search index the notes to sync and
 * re-embed.
 */

/** The search index's embedder as the research index sees it, followed live (a new API key switches it). */
export function passageEmbedder(index: () => SearchIndex): PassageEmbedder {
  return {
    get id() {
      return index().embedder.id;
    },
    get dims() {
      return index().embedder.dims;
    },
    embed: (texts, kind) => index().embedder.embed(texts, kind),
  };
}

/** `fetch research` ranks passages as `search` does: vectors + bm25 + the note's recency (keywords only when the embedder fails). */
export function passageRanker(index: () => SearchIndex, weights: () => SearchWeights | undefined): PassageRanker {
  return async (query, options) => {
    const idx = index();
    const generation = idx.research?.generation();
    const text = cleanText(query);
    const { vector } = await queryVectorFor(idx.embedder, text);
    return searchPassages(
      idx.db,
      {
        words: tokenize(text),
        queryVector: vector,
        embedderId: idx.embedder.id,
        limit: options.limit,
        asOf: options.asOf,
        notes: options.notes,
        weights: weights() ?? { semantic: 0.7, recency: 0.3 },
        ...(generation === undefined ? {} : { generation }),
        vectorShare: DEFAULT_TUNING.vectorShare,
        mode: 'hybrid',
        keywordCandidates: DEFAULT_TUNING.keywordCandidates,
        vectorCandidates: DEFAULT_TUNING.vectorCandidates,
        now: new Date(),
      },
      idx.passageCache,
    ).map((r) => ({ note: r.note, title: r.title, noteDate: r.noteDate, page: r.page, section: r.section, ordinal: r.ordinal, text: r.text }));
  };
}

/** Lets `search` cover the research provider's notes (when the app registered one), while it is switched on. */
export function attachResearch(index: SearchIndex, providers: ProviderRegistry): void {
  const research = providers.get('research');
  if (!(research instanceof ResearchProvider)) return;
  index.attachResearch({
    enabled: () => providers.enabled(research.name),
    sync: () => research.index.sync(),
    generation: () => research.index.vectors.generation,
    reembed: (onProgress, signal) => research.index.reembed(onProgress, signal),
  });
}
