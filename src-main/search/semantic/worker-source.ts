/**
 * The code the embedding worker runs, as plain JavaScript evaluated by `new Worker(src, { eval: true })`.
 * Kept as a string so the same worker runs under the test runner, `forge serve` and the packaged
 * app without a separate bundle entry. It loads transformers.js from the path the main thread
 * resolved, never reaches the network (`allowRemoteModels = false`), and answers one request at a
 * time in arrival order (the request queue), embedding each request in batches. After the model
 * loads and after each batch it says so (`progress`): the main thread's timeout measures a stall,
 * not the length of a long request.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const path = require('node:path');

const BATCH = workerData.batchSize;
let extractor = null;
let queue = Promise.resolve();

async function load() {
  const t = await import(pathToFileURL(workerData.transformersPath).href);
  t.env.allowRemoteModels = false;
  t.env.allowLocalModels = true;
  t.env.useBrowserCache = false;
  t.env.localModelPath = path.dirname(workerData.folder);
  t.env.cacheDir = workerData.folder;
  return t.pipeline('feature-extraction', path.basename(workerData.folder), {
    local_files_only: true,
    dtype: workerData.dtype,
    subfolder: workerData.subfolder,
  });
}

async function embed(id, texts) {
  if (!extractor) {
    extractor = await load();
    parentPort.postMessage({ id, progress: 0 });
  }
  const out = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    // The model's own pooling (mean over real tokens by the attention mask, or its [CLS] token); the
    // main thread scales to unit length (here a text of unknown tokens only would pool to zero and normalise to NaN).
    const tensor = await extractor(texts.slice(i, i + BATCH), { pooling: workerData.pooling, normalize: false });
    const [rows, dims] = tensor.dims;
    if (dims !== workerData.dims) throw new Error('the model makes ' + dims + '-dimension vectors, expected ' + workerData.dims);
    const data = tensor.data;
    for (let r = 0; r < rows; r++) out.push(Float32Array.from(data.subarray(r * dims, (r + 1) * dims)));
    if (out.length < texts.length) parentPort.postMessage({ id, progress: out.length });
  }
  return out;
}

parentPort.on('message', (msg) => {
  queue = queue.then(async () => {
    try {
      const vectors = await embed(msg.id, msg.texts);
      parentPort.postMessage({ id: msg.id, vectors }, vectors.map((v) => v.buffer));
    } catch (e) {
      parentPort.postMessage({ id: msg.id, error: String((e && e.message) || e) });
    }
  });
});
`;
