/*
** blob.h: a growable byte buffer to write, and a bounded reader, for saves
** and replays.
**
** Every value is written little-endian whatever the host (floats and doubles
** as their IEEE-754 bits), so a save written on one machine reads the same
** on another. The writer never fails loudly in the middle: an allocation
** failure sets `failed`, later writes do nothing, and the caller checks once
** at the end. The reader never reads past its end: a read beyond it sets
** `failed`, returns zeros, and records the offset where the data ran out,
** so a truncated or corrupt file gives a clear error at one check.
**
** Memory: a writer owns its bytes (td_blob_free); a reader borrows them.
** Determinism: plain byte shuffling.
*/
#ifndef TD_BLOB_H
#define TD_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct td_blob {
  uint8_t *data;
  size_t len, cap;
  bool failed;             /* an allocation failed: the content is incomplete */
} td_blob;

void td_blob_free(td_blob *b);                          /* leaves a zeroed blob */
void td_blob_bytes(td_blob *b, const void *p, size_t n);
void td_blob_u8(td_blob *b, uint8_t v);
void td_blob_u32(td_blob *b, uint32_t v);
void td_blob_u64(td_blob *b, uint64_t v);
void td_blob_i32(td_blob *b, int32_t v);
void td_blob_f32(td_blob *b, float v);
void td_blob_f64(td_blob *b, double v);

typedef struct td_blob_reader {
  const uint8_t *data;
  size_t len, pos;
  bool failed;             /* a read went past the end */
} td_blob_reader;

td_blob_reader td_blob_read(const void *data, size_t len);
bool td_blob_get_bytes(td_blob_reader *r, void *out, size_t n); /* false past the end */
uint8_t td_blob_get_u8(td_blob_reader *r);
uint32_t td_blob_get_u32(td_blob_reader *r);
uint64_t td_blob_get_u64(td_blob_reader *r);
int32_t td_blob_get_i32(td_blob_reader *r);
float td_blob_get_f32(td_blob_reader *r);
double td_blob_get_f64(td_blob_reader *r);

/* FNV-1a 64 over n bytes, continuing from h (start with TD_BLOB_FNV_SEED). */
#define TD_BLOB_FNV_SEED 0xcbf29ce484222325ull
uint64_t td_blob_fnv(uint64_t h, const void *p, size_t n);

#endif
