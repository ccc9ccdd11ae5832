import { join } from 'node:path';
import { Store } from '../store';
import { searchContract } from './search.contract';

// The search contract on a PM's own SQLite file (search.postgres.test.ts runs it on a desk's PostgreSQL).
searchContract({ name: 'sqlite', open: (dir) => Store.open(join(dir, 'forge.db')) });
