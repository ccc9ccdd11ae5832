import { afterAll, beforeAll, describe } from 'vitest';
import { skipWithoutPostgres } from '../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../store/postgres/test-workspaces';
import { searchContract } from './search.contract';

// The same contract as search.contract.test.ts, with the workspace in a real PostgreSQL (a desk's store).
describe.skipIf(skipWithoutPostgres())("memory search on a desk's PostgreSQL", { timeout: 120_000 }, () => {
  let workspaces: PostgresWorkspaces;
  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });
  searchContract({ name: 'postgres', open: () => workspaces.freshStore() });
});
