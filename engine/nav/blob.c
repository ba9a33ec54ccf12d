/*
** blob.c: little-endian byte writer and bounded reader (see blob.h).
*/
#include "nav/blob.h"

#include <string.h>

#include "nav/mem.h"

void td_blob_free(td_blob *b) {
  td_mem_free(b->data, b->cap);
  memset(b, 0, sizeof *b);
}

void td_blob_bytes(td_blob *b, const void *p, size_t n) {
  if (b->failed || n == 0) return;
  if (b->len + n < b->len) { b->failed = true; return; }
  if (b->len + n > b->cap) {
    void *d = td_mem_grow(b->data, &b->cap, b->len + n, 1);
    if (!d) { b->failed = true; return; }
    b->data = d;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

void td_blob_u8(td_blob *b, uint8_t v) { td_blob_bytes(b, &v, 1); }

void td_blob_u32(td_blob *b, uint32_t v) {
  uint8_t o[4];
  for (int k = 0; k < 4; k++) o[k] = (uint8_t)(v >> (8 * k));
  td_blob_bytes(b, o, 4);
}

void td_blob_u64(td_blob *b, uint64_t v) {
  uint8_t o[8];
  for (int k = 0; k < 8; k++) o[k] = (uint8_t)(v >> (8 * k));
  td_blob_bytes(b, o, 8);
}

void td_blob_i32(td_blob *b, int32_t v) { td_blob_u32(b, (uint32_t)v); }

void td_blob_f32(td_blob *b, float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  td_blob_u32(b, u);
}

void td_blob_f64(td_blob *b, double v) {
  uint64_t u;
  memcpy(&u, &v, 8);
  td_blob_u64(b, u);
}

td_blob_reader td_blob_read(const void *data, size_t len) {
  td_blob_reader r = {data, len, 0, false};
  return r;
}

bool td_blob_get_bytes(td_blob_reader *r, void *out, size_t n) {
  if (r->failed || n > r->len - r->pos) {
    r->failed = true;
    memset(out, 0, n);
    return false;
  }
  memcpy(out, r->data + r->pos, n);
  r->pos += n;
  return true;
}

uint8_t td_blob_get_u8(td_blob_reader *r) {
  uint8_t v;
  td_blob_get_bytes(r, &v, 1);
  return v;
}

uint32_t td_blob_get_u32(td_blob_reader *r) {
  uint8_t o[4];
  td_blob_get_bytes(r, o, 4);
  uint32_t v = 0;
  for (int k = 3; k >= 0; k--) v = v << 8 | o[k];
  return v;
}

uint64_t td_blob_get_u64(td_blob_reader *r) {
  uint8_t o[8];
  td_blob_get_bytes(r, o, 8);
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--) v = v << 8 | o[k];
  return v;
}

int32_t td_blob_get_i32(td_blob_reader *r) { return (int32_t)td_blob_get_u32(r); }

float td_blob_get_f32(td_blob_reader *r) {
  uint32_t u = td_blob_get_u32(r);
  float v;
  memcpy(&v, &u, 4);
  return v;
}

double td_blob_get_f64(td_blob_reader *r) {
  uint64_t u = td_blob_get_u64(r);
  double v;
  memcpy(&v, &u, 8);
  return v;
}

uint64_t td_blob_fnv(uint64_t h, const void *p, size_t n) {
  const uint8_t *s = p;
  for (size_t k = 0; k < n; k++) {
    h ^= s[k];
    h *= 0x100000001b3ull;
  }
  return h;
}
