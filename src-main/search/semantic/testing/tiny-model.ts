import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tinyEmbeddingModel } from './onnx-writer';

/**
 * Writes a tiny but real sentence-embedding model folder (the layout of a Hugging Face ONNX
 * export): config.json, tokenizer.json (WordPiece), tokenizer_config.json and
 * onnx/model_quantized.onnx. transformers.js loads it exactly as it loads all-MiniLM-L6-v2.
 *
 * Every word gets its own pseudo-random vector, except that words in one `synonyms` group share a
 * vector — the one "meaning" this model knows. Special tokens embed to zero so mean pooling over
 * [CLS] … [SEP] keeps the direction of the known words alone ([UNK] too: header words outside the
 * vocabulary would otherwise pull every note towards one shared vector).
 */
export interface TinyModelOptions {
  words: string[];
  synonyms?: string[][];
  dims?: number;
  seed?: number;
  /** Gives [CLS] this word's vector (else zero), so a test can tell [CLS] pooling from averaging. */
  clsLike?: string;
  /** Gives [SEP] (every text's last token) this word's vector, for last-token pooling. */
  sepLike?: string;
}

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export function tinyModelFiles(options: TinyModelOptions): Record<string, Uint8Array> {
  const dims = options.dims ?? 384;
  const words = [...new Set([...options.words, ...(options.synonyms ?? []).flat()].map((w) => w.toLowerCase()))];
  const vocab: Record<string, number> = {};
  for (const t of SPECIAL_TOKENS) vocab[t] = Object.keys(vocab).length;
  for (const w of words) vocab[w] = Object.keys(vocab).length;

  let state = options.seed ?? 7;
  const rand = () => {
    // xorshift32: deterministic vectors, so a test's expectations never drift between runs.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff) * 2 - 1;
  };
  const rows: Float32Array[] = Object.keys(vocab).map((t) => {
    const row = new Float32Array(dims);
    if (!(SPECIAL_TOKENS as readonly string[]).includes(t)) for (let i = 0; i < dims; i++) row[i] = rand();
    return row;
  });
  if (options.clsLike) rows[vocab['[CLS]']] = rows[vocab[options.clsLike.toLowerCase()]];
  if (options.sepLike) rows[vocab['[SEP]']] = rows[vocab[options.sepLike.toLowerCase()]];
  for (const group of options.synonyms ?? []) {
    const first = rows[vocab[group[0].toLowerCase()]];
    for (const w of group.slice(1)) rows[vocab[w.toLowerCase()]] = first;
  }

  const special = (content: string) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  };
  const config = { model_type: 'bert', architectures: ['BertModel'], hidden_size: dims, vocab_size: rows.length, max_position_embeddings: 512 };
  const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  return {
    'config.json': json(config),
    'tokenizer.json': json(tokenizer),
    'tokenizer_config.json': json(tokenizerConfig),
    'onnx/model_quantized.onnx': tinyEmbeddingModel(rows),
  };
}

/** Writes the tiny model's files under `dir` and returns them (name → bytes) for checksums. */
export function writeTinyModel(dir: string, options: TinyModelOptions): Record<string, Uint8Array> {
  const files = tinyModelFiles(options);
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return files;
}
