import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { installCrashPolicy } from '../common/crash-policy';
import { resolveDataDir } from '../config/paths';
import type { HeadlessHost } from './http/server';
import { appVersion, packageRoot } from './version';

/**
 * The `forge` command line. Each command builds its own core from the same config the Electron
 * shell uses, so headless and desktop behave the same.
 */
const usage = `Usage: forge <command> [options]

Commands:
  serve      Run Forge headless: the full app in your browser, on 127.0.0.1 only.
             --port N      port to listen on (default: a free one)
             --data DIR    workspace folder (default: $FORGE_HOME or ~/.forge)
             --db postgres://user@host:port/db   keep the workspace in a desk's PostgreSQL
                           database instead of DIR/forge.db (or $FORGE_DB; the password from
                           $PGPASSWORD rather than the command line); DIR keeps this server's
                           settings and skills. Without either, the desk database saved in
                           Settings → Desk database, if any
  mcp        Run the governance MCP server on stdio (for an IDE to spawn).
             --data DIR  --contracts DIR  --remote URL  (forge mcp --help for more)
  demo       Run the offline demo: a scripted analyst session on a copy of the sample
             workspace (labelled DEMO; not Claude, never your memory).
  build      Build a project phase by phase from its specs (Forge/Contracts/, spec-kit, Kiro,
             OpenSpec or a Markdown plan), progress on the terminal: forge build <folder>
             [--mini] [--mode mcp|dump]; --dry-run shows what Forge read (forge build --help)
  sample     Whether the workspace is still the sample it started with; --clear --yes
             empties it as Home's "Start empty" does (forge sample --help)
  reindex    Rebuild the search index of a workspace (after switching embedders).
             --data DIR    workspace folder
             --db postgres://user@host:port/db   rebuild a desk's index instead (or
                           $FORGE_DB, or the desk database saved in Settings, as serve)
  export     Save the whole workspace (memory with its versions and audit trail, the book,
             skills with their versions, contracts, broker notes, settings; never keys) as
             one file, signed with this workspace's key: forge export <file> [--data DIR];
             --from postgres://user@host:port/db exports a desk's database instead, read
             from one snapshot and verified row by row (the password is never printed)
  import     Replace a workspace with an exported one, rebuilt from its rows by this Forge's
             own schema; refused if its history looks stripped (--accept-unverified-history
             imports it anyway and records why); the old workspace is kept beside it as a
             backup: forge import <file> [--data DIR] [--accept-unverified-history]
  migrate    Move this workspace into an empty PostgreSQL database for a desk, every row
             verified before it commits: forge migrate --to postgres://user@host:port/db
             [--data DIR] (forge migrate --help)
  desk       Set up a desk on PostgreSQL and manage its people: forge desk create --admin ID
             --name "NAME" --db postgres://…; user add|disable|role|list; grant-app-role ROLE
             for the role servers connect as (forge desk --help)
  version    The exact build (version, commit, build date), platform, Node/Electron and
             which optional parts are on: keyword ranking, search model, script confinement.
             --data DIR    workspace folder.  (forge --version prints the version alone.)
  help       Show this text.
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'mcp':
      // Loaded on demand: an IDE times this spawn, and nothing else of the host is needed.
      return (await import('../mcp/cli')).runMcpCli(rest, appVersion());
    case 'sample':
      return (await import('./sample-cli')).forgeSampleCli(rest);
    case 'reindex':
      return reindexCli(rest);
    case 'migrate':
      return (await import('./migrate-cli')).forgeMigrateCli(rest);
    case 'desk':
      return (await import('./desk-cli')).forgeDeskCli(rest);
    case 'export':
    case 'import':
      return archiveCli(command, rest);
    case 'build':
      return (await import('./build-cli')).forgeBuildCli(rest);
    case 'demo':
      return (await import('./analyst')).forgeDemoCli(rest);
    case '--version':
      // Short and scriptable; `forge version` is the full report a support desk asks for.
      console.log(appVersion());
      return 0;
    case 'version':
      return versionCli(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(usage);
      return 0;
    default:
      console.error(`forge: unknown command "${command}".\n\n${usage}`);
      return 2;
  }
}

async function versionCli(args: string[]): Promise<number> {
  let values: { data?: string };
  try {
    ({ values } = parseArgs({ args, options: { data: { type: 'string' } }, strict: true }));
  } catch (e) {
    console.error(`forge version: ${(e as Error).message}`);
    return 2;
  }
  // Loaded here: the probes (ranking library, bubblewrap, model folder) are not needed by other commands.
  const { buildStamp, formatVersionReport, optionalParts } = await import('./build-info');
  const dataDir = resolveDataDir(values.data);
  console.log(formatVersionReport(buildStamp(), await optionalParts(dataDir), dataDir));
  return 0;
}

async function serve(args: string[]): Promise<number> {
  let values: { port?: string; data?: string; db?: string };
  try {
    ({ values } = parseArgs({ args, options: { port: { type: 'string' }, data: { type: 'string' }, db: { type: 'string' } }, strict: true }));
  } catch (e) {
    console.error(`forge serve: ${(e as Error).message}`);
    return 2;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`forge serve: --port must be a number from 0 to 65535, not "${values.port}".`);
    return 2;
  }
  const dataDir = resolveDataDir(values.data);
  // Loaded here, not at the top: `forge mcp` and `forge version` should not pay for the whole core.
  const [{ createCore }, { startHeadlessHost }, { createWorkspaceSwitch }, { openChosenWorkspace }, { EnvSecretStore }] = await Promise.all([
    import('./core'),
    import('./http/server'),
    import('./workspace-switch'),
    import('./desk-database-start'),
    import('../config/secrets'),
  ]);
  // --db, else $FORGE_DB, else the desk database saved in Settings (its password from $PGPASSWORD here), else DIR/forge.db.
  const named = values.db ?? (process.env.FORGE_DB || undefined);
  let databaseShown: string | undefined;
  let real: ReturnType<typeof createCore>;
  try {
    // The PM's workspace behind a switch: the Demo button swaps in a sample workspace until "Back to my workspace".
    const chosen = openChosenWorkspace({ dataDir, mode: 'headless', secrets: new EnvSecretStore() }, { flag: values.db, create: createCore });
    real = chosen.core;
    databaseShown = chosen.shown;
    if (chosen.problem) console.error(`forge serve: ${chosen.problem}`);
  } catch (e) {
    // A refused URL, an unreachable or unprepared desk database: said plainly, the password never printed.
    console.error(`forge serve: ${(e as Error).message}`);
    return named && (e as Error).name === 'PostgresUrlError' ? 2 : 1;
  }
  // On a desk there is no demo switch: it would swap the workspace under every signed-in person at once.
  const core = databaseShown ? real : createWorkspaceSwitch({ real });
  let host: HeadlessHost;
  try {
    host = await startHeadlessHost({ core, port, rendererDir: join(packageRoot(), 'out', 'renderer') });
  } catch (e) {
    await core.close();
    const err = e as NodeJS.ErrnoException;
    console.error(err.code === 'EADDRINUSE' ? `forge serve: port ${port} is already in use; pick another with --port.` : `forge serve: ${err.message}`);
    return 1;
  }
  const { startAttachedServices } = await import('./attached-services');
  // IDEs attach to the PM's own workspace, never to the demo.
  const attached = await startAttachedServices(real, { url: host.url, token: host.token });
  // Serving now: from here a stray throw or unhandled rejection is logged to stderr and counted,
  // never an exit (a failure while starting still stops the command with its message).
  installCrashPolicy({ name: 'forge serve' }).hide(host.token);
  console.log(`Forge ${appVersion()} is running headless.`);
  console.log(databaseShown ? `Workspace: ${databaseShown} (a desk's PostgreSQL); this server's files: ${dataDir}` : `Workspace: ${dataDir}`);
  if (attached.mcpUrl) console.log(`MCP (for IDEs): ${attached.mcpUrl} — see the MCP screen for ready-made configurations.`);
  if (attached.notice) console.log(attached.notice);
  console.log(`Open: ${host.openUrl}`);
  console.log('Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await attached.close();
  await host.close();
  await core.close();
  return 0;
}

async function archiveCli(command: 'export' | 'import', args: string[]): Promise<number> {
  let parsed: { values: { data?: string; from?: string; 'accept-unverified-history'?: boolean }; positionals: string[] };
  const options = { data: { type: 'string' }, from: { type: 'string' }, 'accept-unverified-history': { type: 'boolean' } } as const;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(`forge ${command}: ${(e as Error).message}`);
    return 2;
  }
  if (command === 'export' && parsed.values['accept-unverified-history']) {
    console.error('forge export: --accept-unverified-history is an option of forge import.');
    return 2;
  }
  if (command === 'import' && parsed.values.from !== undefined) {
    console.error('forge import: --from is an option of forge export (forge export <file> --from postgres://…).');
    return 2;
  }
  const file = parsed.positionals[0];
  if (!file || parsed.positionals.length > 1) {
    console.error(`forge ${command}: give one archive file, e.g. forge ${command} ~/forge-2026-11-23.forge`);
    return 2;
  }
  const dataDir = resolveDataDir(parsed.values.data);
  if (command === 'export' && parsed.values.from !== undefined)
    return (await import('./export-from-desk')).exportFromDeskCli(parsed.values.from, file, dataDir);
  const { describeImport, exportWorkspace, importWorkspace } = await import('./workspace-archive');
  try {
    if (command === 'export') {
      const s = exportWorkspace(dataDir, resolve(file));
      console.log(`forge export: ${s.records} records and ${s.files} files from ${dataDir} → ${resolve(file)} (no keys).`);
      console.log(`Signed with this workspace's key ${s.fingerprint}; whoever imports it can check that fingerprint.`);
    } else {
      const s = importWorkspace(resolve(file), dataDir, { acceptUnverifiedHistory: parsed.values['accept-unverified-history'] === true });
      console.log(`forge import: ${s.records} records and ${s.files} files → ${dataDir}.`);
      for (const line of describeImport(s)) console.log(line);
      console.log(s.backup ? `The workspace that was there is kept in ${s.backup}.` : 'The folder was empty; nothing needed a backup.');
      console.log('API keys are not in archives: add them again in Settings → API keys (or the environment).');
    }
    return 0;
  } catch (e) {
    console.error(`forge ${command}: ${(e as Error).message}`);
    return 1;
  }
}

async function reindexCli(args: string[]): Promise<number> {
  let values: { data?: string; db?: string };
  try {
    ({ values } = parseArgs({ args, options: { data: { type: 'string' }, db: { type: 'string' } }, strict: true }));
  } catch (e) {
    console.error(`forge reindex: ${(e as Error).message}`);
    return 2;
  }
  const [{ createCore }, { openChosenWorkspace }, { EnvSecretStore }] = await Promise.all([
    import('./core'),
    import('./desk-database-start'),
    import('../config/secrets'),
  ]);
  // The workspace `forge serve` would open (--db, $FORGE_DB, Settings → Desk database, else DIR/forge.db).
  let chosen: ReturnType<typeof openChosenWorkspace>;
  try {
    chosen = openChosenWorkspace(
      { dataDir: resolveDataDir(values.data), mode: 'headless', scheduler: false, secrets: new EnvSecretStore() },
      { flag: values.db, create: createCore },
    );
  } catch (e) {
    console.error(`forge reindex: ${(e as Error).message}`);
    return (values.db ?? process.env.FORGE_DB) && (e as Error).name === 'PostgresUrlError' ? 2 : 1;
  }
  const core = chosen.core;
  if (chosen.problem) {
    // The saved desk could not be opened: rebuilding the PM's own index instead is not what was asked.
    await core.close();
    console.error(`forge reindex: ${chosen.problem}`);
    console.error('forge reindex: nothing was rebuilt; name the database with --db, or clear the saved one to rebuild this folder.');
    return 1;
  }
  if (chosen.shown) console.log(`Rebuilding the search index of ${chosen.shown} (a desk's PostgreSQL).`);
  let last = -1;
  const off = core.context.events.subscribe((m) => {
    if (m.event !== 'search/reindex-progress') return;
    const p = m.payload as { done: number; total: number };
    const pct = p.total ? Math.floor((p.done / p.total) * 100) : 100;
    if (pct >= last + 10 || p.done === p.total) {
      last = pct;
      console.log(`reindex: ${p.done}/${p.total} (${pct}%)`);
    }
  });
  const r = await core.invoke('search/reindex', {});
  off();
  await core.close();
  if (!r.ok) {
    console.error(`forge reindex: ${r.error.message}`);
    return 1;
  }
  const passages = r.value.passages ?? 0;
  console.log(`Search index rebuilt: ${r.value.done - passages} notes${passages ? ` and ${passages} broker-note passages` : ''} with ${r.value.embedder}.`);
  return 0;
}

// Run when executed directly (node out/main/cli.js, tsx src-main/host/cli.ts), not when imported.
const invokedDirectly = process.argv[1] && /(^|[\\/])cli\.(ts|js|mjs)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`forge: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
