/*
** order.c: see order.h.
*/
#include "nav/order.h"

#include <string.h>

uint64_t td_order_hilbert_key(uint32_t x, uint32_t y, int bits) {
  uint32_t mask = (uint32_t)((1ull << bits) - 1);
  uint64_t d = 0;
  for (uint32_t s = 1u << (bits - 1); s > 0; s >>= 1) {
    uint32_t rx = (x & s) ? 1u : 0u, ry = (y & s) ? 1u : 0u;
    d += (uint64_t)s * s * ((3u * rx) ^ ry);
    /* turn the quadrant so that the sub-curve starts where the last ended */
    if (ry == 0) {
      if (rx == 1) {
        x = mask - x;
        y = mask - y;
      }
      uint32_t t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

typedef struct keyed {
  uint32_t key;
  int32_t id;
} keyed;

/* Cell of coordinate v along an axis starting at lo, scale cells per unit. */
static uint32_t cell_of(double v, double lo, double scale) {
  double c = (v - lo) * scale;
  double top = (double)((1u << TD_ORDER_BITS) - 1);
  if (!(c > 0.0)) return 0;
  return c >= top ? (uint32_t)top : (uint32_t)c;
}

int td_order_hilbert(const double *x, const double *y, int32_t n, int32_t *order, td_err *err) {
  if (n <= 0) return 0;
  size_t nn = (size_t)n;
  keyed *a = td_mem_alloc(nn * sizeof *a), *b = td_mem_alloc(nn * sizeof *b);
  size_t *count = td_mem_alloc(256 * sizeof *count);
  if (!a || !b || !count) {
    td_mem_free(a, nn * sizeof *a);
    td_mem_free(b, nn * sizeof *b);
    td_mem_free(count, 256 * sizeof *count);
    return td_err_set(err, "order: out of memory");
  }
  double x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
  for (size_t i = 1; i < nn; i++) {
    if (x[i] < x0) x0 = x[i];
    if (x[i] > x1) x1 = x[i];
    if (y[i] < y0) y0 = y[i];
    if (y[i] > y1) y1 = y[i];
  }
  double span = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0;
  double scale = span > 0.0 ? (double)(1u << TD_ORDER_BITS) / span : 0.0;
  for (size_t i = 0; i < nn; i++)
    a[i] = (keyed){(uint32_t)td_order_hilbert_key(cell_of(x[i], x0, scale),
                                                  cell_of(y[i], y0, scale), TD_ORDER_BITS),
                   (int32_t)i};
  /* stable LSD radix sort, a byte of the 32-bit key per pass */
  for (int shift = 0; shift < 32; shift += 8) {
    memset(count, 0, 256 * sizeof *count);
    for (size_t i = 0; i < nn; i++) count[(a[i].key >> shift) & 255u]++;
    size_t at = 0;
    for (int k = 0; k < 256; k++) {
      size_t c = count[k];
      count[k] = at;
      at += c;
    }
    for (size_t i = 0; i < nn; i++) b[count[(a[i].key >> shift) & 255u]++] = a[i];
    keyed *t = a;
    a = b;
    b = t;
  }
  for (size_t i = 0; i < nn; i++) order[i] = a[i].id;
  td_mem_free(a, nn * sizeof *a);
  td_mem_free(b, nn * sizeof *b);
  td_mem_free(count, 256 * sizeof *count);
  return 0;
}
