import { DeskLeases } from '../desk/leases';
import type { Store } from '../store';
import { connectionOf } from '../store/postgres/postgres-db';

/**
 * The scheduler's slot leases on a desk (several `forge serve --db` servers, one schedule): each
 * job's slot runs on the one server that claims it, and is taken over if that server stops. They
 * share the store's connection. Undefined on one PM's workbench (SQLite), and on a database that
 * holds a workspace but was not made a desk (`forge desk create` adds the lease table).
 */
export function deskSlotLeases(store: Store, url: string | undefined): DeskLeases | undefined {
  const connection = url ? connectionOf(store.db) : undefined;
  if (!connection) return undefined;
  const table = connection.one("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'desk_job_leases'");
  return table ? new DeskLeases(connection) : undefined;
}
