/*
** mapfile_data.c: a tile layer's data, as Tiled's XML and JSON files write
** it, -> a full userdata of w * h uint32 gids (mapfile_int.h).
**
** Encodings: CSV (numbers separated by commas and white space), and base64
** of the little-endian gids, raw or compressed with zlib, gzip or zstd
** (decoded by zlib and libzstd). Every buffer is a Lua userdata (counted by
** the sandbox's memory cap, freed by Lua whatever happens); the
** decompressors write into the layer's own w * h * 4 bytes and no further,
** so a small stream that would inflate to gigabytes (a zip bomb) stops
** there and is refused, naming the layer. A decompressor's own state is
** freed before any error is raised.
*/
#include "script/mapfile_int.h"

#include <stdio.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

uint32_t *mapfile_data_new(mapfile_tiled *t, int32_t w, int32_t h) {
  size_t bytes = (size_t)w * (size_t)h * sizeof(uint32_t);
  uint32_t *p = lua_newuserdatauv(t->L, bytes, 0);
  memset(p, 0, bytes);
  return p;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static void decode_csv(mapfile_tiled *t, const char *s, size_t len, int32_t w, int32_t h) {
  size_t cells = (size_t)w * (size_t)h, n = 0;
  for (size_t i = 0; i < len;) { /* count the entries first, for the message */
    while (i < len && (is_space(s[i]) || s[i] == ',')) i++;
    if (i == len) break;
    n++;
    while (i < len && !is_space(s[i]) && s[i] != ',') i++;
  }
  if (n != cells)
    mapfile_tiled_fail(t, "data has %zu entries, expected %zu (%dx%d)", n, cells, w, h);
  uint32_t *gids = mapfile_data_new(t, w, h);
  n = 0;
  for (size_t i = 0; i < len;) {
    while (i < len && (is_space(s[i]) || s[i] == ',')) i++;
    if (i == len) break;
    size_t start = i;
    uint64_t v = 0;
    bool ok = true;
    while (i < len && !is_space(s[i]) && s[i] != ',') {
      if (s[i] < '0' || s[i] > '9' || v > UINT32_MAX) ok = false;
      else v = v * 10 + (uint64_t)(s[i] - '0');
      i++;
    }
    if (!ok || v > UINT32_MAX)
      mapfile_tiled_fail(t, "data[%zu]: expected a tile gid (integer in [0, 4294967295]), "
                         "got '%.*s'", n + 1, (int)(i - start > 20 ? 20 : i - start), s + start);
    gids[n++] = (uint32_t)v;
  }
}

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* base64 (white space skipped, '=' padding at the end) -> a userdata
** pushed; its length in *out_len. */
static unsigned char *decode_base64(mapfile_tiled *t, const char *s, size_t len, size_t *out_len) {
  unsigned char *out = lua_newuserdatauv(t->L, len / 4 * 3 + 3, 0);
  size_t n = 0, pad = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (is_space((char)c)) continue;
    if (c == '=') {
      pad++;
      continue;
    }
    int v = b64_value(c);
    if (v < 0 || pad)
      mapfile_tiled_fail(t, "data is not valid base64 (character %zu)", i + 1);
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (unsigned char)(acc >> bits);
    }
  }
  if (pad > 2 || bits >= 6) mapfile_tiled_fail(t, "data is not valid base64 (its length)");
  *out_len = n;
  return out;
}

static void too_much(mapfile_tiled *t, const char *what, int32_t w, int32_t h) {
  mapfile_tiled_fail(t, "data: its %s stream decompresses to more than the %zu bytes of "
                     "%dx%d tiles (refused)", what, (size_t)w * (size_t)h * 4, w, h);
}

static void wrong_size(mapfile_tiled *t, size_t got, int32_t w, int32_t h) {
  size_t want = (size_t)w * (size_t)h * 4;
  mapfile_tiled_fail(t, "data has %zu bytes, expected %zu (%dx%d tiles of 4 bytes)", got, want, w,
                     h);
}

/* zlib or gzip (either header) into out (cap bytes); the bytes written. */
static size_t inflate_to(mapfile_tiled *t, const unsigned char *in, size_t n, unsigned char *out,
                         size_t cap, const char *what, int32_t w, int32_t h) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 32) != Z_OK) mapfile_tiled_fail(t, "out of memory (zlib)");
  z.next_in = (unsigned char *)(uintptr_t)in; /* zlib does not write through it */
  z.avail_in = (uInt)n;
  z.next_out = out;
  z.avail_out = (uInt)cap;
  int r = inflate(&z, Z_FINISH);
  size_t got = (size_t)z.total_out;
  bool full = z.avail_out == 0;
  char msg[80];
  snprintf(msg, sizeof msg, "%s", z.msg ? z.msg : "truncated");
  inflateEnd(&z);
  if (r == Z_STREAM_END) return got;
  if (full && (r == Z_OK || r == Z_BUF_ERROR)) too_much(t, what, w, h);
  mapfile_tiled_fail(t, "data is not valid %s data (%s)", what, msg);
}

static size_t zstd_to(mapfile_tiled *t, const unsigned char *in, size_t n, unsigned char *out,
                      size_t cap, int32_t w, int32_t h) {
  unsigned long long size = ZSTD_getFrameContentSize(in, n);
  if (size == ZSTD_CONTENTSIZE_ERROR) mapfile_tiled_fail(t, "data is not valid zstd data");
  if (size != ZSTD_CONTENTSIZE_UNKNOWN && size > cap) too_much(t, "zstd", w, h);
  size_t r = ZSTD_decompress(out, cap, in, n);
  if (ZSTD_isError(r)) {
    if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall) too_much(t, "zstd", w, h);
    mapfile_tiled_fail(t, "data is not valid zstd data (%s)", ZSTD_getErrorName(r));
  }
  return r;
}

void mapfile_data_decode(mapfile_tiled *t, const char *text, size_t len, const char *encoding,
                         const char *compression, int32_t w, int32_t h) {
  lua_State *L = t->L;
  mapfile_tiled_stack(t, 4);
  if (!encoding || strcmp(encoding, "csv") == 0) {
    if (compression && compression[0])
      mapfile_tiled_fail(t, "data: compression '%s' needs base64 encoding", compression);
    decode_csv(t, text, len, w, h);
    return;
  }
  if (strcmp(encoding, "base64") != 0)
    mapfile_tiled_fail(t, "data: encoding '%s' is not supported (CSV or base64)", encoding);
  size_t cap = (size_t)w * (size_t)h * 4, n = 0, got;
  const unsigned char *raw = decode_base64(t, text, len, &n);
  unsigned char *bytes = (unsigned char *)mapfile_data_new(t, w, h);
  if (!compression || !compression[0]) {
    if (n != cap) wrong_size(t, n, w, h);
    memcpy(bytes, raw, n);
    got = n;
  } else if (strcmp(compression, "zlib") == 0 || strcmp(compression, "gzip") == 0) {
    got = inflate_to(t, raw, n, bytes, cap, compression, w, h);
  } else if (strcmp(compression, "zstd") == 0) {
    got = zstd_to(t, raw, n, bytes, cap, w, h);
  } else {
    mapfile_tiled_fail(t, "data: compression '%s' is not supported (zlib, gzip or zstd)",
                       compression);
  }
  if (got != cap) wrong_size(t, got, w, h);
  /* little-endian bytes -> gids, in place */
  uint32_t *gids = (uint32_t *)bytes;
  for (size_t k = 0; k < cap / 4; k++) {
    const unsigned char *b = bytes + 4 * k;
    gids[k] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  }
  lua_remove(L, -2); /* the base64 bytes */
}
