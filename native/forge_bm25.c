/*
 * forge_bm25: FTS5's BM25 with the IDFs supplied by the caller.
 *
 * FTS5's own bm25() works out each query phrase's IDF on the first row of every query by walking
 * the phrase's whole note list (xQueryPhrase). For a word in half the notes of a large memory that
 * walk costs more than ranking the answer. Forge already knows each word's note count for the
 * current state of the index, so it passes the IDFs in and this function only scores the rows
 * FTS5 returns. Same constants and arithmetic as FTS5's bm25(), so scores are identical.
 *
 *   forge_bm25(memory_fts, w_col0, ..., w_colN-1, idf_phrase0, idf_phrase1, ...)
 *
 * A column weight and an IDF are needed for every column and every phrase of the MATCH expression
 * (in the order the phrases appear); anything else is an error, never a silent default.
 */
#include <string.h>
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1

typedef struct Bm25Query {
  int nPhrase;
  int nCol;
  double avgdl;
  double *idf;     /* nPhrase */
  double *weight;  /* nCol */
  double *freq;    /* nPhrase, per row */
} Bm25Query;

static const double K1 = 1.2;
static const double B = 0.75;

static int load_query(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal,
                      sqlite3_value **apVal, Bm25Query **out) {
  Bm25Query *q = (Bm25Query *)api->xGetAuxdata(fts, 0);
  if (q) {
    *out = q;
    return SQLITE_OK;
  }
  int nPhrase = api->xPhraseCount(fts);
  int nCol = api->xColumnCount(fts);
  if (nVal != nCol + nPhrase) {
    char *msg = sqlite3_mprintf(
        "forge_bm25: expected %d column weights and %d phrase IDFs, got %d values", nCol, nPhrase, nVal);
    sqlite3_result_error(ctx, msg, -1);
    sqlite3_free(msg);
    return SQLITE_ERROR;
  }
  q = (Bm25Query *)sqlite3_malloc64(sizeof(Bm25Query) + sizeof(double) * (2 * (sqlite3_int64)nPhrase + nCol));
  if (!q) return SQLITE_NOMEM;
  q->nPhrase = nPhrase;
  q->nCol = nCol;
  q->idf = (double *)&q[1];
  q->freq = q->idf + nPhrase;
  q->weight = q->freq + nPhrase;
  for (int c = 0; c < nCol; c++) q->weight[c] = sqlite3_value_double(apVal[c]);
  for (int p = 0; p < nPhrase; p++) q->idf[p] = sqlite3_value_double(apVal[nCol + p]);

  sqlite3_int64 nRow = 0, nToken = 0;
  int rc = api->xRowCount(fts, &nRow);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &nToken);
  if (rc == SQLITE_OK) q->avgdl = nRow > 0 ? (double)nToken / (double)nRow : 1.0;
  if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, q, sqlite3_free);
  else sqlite3_free(q);
  if (rc == SQLITE_OK) *out = q;
  return rc;
}

static void forge_bm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal,
                       sqlite3_value **apVal) {
  Bm25Query *q = 0;
  int rc = load_query(api, fts, ctx, nVal, apVal, &q);
  if (rc == SQLITE_ERROR) return; /* message already set */
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  /* Each phrase's hits in this row, weighted by the column they are in. */
  for (int p = 0; p < q->nPhrase; p++) {
    Fts5PhraseIter it;
    int col = 0, off = 0;
    double f = 0.0;
    rc = api->xPhraseFirst(fts, p, &it, &col, &off);
    if (rc != SQLITE_OK) break;
    while (col >= 0) {
      f += q->weight[col];
      api->xPhraseNext(fts, &it, &col, &off);
    }
    q->freq[p] = f;
  }
  int nTok = 0;
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &nTok);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  const double D = (double)nTok;
  double score = 0.0;
  for (int p = 0; p < q->nPhrase; p++) {
    const double f = q->freq[p];
    score += q->idf[p] * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * D / q->avgdl)));
  }
  sqlite3_result_double(ctx, -1.0 * score);
}

/*
 * forge_in(rowid, set): 1 when bit `rowid` of the blob `set` is 1. Forge passes the notes a scope
 * and filter leave as a bitmap, so a keyword query over tens of thousands of matches checks each
 * with one bit test instead of a join to memory_records (measured: ~1 us a row for the join).
 */
static void forge_in(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  sqlite3_int64 id = sqlite3_value_int64(argv[0]);
  int n = sqlite3_value_bytes(argv[1]);
  const unsigned char *set = (const unsigned char *)sqlite3_value_blob(argv[1]);
  int in = set && id >= 0 && (id >> 3) < n && (set[id >> 3] >> (id & 7)) & 1;
  sqlite3_result_int(ctx, in);
}

static fts5_api *fts5_of(sqlite3 *db) {
  fts5_api *api = 0;
  sqlite3_stmt *st = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, 0) == SQLITE_OK) {
    sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(st);
  }
  sqlite3_finalize(st);
  return api;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_forgebm_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi);
  fts5_api *fts5 = fts5_of(db);
  if (!fts5 || fts5->iVersion < 2) {
    *pzErrMsg = sqlite3_mprintf("forge_bm25 needs FTS5 (extension API version 2 or later)");
    return SQLITE_ERROR;
  }
  int rc = sqlite3_create_function(db, "forge_in", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
                                   forge_in, 0, 0);
  if (rc != SQLITE_OK) return rc;
  return fts5->xCreateFunction(fts5, "forge_bm25", 0, forge_bm25, 0);
}
