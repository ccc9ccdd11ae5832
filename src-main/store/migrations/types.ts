import type Database from 'better-sqlite3';

/** One schema step. `up` runs inside an IMMEDIATE transaction; never edit a released migration. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}
