/**
 * The code the PostgreSQL connection's worker thread runs, as plain JavaScript evaluated by
 * `new Worker(src, { eval: true })` (the embedder's pattern: one source for the test runner, `forge
 * serve` and the packaged app, no separate bundle entry). It owns one `pg.Client` and answers one
 * request at a time: the main thread is blocked in Atomics.wait until the answer is posted, so
 * there is never a second request in flight.
 *
 * Protocol: the main thread posts { sql, params, settings? } on `port` (settings: session settings
 * the statement must run under, applied first when the session does not hold them yet — also on a
 * session just reconnected, which holds none; with a BEGIN they travel in the same message,
 * and a rollback of that transaction takes them back); the worker answers on the same port
 * with { rows, rowCount } or { error }, then sets the shared flag to 1 and notifies. Values cross
 * by structured clone: bigint columns arrive as numbers when exact (BigInt past 2^53), bytea as
 * Uint8Array, and times as the server's text (no Date: a PM's "as of" is never shifted by the
 * host's zone).
 */
export const CONNECTION_WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);

const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const TEXT = (v) => v;
const INT8 = (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : BigInt(v);
};
// numeric (what sum() of bigints gives): a number, as SQLite's integer or real would be.
const NUMERIC = (v) => Number(v);
const PARSERS = { 20: INT8, 1700: NUMERIC, 1082: TEXT, 1083: TEXT, 1114: TEXT, 1184: TEXT, 1266: TEXT };

let client = null;
// The session settings (set_config, not local) the current client holds, as their JSON.
let applied = null;
// Whether the session holds an open transaction (statements the main thread sent), and whether a
// session was lost while it did: then everything up to the ROLLBACK/COMMIT that ends it must fail,
// or a COMMIT sent to a fresh session would "succeed" having committed nothing.
let txOpen = false;
let lostInTransaction = false;
// Settings that travelled with the open transaction's BEGIN: they belong to that
// transaction, so a rollback takes them back and the next statement must set them again.
let appliedWithTransaction = false;
const BEGINS = /^\\s*(BEGIN|START\\s+TRANSACTION)\\b/i;
const ENDS = /^\\s*(COMMIT|END|ABORT|ROLLBACK)\\b(?!\\s+TO\\b)/i;

function answer(message) {
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  // Tests only (ConnectionOptions.testLateWakeMs): the same wake again, late, as a preempted notify arrives.
  if (workerData.lateWakeMs) setTimeout(() => Atomics.notify(flag, 0), workerData.lateWakeMs);
}

function describe(e, connectionLost) {
  return {
    message: String((e && e.message) || e),
    sqlState: e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined,
    detail: e && e.detail,
    constraint: e && e.constraint,
    table: e && e.table,
    connectionLost,
  };
}

async function connect() {
  const c = new pg.Client({
    connectionString: workerData.url,
    connectionTimeoutMillis: workerData.connectTimeoutMs,
    application_name: workerData.applicationName,
    statement_timeout: workerData.statementTimeoutMs,
    // Forge's times are UTC ISO text, as on SQLite: date arithmetic must not shift by the server's zone.
    options: '-c TimeZone=UTC',
    keepAlive: true,
    types: { getTypeParser: (oid, format) => PARSERS[oid] || pg.types.getTypeParser(oid, format) },
  });
  // A server restart or a killed backend arrives as an 'error' or 'end' event between queries: forget the
  // client so the next request reconnects instead of writing into a dead socket.
  c.on('error', () => {
    if (client === c) forget();
  });
  c.on('end', () => {
    if (client === c) forget();
  });
  await c.connect();
  client = c;
  applied = null;
}

async function applySettings(settings) {
  const key = JSON.stringify(settings);
  if (key === applied) return;
  // A setting changed inside a transaction would be undone by its rollback while this worker
  // believed it held: refused (the main thread asserts the same).
  if (txOpen) throw new Error('session settings cannot change inside a transaction');
  const names = Object.keys(settings);
  const calls = names.map((_, i) => 'set_config($' + (2 * i + 1) + ', $' + (2 * i + 2) + ', false)');
  await client.query({ text: 'SELECT ' + calls.join(', '), values: names.flatMap((n) => [n, settings[n]]) });
  applied = key;
}

// The same settings as one statement with no parameters, to travel with a BEGIN in one
// round trip (a simple query: several statements, no parameters). Each name and value is written
// as hex and decoded by the server, so no value can ever be read as SQL.
const hexText = (v) => "convert_from(decode('" + Buffer.from(String(v), 'utf8').toString('hex') + "', 'hex'), 'UTF8')";
function settingsStatement(settings) {
  return 'SELECT ' + Object.keys(settings).map((n) => 'set_config(' + hexText(n) + ', ' + hexText(settings[n]) + ', false)').join(', ');
}

// Errors that mean the session is gone (and with it any open transaction), not that a statement was wrong.
const LOST = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

function forget() {
  const c = client;
  client = null;
  if (txOpen) lostInTransaction = true;
  txOpen = false;
  if (c) c.end().catch(() => {});
}

// The open transaction ended: committed settings stay; rolled-back ones are set again next time.
function transactionEnded(committed) {
  if (appliedWithTransaction && !committed) applied = null;
  appliedWithTransaction = false;
  txOpen = false;
}

port.on('message', async (req) => {
  const begins = BEGINS.test(req.sql);
  const ends = ENDS.test(req.sql);
  if (lostInTransaction && !begins) {
    if (ends) lostInTransaction = false;
    if (/^\\s*(ROLLBACK|ABORT)\\b/i.test(req.sql)) answer({ rows: [], rowCount: 0 });
    else answer({ error: describe(new Error('the connection to the database was lost inside a transaction'), true) });
    return;
  }
  lostInTransaction = false;
  let text = req.sql;
  let values = req.params;
  let settingsKey = null;
  try {
    if (!client) await connect();
    if (req.settings) {
      settingsKey = JSON.stringify(req.settings);
      // A BEGIN (no parameters) takes changed settings along in the same round trip; anything else sets them first.
      if (settingsKey !== applied && begins && !txOpen && !(values && values.length)) {
        // Right after the BEGIN: before it they would still be set, but a BEGIN that names an
        // isolation level must be the transaction's first statement.
        const cut = req.sql.indexOf(';');
        text = cut < 0 ? req.sql + '; ' + settingsStatement(req.settings) : req.sql.slice(0, cut) + '; ' + settingsStatement(req.settings) + req.sql.slice(cut);
        values = undefined;
      } else {
        await applySettings(req.settings);
        settingsKey = null;
      }
    }
    const result = await client.query({ text, values });
    if (settingsKey !== null) {
      applied = settingsKey;
      appliedWithTransaction = true;
    }
    if (begins) txOpen = true;
    if (ends) transactionEnded(/^\\s*(COMMIT|END)\\b/i.test(req.sql));
    // Several statements in one message answer with one result each: the caller asked for the last.
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    answer({ rows: (last && last.rows) || [], rowCount: (last && last.rowCount) ?? 0 });
  } catch (e) {
    const said = String(e && e.message) + ' ' + String(e && e.code);
    // A refusal at sign-in (bad password, no such database) is an answer, not a lost connection.
    const refused = !client && e && /^(28|3D)/.test(String(e.code));
    const lost = (!client && !refused) || LOST.has(e && e.code) || /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Connection terminated|timeout expired|not queryable/i.test(said);
    if (lost) {
      forget();
      applied = null;
      appliedWithTransaction = false;
      if (ends) lostInTransaction = false;
    } else if (ends) {
      transactionEnded(false);
    } else if (client && begins && (text !== req.sql || req.sql.includes(';'))) {
      // A BEGIN sent with more statements (the person's settings, the write lock) that failed part
      // way leaves an aborted transaction the caller never saw begin: end it here, so the next call starts clean.
      await client.query('ROLLBACK').catch(() => {});
      applied = null;
      appliedWithTransaction = false;
      txOpen = false;
    }
    answer({ error: describe(e, Boolean(lost)) });
  }
});
`;
