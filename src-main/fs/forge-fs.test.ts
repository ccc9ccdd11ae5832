import { join } from 'node:path';
import { Store } from '../store';
import { forgeFsContract } from './forge-fs.contract';

forgeFsContract({ name: 'sqlite', open: (dir) => Store.open(join(dir, 'forge.db')) });
