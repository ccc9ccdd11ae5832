import { Store } from '../src-main/store';
import { HashNgramEmbedder, SearchIndex } from '../src-main/search';
const store = Store.open('/tmp/s4/b100k.db');
const index = new SearchIndex(store.db, new HashNgramEmbedder());
const code = index.quantizer.encode(new HashNgramEmbedder().embedOne('ECB dovish cuts front-end'));
let t = performance.now(); index.cache.nearest(code, 200, { category: null, status: null, sinceDay: null, allowed: null }); console.log('load', performance.now() - t, index.cache.size());
for (let r = 0; r < 5; r++) { t = performance.now(); for (let i = 0; i < 20; i++) index.cache.nearest(code, 200, { category: null, status: 'active', sinceDay: null, allowed: null }); console.log('scan', ((performance.now() - t) / 20).toFixed(2)); }
t = performance.now(); for (let i = 0; i < 20; i++) store.db.pragma('data_version', { simple: true }); console.log('pragma', ((performance.now() - t) / 20).toFixed(3));
