/*
** audio.c: sound effects: synthesis, the mixer, the SDL device (see audio.h).
**
** Every sound is a sum of a few parts written into a float clip: notes
** (partials of a frequency that may glide, with a linear attack, an
** exponential decay that is faster for higher partials, a release at the
** end, an optional vibrato), one-pole filtered noise bursts, a plucked
** string (Karplus-Strong: a delay line of one period, filled with soft
** noise, averaged into itself) and, for the tesla's zap, a jittering
** sawtooth with gated crackle. Each clip is then scaled to its own peak
** and faded out over its last 5 ms, so it starts and ends at zero.
**
** Only the last section includes SDL; everything above it is plain C.
*/
#define _POSIX_C_SOURCE 200809L /* dup, dup2 */
#include "render/audio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <unistd.h>
#endif

#define RATE_F ((float)TD_AUDIO_RATE)
#define TWO_PI 6.28318531f
#define MIX_CHUNK 256

/* What the mixer knows of each sound: its name, length, peak, importance
** when voices run out (higher wins), minimum gap between two starts, and
** the pitch variation of a start (share, +-: repeated shots do not sound
** like a machine). */
static const struct sound_info {
  const char *name;
  float seconds, peak;
  int priority, gap_ms;
  float pitch;
} INFO[TD_SOUND_COUNT] = {
  [TD_SOUND_CLICK] = {"click", 0.045f, 0.25f, 3, 40, 0},
  [TD_SOUND_ARROW] = {"arrow", 0.22f, 0.18f, 1, 70, 0.06f},
  [TD_SOUND_CANNON] = {"cannon", 0.40f, 0.30f, 1, 90, 0.05f},
  [TD_SOUND_FROST] = {"frost", 0.32f, 0.15f, 1, 90, 0.04f},
  [TD_SOUND_ZAP] = {"zap", 0.25f, 0.15f, 1, 80, 0.05f},
  [TD_SOUND_FLAK] = {"flak", 0.18f, 0.17f, 1, 70, 0.06f},
  [TD_SOUND_KILL] = {"kill", 0.14f, 0.18f, 2, 50, 0.08f},
  [TD_SOUND_LEAK] = {"leak", 0.42f, 0.24f, 5, 300, 0},
  [TD_SOUND_BUILD] = {"build", 0.42f, 0.30f, 4, 80, 0},
  [TD_SOUND_SELL] = {"sell", 0.38f, 0.22f, 4, 80, 0},
  [TD_SOUND_UPGRADE] = {"upgrade", 0.55f, 0.26f, 4, 80, 0},
  [TD_SOUND_REFUSED] = {"refused", 0.26f, 0.24f, 4, 200, 0},
  [TD_SOUND_WAVE] = {"wave", 0.75f, 0.30f, 5, 500, 0},
  [TD_SOUND_BOSS] = {"boss", 2.2f, 0.40f, 6, 1000, 0},
  [TD_SOUND_VICTORY] = {"victory", 1.7f, 0.34f, 7, 1000, 0},
  [TD_SOUND_DEFEAT] = {"defeat", 2.2f, 0.32f, 7, 1000, 0},
};

const char *td_audio_sound_name(td_sound s) {
  return (unsigned)s < TD_SOUND_COUNT ? INFO[s].name : NULL;
}

int td_audio_sound_parse(const char *name) {
  for (int s = 0; s < TD_SOUND_COUNT; s++)
    if (name && !strcmp(name, INFO[s].name)) return s;
  return -1;
}

/* ---- synthesis ---------------------------------------------------------------- */

/* xorshift32 in -1 .. 1 */
static float frand(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return (float)(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

/* Fraction of the way a one-pole filter moves a sample at cutoff hz. */
static float pole(float hz) { return 1.0f - expf(-TWO_PI * hz / RATE_F); }

/* A span [t0, t0 + dur) of clip c as indices; false when empty. */
static bool span(const td_audio_clip *c, float t0, float dur, size_t *i0, size_t *n) {
  *i0 = (size_t)(t0 * RATE_F);
  *n = (size_t)(dur * RATE_F);
  if (*i0 >= c->frames) return false;
  if (*i0 + *n > c->frames) *n = c->frames - *i0;
  return *n > 0;
}

/* The envelope at t of a part dur long: linear attack, exponential decay
** (time constant decay, 0: none), linear release over its last `release`. */
static float envelope(float t, float dur, float attack, float decay, float release) {
  float e = attack > 0 && t < attack ? t / attack : 1.0f;
  if (decay > 0) e *= expf(-t / decay);
  float left = dur - t;
  if (release > 0 && left < release) e *= left > 0 ? left / release : 0;
  return e;
}

#define MAX_PARTIALS 12

typedef struct note {
  float t0, dur;          /* seconds */
  float f0, f1, glide;    /* from f0 to f1 (0: no glide), exponentially over glide s (0: dur) */
  float amp;
  float attack, decay, release;
  const float *partials;  /* amplitudes of partials 1..n (NULL: a sine) */
  int npartials;
  const float *ratios;    /* each partial's frequency / f (NULL: 1, 2, 3...) */
  float damp;             /* partial k (0-based) decays with decay / (1 + damp k) */
  float vibrato;          /* depth (share of the frequency), 5.5 Hz, from 0.12 s */
} note;

static void add_note(td_audio_clip *c, const note *nt) {
  size_t i0, n;
  if (!span(c, nt->t0, nt->dur, &i0, &n)) return;
  static const float sine = 1.0f;
  const float *amp = nt->partials ? nt->partials : &sine;
  int np = nt->partials ? nt->npartials : 1;
  if (np > MAX_PARTIALS) np = MAX_PARTIALS;
  float phase[MAX_PARTIALS] = {0};
  float glide = nt->glide > 0 ? nt->glide : nt->dur;
  for (size_t i = 0; i < n; i++) {
    float t = (float)i / RATE_F;
    float f = nt->f0;
    if (nt->f1 > 0) f = nt->f0 * powf(nt->f1 / nt->f0, t < glide ? t / glide : 1.0f);
    if (nt->vibrato > 0 && t > 0.12f) f *= 1.0f + nt->vibrato * sinf(TWO_PI * 5.5f * t);
    float e = envelope(t, nt->dur, nt->attack, 0, nt->release);
    float s = 0;
    for (int k = 0; k < np; k++) {
      float fk = f * (nt->ratios ? nt->ratios[k] : (float)(k + 1));
      if (fk < RATE_F * 0.45f) {
        float d = nt->decay > 0 ? expf(-t * (1.0f + nt->damp * (float)k) / nt->decay) : 1.0f;
        s += amp[k] * d * sinf(TWO_PI * phase[k]);
      }
      phase[k] += fk / RATE_F;
      phase[k] -= floorf(phase[k]);
    }
    c->pcm[i0 + i] += nt->amp * e * s;
  }
}

typedef struct noise {
  float t0, dur, amp;
  float attack, decay, release;
  float lp, hp;           /* cutoffs of a two-pole lowpass and a one-pole highpass, Hz (0: none) */
} noise;

static void add_noise(td_audio_clip *c, uint32_t *rng, const noise *nz) {
  size_t i0, n;
  if (!span(c, nz->t0, nz->dur, &i0, &n)) return;
  float al = nz->lp > 0 ? pole(nz->lp) : 1.0f, ah = nz->hp > 0 ? pole(nz->hp) : 0;
  float l1 = 0, l2 = 0, h = 0;
  for (size_t i = 0; i < n; i++) {
    float t = (float)i / RATE_F;
    float x = frand(rng);
    l1 += al * (x - l1);
    l2 += al * (l1 - l2);
    x = l2;
    h += ah * (x - h);
    x -= h;
    c->pcm[i0 + i] += nz->amp * envelope(t, nz->dur, nz->attack, nz->decay, nz->release) * x;
  }
}

/* A plucked string (Karplus-Strong) of freq Hz (>= 60), softened by a
** lowpass at bright Hz on its first noise; sustain < 1 shortens it. */
static void add_pluck(td_audio_clip *c, uint32_t *rng, float t0, float dur, float freq, float amp,
                      float bright, float sustain) {
  size_t i0, n;
  if (!span(c, t0, dur, &i0, &n)) return;
  float line[1024];
  size_t len = (size_t)(RATE_F / freq);
  if (len < 2) len = 2;
  if (len > 1024) len = 1024;
  float a = pole(bright), y = 0, mean = 0;
  for (size_t k = 0; k < len; k++) {
    y += a * (frand(rng) - y);
    line[k] = y;
    mean += y;
  }
  mean /= (float)len;
  for (size_t k = 0; k < len; k++) line[k] -= mean;
  size_t p = 0;
  for (size_t i = 0; i < n; i++) {
    float t = (float)i / RATE_F;
    float out = line[p], next = line[(p + 1) % len];
    line[p] = sustain * 0.5f * (out + next);
    p = (p + 1) % len;
    c->pcm[i0 + i] += amp * envelope(t, dur, 0.001f, 0, 0.03f) * out;
  }
}

/* The tesla's zap: a sawtooth whose pitch jumps every 6 ms (70-170 Hz),
** lowpassed, over crackle (highpassed noise switched on and off by chance
** every 2 ms). */
static void add_zap(td_audio_clip *c, uint32_t *rng, float dur) {
  size_t i0, n;
  if (!span(c, 0, dur, &i0, &n)) return;
  size_t hop = (size_t)(0.006f * RATE_F), gate_hop = (size_t)(0.002f * RATE_F);
  float f = 120, phase = 0, l1 = 0, l2 = 0, h = 0, gate = 1;
  float al = pole(3500), ah = pole(2500);
  for (size_t i = 0; i < n; i++) {
    float t = (float)i / RATE_F;
    if (i % hop == 0) f = 120.0f + 50.0f * frand(rng);
    if (i % gate_hop == 0) gate = frand(rng) > -0.2f ? 1.0f : 0.0f;
    phase += f / RATE_F;
    phase -= floorf(phase);
    float saw = 2.0f * phase - 1.0f;
    l1 += al * (saw - l1);
    l2 += al * (l1 - l2);
    float x = frand(rng);
    h += ah * (x - h);
    float crackle = (x - h) * gate;
    c->pcm[i0 + i] += envelope(t, dur, 0.003f, 0.07f, 0.04f) * (0.8f * l2 + 0.5f * crackle);
  }
}

static const float SQUARE[] = {1, 0, 0.33f, 0, 0.2f, 0, 0.14f};
static const float SAW[] = {1, 0.5f, 0.33f, 0.25f, 0.2f, 0.16f};
static const float BRASS[] = {1, 0.7f, 0.5f, 0.35f, 0.25f, 0.18f, 0.12f, 0.08f};
static const float SOFT[] = {1, 0.45f, 0.22f, 0.12f, 0.06f};
static const float BELL[] = {1, 0.5f, 0.3f};
static const float BAR_RATIOS[] = {1, 2.76f, 5.4f};
static const float COIN_RATIOS[] = {1, 2.32f, 4.25f};
static const float GONG[] = {1, 0.8f, 0.6f, 0.5f, 0.35f, 0.25f};
static const float GONG_RATIOS[] = {1, 1.52f, 2.15f, 2.83f, 3.6f, 4.4f};
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void synth_one(td_audio_clip *c, td_sound s, uint32_t *rng) {
  switch (s) {
  case TD_SOUND_CLICK:
    add_note(c, &(note){.dur = 0.04f, .f0 = 2200, .f1 = 1400, .glide = 0.02f, .amp = 1, .attack = 0.001f,
                        .decay = 0.008f, .release = 0.005f});
    add_note(c, &(note){.dur = 0.04f, .f0 = 700, .amp = 0.5f, .attack = 0.001f, .decay = 0.012f,
                        .release = 0.005f});
    break;
  case TD_SOUND_ARROW:
    add_pluck(c, rng, 0, 0.22f, 165, 1, 1200, 0.985f);
    add_noise(c, rng, &(noise){.dur = 0.08f, .amp = 0.35f, .attack = 0.002f, .decay = 0.025f,
                               .release = 0.02f, .lp = 6000, .hp = 1500});
    break;
  case TD_SOUND_CANNON:
    /* a body that falls from 220 to 70 Hz (heard on small speakers too), a
    ** lower one under it, the blast and a short crack */
    add_note(c, &(note){.dur = 0.4f, .f0 = 220, .f1 = 70, .glide = 0.15f, .amp = 1, .attack = 0.002f,
                        .decay = 0.1f, .release = 0.05f, .partials = SAW, .npartials = 3});
    add_note(c, &(note){.dur = 0.4f, .f0 = 110, .f1 = 50, .glide = 0.25f, .amp = 0.6f, .attack = 0.004f,
                        .decay = 0.15f, .release = 0.05f});
    add_noise(c, rng, &(noise){.dur = 0.3f, .amp = 2.0f, .attack = 0.001f, .decay = 0.05f,
                               .release = 0.05f, .lp = 1600});
    add_noise(c, rng, &(noise){.dur = 0.03f, .amp = 0.5f, .attack = 0.0005f, .decay = 0.008f,
                               .release = 0.01f, .lp = 4000, .hp = 600});
    break;
  case TD_SOUND_FROST:
    add_note(c, &(note){.dur = 0.32f, .f0 = 1568, .amp = 1, .attack = 0.002f, .decay = 0.14f,
                        .release = 0.05f, .partials = BELL, .npartials = 3, .ratios = BAR_RATIOS,
                        .damp = 0.8f});
    add_note(c, &(note){.t0 = 0.035f, .dur = 0.28f, .f0 = 2093, .amp = 0.6f, .attack = 0.002f,
                        .decay = 0.1f, .release = 0.05f, .partials = BELL, .npartials = 3,
                        .ratios = BAR_RATIOS, .damp = 0.8f});
    add_noise(c, rng, &(noise){.dur = 0.12f, .amp = 0.3f, .attack = 0.005f, .decay = 0.04f,
                               .release = 0.03f, .lp = 10000, .hp = 4000});
    break;
  case TD_SOUND_ZAP: add_zap(c, rng, 0.25f); break;
  case TD_SOUND_FLAK:
    add_noise(c, rng, &(noise){.dur = 0.18f, .amp = 1.5f, .attack = 0.001f, .decay = 0.03f,
                               .release = 0.04f, .lp = 2200, .hp = 300});
    add_note(c, &(note){.dur = 0.15f, .f0 = 180, .f1 = 90, .glide = 0.08f, .amp = 0.6f, .attack = 0.002f,
                        .decay = 0.04f, .release = 0.03f});
    break;
  case TD_SOUND_KILL:
    add_note(c, &(note){.dur = 0.14f, .f0 = 880, .f1 = 330, .glide = 0.1f, .amp = 1, .attack = 0.002f,
                        .decay = 0.045f, .release = 0.03f, .partials = SAW, .npartials = 2});
    add_noise(c, rng, &(noise){.dur = 0.03f, .amp = 0.3f, .attack = 0.0005f, .decay = 0.006f,
                               .release = 0.01f, .hp = 3000});
    break;
  case TD_SOUND_LEAK:
    add_note(c, &(note){.dur = 0.18f, .f0 = 392, .amp = 1, .attack = 0.008f, .decay = 0.4f,
                        .release = 0.03f, .partials = SQUARE, .npartials = COUNT_OF(SQUARE)});
    add_note(c, &(note){.t0 = 0.2f, .dur = 0.2f, .f0 = 294, .amp = 1, .attack = 0.008f, .decay = 0.4f,
                        .release = 0.05f, .partials = SQUARE, .npartials = COUNT_OF(SQUARE)});
    break;
  case TD_SOUND_BUILD:
    add_noise(c, rng, &(noise){.dur = 0.05f, .amp = 1.2f, .attack = 0.001f, .decay = 0.012f,
                               .release = 0.01f, .lp = 1200, .hp = 200});
    add_note(c, &(note){.dur = 0.12f, .f0 = 190, .f1 = 150, .amp = 0.9f, .attack = 0.001f,
                        .decay = 0.035f, .release = 0.02f});
    add_note(c, &(note){.t0 = 0.07f, .dur = 0.3f, .f0 = 784, .amp = 0.5f, .attack = 0.004f, .decay = 0.12f,
                        .release = 0.05f, .partials = BELL, .npartials = 3});
    add_note(c, &(note){.t0 = 0.14f, .dur = 0.28f, .f0 = 1175, .amp = 0.5f, .attack = 0.004f,
                        .decay = 0.12f, .release = 0.05f, .partials = BELL, .npartials = 3});
    break;
  case TD_SOUND_SELL:
    add_note(c, &(note){.dur = 0.2f, .f0 = 1760, .amp = 0.8f, .attack = 0.001f, .decay = 0.06f,
                        .release = 0.04f, .partials = BELL, .npartials = 3, .ratios = COIN_RATIOS,
                        .damp = 0.5f});
    add_note(c, &(note){.t0 = 0.06f, .dur = 0.3f, .f0 = 2350, .amp = 0.7f, .attack = 0.001f,
                        .decay = 0.08f, .release = 0.05f, .partials = BELL, .npartials = 3,
                        .ratios = COIN_RATIOS, .damp = 0.5f});
    add_note(c, &(note){.t0 = 0.12f, .dur = 0.26f, .f0 = 1975, .amp = 0.5f, .attack = 0.001f,
                        .decay = 0.07f, .release = 0.05f, .partials = BELL, .npartials = 3,
                        .ratios = COIN_RATIOS, .damp = 0.5f});
    add_noise(c, rng, &(noise){.dur = 0.05f, .amp = 0.2f, .attack = 0.0005f, .decay = 0.01f,
                               .release = 0.01f, .hp = 5000});
    break;
  case TD_SOUND_UPGRADE: {
    static const float arp[4] = {523.25f, 659.25f, 783.99f, 1046.5f};
    for (int k = 0; k < 4; k++)
      add_note(c, &(note){.t0 = 0.07f * (float)k, .dur = k == 3 ? 0.34f : 0.3f, .f0 = arp[k], .amp = 1,
                          .attack = 0.004f, .decay = 0.12f, .release = 0.06f, .partials = BELL,
                          .npartials = 3});
    break;
  }
  case TD_SOUND_REFUSED:
    for (int k = 0; k < 2; k++)
      add_note(c, &(note){.t0 = 0.13f * (float)k, .dur = 0.09f, .f0 = 150, .amp = 1, .attack = 0.005f,
                          .decay = 0.2f, .release = 0.02f, .partials = SAW, .npartials = COUNT_OF(SAW)});
    break;
  case TD_SOUND_WAVE:
    add_note(c, &(note){.dur = 0.2f, .f0 = 196, .amp = 1, .attack = 0.03f, .release = 0.04f,
                        .partials = BRASS, .npartials = COUNT_OF(BRASS), .decay = 1.5f, .damp = 0.3f});
    add_note(c, &(note){.t0 = 0.21f, .dur = 0.52f, .f0 = 261.63f, .amp = 1, .attack = 0.03f, .decay = 0.6f,
                        .release = 0.15f, .vibrato = 0.006f, .partials = BRASS, .npartials = COUNT_OF(BRASS),
                        .damp = 0.3f});
    add_note(c, &(note){.t0 = 0.21f, .dur = 0.52f, .f0 = 130.81f, .amp = 0.4f, .attack = 0.04f,
                        .decay = 0.6f, .release = 0.15f, .partials = SOFT, .npartials = COUNT_OF(SOFT)});
    break;
  case TD_SOUND_BOSS:
    /* a gong on D3, over a drone of A2 and B-flat 2 beating against it and
    ** a rumble */
    add_note(c, &(note){.dur = 2.2f, .f0 = 146.8f, .amp = 1, .attack = 0.003f, .decay = 0.7f,
                        .release = 0.3f, .partials = GONG, .npartials = COUNT_OF(GONG), .ratios = GONG_RATIOS,
                        .damp = 0.6f});
    add_note(c, &(note){.dur = 2.2f, .f0 = 110, .amp = 0.5f, .attack = 0.4f, .decay = 1.2f, .release = 0.5f,
                        .partials = SAW, .npartials = 4});
    add_note(c, &(note){.dur = 2.2f, .f0 = 116.54f, .amp = 0.4f, .attack = 0.4f, .decay = 1.2f,
                        .release = 0.5f, .partials = SAW, .npartials = 4});
    add_noise(c, rng, &(noise){.dur = 1.6f, .amp = 1.2f, .attack = 0.3f, .decay = 0.6f, .release = 0.4f,
                               .lp = 250});
    break;
  case TD_SOUND_VICTORY: {
    static const float line[4] = {523.25f, 659.25f, 783.99f, 1046.5f};
    for (int k = 0; k < 3; k++)
      add_note(c, &(note){.t0 = 0.13f * (float)k, .dur = 0.14f, .f0 = line[k], .amp = 1, .attack = 0.01f,
                          .decay = 0.3f, .release = 0.03f, .partials = SOFT, .npartials = COUNT_OF(SOFT)});
    for (int k = 0; k < 4; k++)
      add_note(c, &(note){.t0 = 0.39f, .dur = 1.25f, .f0 = line[k], .amp = k == 3 ? 1.0f : 0.5f,
                          .attack = 0.012f, .decay = 0.7f, .release = 0.3f, .vibrato = k == 3 ? 0.005f : 0,
                          .partials = SOFT, .npartials = COUNT_OF(SOFT), .damp = 0.3f});
    break;
  }
  case TD_SOUND_DEFEAT: {
    static const float line[3] = {392.0f, 311.13f, 261.63f};
    for (int k = 0; k < 3; k++)
      add_note(c, &(note){.t0 = 0.32f * (float)k, .dur = 0.32f, .f0 = line[k], .amp = 1, .attack = 0.02f,
                          .decay = 0.5f, .release = 0.05f, .partials = SOFT, .npartials = COUNT_OF(SOFT)});
    add_note(c, &(note){.t0 = 0.96f, .dur = 1.2f, .f0 = 130.81f, .amp = 1, .attack = 0.02f, .decay = 0.8f,
                        .release = 0.4f, .vibrato = 0.008f, .partials = SOFT, .npartials = COUNT_OF(SOFT)});
    add_note(c, &(note){.t0 = 0.96f, .dur = 1.2f, .f0 = 155.56f, .amp = 0.7f, .attack = 0.02f,
                        .decay = 0.8f, .release = 0.4f, .vibrato = 0.008f, .partials = SOFT,
                        .npartials = COUNT_OF(SOFT)});
    break;
  }
  default: break;
  }
}

int td_audio_synth(td_audio_bank *b) {
  memset(b, 0, sizeof *b);
  for (int s = 0; s < TD_SOUND_COUNT; s++) {
    td_audio_clip *c = &b->clip[s];
    c->frames = (uint32_t)(INFO[s].seconds * RATE_F);
    c->pcm = calloc(c->frames, sizeof *c->pcm);
    if (!c->pcm) {
      td_audio_bank_free(b);
      return -1;
    }
    uint32_t rng = 0x9E3779B9u * (uint32_t)(s + 1);
    synth_one(c, (td_sound)s, &rng);
    float peak = 0;
    for (uint32_t i = 0; i < c->frames; i++) peak = fmaxf(peak, fabsf(c->pcm[i]));
    float k = peak > 0 ? INFO[s].peak / peak : 0;
    uint32_t fade = (uint32_t)(0.005f * RATE_F);
    for (uint32_t i = 0; i < c->frames; i++) {
      uint32_t left = c->frames - i;
      c->pcm[i] *= left < fade ? k * (float)(left - 1) / (float)fade : k;
    }
  }
  return 0;
}

void td_audio_bank_free(td_audio_bank *b) {
  for (int s = 0; s < TD_SOUND_COUNT; s++) free(b->clip[s].pcm);
  memset(b, 0, sizeof *b);
}

/* ---- the mixer ---------------------------------------------------------------- */

static int clamp_volume(int v) { return v < 0 ? 0 : v > 100 ? 100 : v; }

static float volume_gain(int volume, bool muted) {
  float v = (float)clamp_volume(volume) / 100.0f;
  return muted ? 0.0f : v * v;
}

void td_audio_mixer_init(td_audio_mixer *m, const td_audio_bank *b, int volume, bool muted) {
  memset(m, 0, sizeof *m);
  m->bank = b;
  for (int v = 0; v < TD_AUDIO_VOICES; v++) m->voice[v].sound = -1;
  m->volume = clamp_volume(volume);
  m->muted = muted;
  m->gain = volume_gain(m->volume, muted);
  m->rng = 0x2545F491u;
  td_music_init(&m->music, NULL, 0);
  m->music.muted = muted;
}

void td_audio_mixer_set_volume(td_audio_mixer *m, int volume, bool muted) {
  m->volume = clamp_volume(volume);
  m->muted = muted;
  m->music.muted = muted;
}

bool td_audio_start(td_audio_mixer *m, td_sound s, float gain, float pan) {
  if ((unsigned)s >= TD_SOUND_COUNT || !m->bank || !m->bank->clip[s].frames) {
    m->refused++;
    return false;
  }
  uint64_t gap = (uint64_t)INFO[s].gap_ms * TD_AUDIO_RATE / 1000;
  if (m->last[s] && m->clock + 1 - m->last[s] < gap) {
    m->refused++;
    return false;
  }
  int v = -1;
  for (int k = 0; k < TD_AUDIO_VOICES && v < 0; k++)
    if (m->voice[k].sound < 0) v = k;
  if (v < 0) {
    /* every voice plays: the least important sound, nearest its end, gives way */
    float best_done = -1;
    int best_pri = 1 << 30;
    for (int k = 0; k < TD_AUDIO_VOICES; k++) {
      const td_audio_voice *vo = &m->voice[k];
      int pri = INFO[vo->sound].priority;
      float done = (float)(vo->pos >> 16) / (float)m->bank->clip[vo->sound].frames;
      if (pri < best_pri || (pri == best_pri && done > best_done)) {
        best_pri = pri;
        best_done = done;
        v = k;
      }
    }
    if (best_pri > INFO[s].priority) {
      m->refused++;
      return false;
    }
  }
  if (!(gain >= 0)) gain = 0; /* NaN too */
  if (gain > 1) gain = 1;
  if (isnan(pan)) pan = 0;
  if (pan < -1) pan = -1;
  if (pan > 1) pan = 1;
  float rate = 1.0f;
  if (INFO[s].pitch > 0) rate += INFO[s].pitch * frand(&m->rng);
  td_audio_voice *vo = &m->voice[v];
  vo->sound = (int32_t)s;
  vo->pos = 0;
  vo->step = (uint32_t)lrintf(rate * 65536.0f);
  vo->gain_l = gain * (pan > 0 ? 1.0f - pan : 1.0f);
  vo->gain_r = gain * (pan < 0 ? 1.0f + pan : 1.0f);
  m->last[s] = m->clock + 1;
  m->started[s]++;
  return true;
}

int td_audio_voices(const td_audio_mixer *m) {
  int n = 0;
  for (int v = 0; v < TD_AUDIO_VOICES; v++) n += m->voice[v].sound >= 0;
  return n;
}

/* Linear to half of full scale, then a tanh knee toward (never reaching) 1. */
static float soft_clip(float x) {
  float a = fabsf(x);
  if (a <= 0.5f) return x;
  float y = 0.5f + 0.5f * tanhf((a - 0.5f) * 2.0f);
  return x < 0 ? -y : y;
}

void td_audio_mix(td_audio_mixer *m, int16_t *out, size_t frames) {
  float acc[2 * MIX_CHUNK], mus[2 * MIX_CHUNK];
  float target = volume_gain(m->volume, m->muted);
  float ramp = 1.0f / (0.005f * RATE_F);
  for (size_t done = 0; done < frames;) {
    size_t n = frames - done < MIX_CHUNK ? frames - done : MIX_CHUNK;
    memset(acc, 0, 2 * n * sizeof acc[0]);
    memset(mus, 0, 2 * n * sizeof mus[0]);
    td_music_mix(&m->music, mus, n); /* at its own volume, under the effects */
    for (int k = 0; k < TD_AUDIO_VOICES; k++) {
      td_audio_voice *vo = &m->voice[k];
      if (vo->sound < 0) continue;
      const td_audio_clip *c = &m->bank->clip[vo->sound];
      for (size_t i = 0; i < n; i++) {
        uint64_t at = vo->pos >> 16;
        if (at >= c->frames) break;
        float a = c->pcm[at], b = at + 1 < c->frames ? c->pcm[at + 1] : 0.0f;
        float x = a + (b - a) * (float)(vo->pos & 0xffff) * (1.0f / 65536.0f);
        acc[2 * i] += x * vo->gain_l;
        acc[2 * i + 1] += x * vo->gain_r;
        vo->pos += vo->step;
      }
      if ((vo->pos >> 16) >= c->frames) vo->sound = -1;
    }
    for (size_t i = 0; i < n; i++) {
      float d = target - m->gain;
      m->gain = fabsf(d) <= ramp ? target : m->gain + (d > 0 ? ramp : -ramp);
      for (int ch = 0; ch < 2; ch++) {
        size_t k = 2 * i + (size_t)ch;
        long s = lrintf(soft_clip(acc[k] * m->gain + mus[k]) * 32767.0f);
        out[2 * (done + i) + (size_t)ch] = (int16_t)(s > 32767 ? 32767 : s < -32767 ? -32767 : s);
      }
    }
    done += n;
  }
  m->clock += frames;
}

/* ---- on an SDL device ------------------------------------------------------------ */

struct td_audio {
  SDL_AudioDeviceID dev;
  td_audio_bank bank;
  td_music_bank music;
  td_audio_mixer mix;
};

/* Audio back ends (ALSA's library above all) print their own complaints on
** stderr when no device opens, eight lines and more; td says it in one
** (with SDL's reason). So stderr goes to /dev/null while SDL looks for a
** device: quiet_begin returns the real stderr to give back to quiet_end. */
#if defined(__unix__) || defined(__APPLE__)
static int quiet_begin(void) {
  fflush(stderr);
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  if (saved < 0 || null < 0 || dup2(null, 2) < 0) {
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    return -1;
  }
  close(null);
  return saved;
}
static void quiet_end(int saved) {
  if (saved < 0) return;
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
}
#else
static int quiet_begin(void) { return -1; }
static void quiet_end(int saved) { (void)saved; }
#endif

/* SDL's audio thread, with the device locked */
static void SDLCALL feed(void *ud, Uint8 *stream, int len) {
  td_audio *a = ud;
  td_audio_mix(&a->mix, (int16_t *)(void *)stream, (size_t)len / (2 * sizeof(int16_t)));
}

td_audio *td_audio_open(int volume, bool muted, char *why, size_t why_size) {
  char tmp[8];
  if (!why || !why_size) {
    why = tmp;
    why_size = sizeof tmp;
  }
  td_audio *a = calloc(1, sizeof *a);
  if (!a || td_audio_synth(&a->bank) != 0 || td_music_synth(&a->music) != 0) {
    snprintf(why, why_size, "no audio: out of memory");
    if (a) td_audio_bank_free(&a->bank);
    free(a);
    return NULL;
  }
  int quiet = quiet_begin();
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
    quiet_end(quiet);
    snprintf(why, why_size, "no audio device: %s", SDL_GetError());
    td_audio_bank_free(&a->bank);
    td_music_bank_free(&a->music);
    free(a);
    return NULL;
  }
  td_audio_mixer_init(&a->mix, &a->bank, volume, muted);
  td_music_init(&a->mix.music, &a->music, 0);
  a->mix.music.muted = muted;
  SDL_AudioSpec want, have;
  SDL_zero(want);
  want.freq = TD_AUDIO_RATE;
  want.format = AUDIO_S16SYS;
  want.channels = 2;
  want.samples = 1024; /* about 21 ms a callback */
  want.callback = feed;
  want.userdata = a;
  a->dev = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0);
  quiet_end(quiet);
  if (!a->dev) {
    snprintf(why, why_size, "no audio device: %s", SDL_GetError());
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    td_audio_bank_free(&a->bank);
    td_music_bank_free(&a->music);
    free(a);
    return NULL;
  }
  SDL_PauseAudioDevice(a->dev, 0);
  return a;
}

void td_audio_close(td_audio *a) {
  if (!a) return;
  SDL_CloseAudioDevice(a->dev);
  SDL_QuitSubSystem(SDL_INIT_AUDIO);
  td_audio_bank_free(&a->bank);
  td_music_bank_free(&a->music);
  free(a);
}

void td_audio_play(td_audio *a, td_sound s, float gain, float pan) {
  if (!a) return;
  SDL_LockAudioDevice(a->dev);
  td_audio_start(&a->mix, s, gain, pan);
  SDL_UnlockAudioDevice(a->dev);
}

void td_audio_set_volume(td_audio *a, int volume, bool muted) {
  if (!a) return;
  SDL_LockAudioDevice(a->dev);
  td_audio_mixer_set_volume(&a->mix, volume, muted);
  SDL_UnlockAudioDevice(a->dev);
}

void td_audio_get_volume(td_audio *a, int *volume, bool *muted) {
  if (!a) return;
  SDL_LockAudioDevice(a->dev);
  *volume = a->mix.volume;
  *muted = a->mix.muted;
  SDL_UnlockAudioDevice(a->dev);
}

uint64_t td_audio_started(td_audio *a, int s) {
  if (!a) return 0;
  uint64_t n = 0;
  SDL_LockAudioDevice(a->dev);
  for (int k = 0; k < TD_SOUND_COUNT; k++)
    if (s < 0 || s == k) n += a->mix.started[k];
  SDL_UnlockAudioDevice(a->dev);
  return n;
}

void td_audio_music(td_audio *a, td_music_track t, float intensity) {
  if (!a) return;
  SDL_LockAudioDevice(a->dev);
  td_music_play(&a->mix.music, t);
  td_music_set_intensity(&a->mix.music, intensity);
  SDL_UnlockAudioDevice(a->dev);
}

void td_audio_set_music_volume(td_audio *a, int volume) {
  if (!a) return;
  SDL_LockAudioDevice(a->dev);
  td_music_set_volume(&a->mix.music, volume);
  SDL_UnlockAudioDevice(a->dev);
}

void td_audio_get_music(td_audio *a, int *track, int *volume, float *layer) {
  if (!a) return;
  SDL_LockAudioDevice(a->dev);
  *track = a->mix.music.want;
  *volume = a->mix.music.volume;
  *layer = a->mix.music.layer;
  SDL_UnlockAudioDevice(a->dev);
}
