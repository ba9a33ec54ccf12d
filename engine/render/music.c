/*
** music.c: the music's loops and their player (see music.h).
**
** A loop is written note by note into a float buffer: a note is a few
** partials read from a sine table (no sinf per sample: two loops of 16 to
** 21 s are made at every start), with a linear attack, an exponential
** decay and a release; drums are a sine gliding down (the kick) and
** filtered noise (the snare, the hats). Every write is at (start + i) mod
** the loop's length, so what rings past the end sounds at the start. A
** track's layers are then scaled together to TD_MUSIC_PEAK.
*/
#include "render/music.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/audio.h"

#define RATE_F ((float)TD_AUDIO_RATE)
#define TABLE 4096
#define MIX_CHUNK 256

typedef struct loop {
  float *pcm;
  uint32_t frames;
  const float *sine;     /* TABLE + 1 entries, one period */
  uint32_t rng;
} loop;

static float table_sin(const float *t, float phase) {
  float x = phase * (float)TABLE;
  int i = (int)x;
  float f = x - (float)i;
  i &= TABLE - 1;
  return t[i] + (t[i + 1] - t[i]) * f;
}

static float frand(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return (float)(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

/* MIDI note to Hz (69: A4, 440). */
static float hz(int midi) { return 440.0f * powf(2.0f, (float)(midi - 69) / 12.0f); }

typedef struct tone {
  float t0, dur;         /* seconds */
  float f;               /* Hz */
  float amp, attack, decay, release; /* decay: time constant, 0 none */
  const float *partials; /* amplitudes of 1f, 2f, 3f... */
  int np;
} tone;

static void add_tone(loop *l, const tone *t) {
  uint32_t i0 = (uint32_t)(t->t0 * RATE_F), n = (uint32_t)(t->dur * RATE_F);
  float ph[6] = {0};
  int np = t->np > 6 ? 6 : t->np;
  for (uint32_t i = 0; i < n; i++) {
    float s = (float)i / RATE_F, left = t->dur - s;
    float e = t->attack > 0 && s < t->attack ? s / t->attack : 1.0f;
    if (t->decay > 0) e *= expf(-s / t->decay);
    if (left < t->release) e *= left / t->release;
    float x = 0;
    for (int k = 0; k < np; k++) {
      float fk = t->f * (float)(k + 1);
      if (fk < RATE_F * 0.45f) x += t->partials[k] * table_sin(l->sine, ph[k]);
      ph[k] += fk / RATE_F;
      ph[k] -= floorf(ph[k]);
    }
    l->pcm[(i0 + i) % l->frames] += t->amp * e * x;
  }
}

/* A kick: a sine gliding from 120 to 45 Hz, short. */
static void add_kick(loop *l, float t0, float amp) {
  uint32_t i0 = (uint32_t)(t0 * RATE_F), n = (uint32_t)(0.25f * RATE_F);
  float ph = 0;
  for (uint32_t i = 0; i < n; i++) {
    float s = (float)i / RATE_F;
    float f = 45.0f + 75.0f * expf(-s / 0.03f);
    ph += f / RATE_F;
    ph -= floorf(ph);
    float e = expf(-s / 0.09f) * (s < 0.002f ? s / 0.002f : 1.0f);
    l->pcm[(i0 + i) % l->frames] += amp * e * table_sin(l->sine, ph);
  }
}

/* Noise through a one-pole lowpass at lp Hz and a highpass at hp Hz. */
static void add_hiss(loop *l, float t0, float dur, float amp, float decay, float lp, float hp) {
  uint32_t i0 = (uint32_t)(t0 * RATE_F), n = (uint32_t)(dur * RATE_F);
  float al = 1.0f - expf(-6.2831853f * lp / RATE_F), ah = 1.0f - expf(-6.2831853f * hp / RATE_F);
  float lo = 0, h = 0;
  for (uint32_t i = 0; i < n; i++) {
    float s = (float)i / RATE_F;
    lo += al * (frand(&l->rng) - lo);
    h += ah * (lo - h);
    float left = dur - s, e = expf(-s / decay) * (left < 0.005f ? left / 0.005f : 1.0f);
    l->pcm[(i0 + i) % l->frames] += amp * e * (lo - h);
  }
}

static const float PAD[] = {1.0f, 0.35f, 0.18f, 0.08f};
static const float BASS[] = {1.0f, 0.5f, 0.2f};
static const float BELL[] = {1.0f, 0.0f, 0.25f, 0.0f, 0.1f};
static const float LEAD[] = {1.0f, 0.0f, 0.33f, 0.0f, 0.2f, 0.0f};
#define NP(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The menu: A minor, 90 a minute, 8 bars of Am F C G (two bars each):
** pads, a bass note a bar, an arpeggio of bells in eighths. */
static void menu_track(loop *l) {
  const float beat = 60.0f / 90.0f, bar = 4 * beat;
  static const int chords[4][3] = {{57, 60, 64}, {53, 57, 60}, {48, 52, 55}, {55, 59, 62}};
  static const int arp[8] = {0, 1, 2, 1, 0, 2, 1, 2};
  for (int c = 0; c < 4; c++) {
    float t0 = (float)c * 2 * bar;
    for (int k = 0; k < 3; k++)
      add_tone(l, &(tone){.t0 = t0, .dur = 2 * bar + 0.6f, .f = hz(chords[c][k]), .amp = 0.22f,
                          .attack = 0.9f, .release = 1.2f, .partials = PAD, .np = NP(PAD)});
    for (int b = 0; b < 2; b++)
      add_tone(l, &(tone){.t0 = t0 + (float)b * bar, .dur = bar, .f = hz(chords[c][0] - 12), .amp = 0.35f,
                          .attack = 0.02f, .decay = 1.2f, .release = 0.3f, .partials = BASS, .np = NP(BASS)});
    for (int e = 0; e < 16; e++) {
      int note = chords[c][arp[e % 8]] + 12 + (e % 8 >= 4 ? 12 : 0);
      add_tone(l, &(tone){.t0 = t0 + (float)e * beat / 2, .dur = 0.9f, .f = hz(note), .amp = 0.13f,
                          .attack = 0.005f, .decay = 0.35f, .release = 0.2f, .partials = BELL,
                          .np = NP(BELL)});
    }
  }
}

/* The game: D minor, 120 a minute, 8 bars of Dm Bb F C. Layer 1: a pad, a
** bass in eighths, soft hats on the off-beats. Layer 2 (a wave on): a kick
** on every beat, a snare on 2 and 4, a lead running in sixteenths. */
static void play_track(loop *base, loop *wave) {
  const float beat = 0.5f, bar = 4 * beat;
  static const int chords[4][3] = {{50, 53, 57}, {46, 50, 53}, {53, 57, 60}, {48, 52, 55}};
  static const int run[8] = {0, 1, 2, 1, 2, 0, 1, 2};
  for (int c = 0; c < 4; c++) {
    float t0 = (float)c * 2 * bar;
    for (int k = 0; k < 3; k++)
      add_tone(base, &(tone){.t0 = t0, .dur = 2 * bar + 0.3f, .f = hz(chords[c][k]), .amp = 0.12f,
                             .attack = 0.4f, .release = 0.6f, .partials = PAD, .np = NP(PAD)});
    for (int e = 0; e < 16; e++) {
      float t = t0 + (float)e * beat / 2;
      int root = chords[c][0] - 12 - (chords[c][0] > 50 ? 12 : 0);
      add_tone(base, &(tone){.t0 = t, .dur = 0.24f, .f = hz(root + (e % 4 == 3 ? 7 : 0)), .amp = 0.28f,
                             .attack = 0.004f, .decay = 0.16f, .release = 0.05f, .partials = BASS,
                             .np = NP(BASS)});
      if (e % 2) add_hiss(base, t, 0.05f, 0.10f, 0.02f, 9000, 5000);
    }
    for (int q = 0; q < 8; q++) {
      float t = t0 + (float)q * beat;
      add_kick(wave, t, 0.7f);
      if (q % 2) {
        add_hiss(wave, t, 0.18f, 0.7f, 0.06f, 5000, 900);
        add_tone(wave, &(tone){.t0 = t, .dur = 0.1f, .f = 185, .amp = 0.25f, .attack = 0.001f,
                               .decay = 0.04f, .release = 0.02f, .partials = BASS, .np = 1});
      }
    }
    for (int s = 0; s < 32; s++) {
      int note = chords[c][run[s % 8]] + 24 - (s % 16 >= 8 ? 12 : 0);
      add_tone(wave, &(tone){.t0 = t0 + (float)s * beat / 4, .dur = 0.16f, .f = hz(note), .amp = 0.3f,
                             .attack = 0.003f, .decay = 0.07f, .release = 0.03f, .partials = LEAD,
                             .np = NP(LEAD)});
    }
  }
}

static float *zeros(uint32_t n) { return calloc(n, sizeof(float)); }

int td_music_synth(td_music_bank *b) {
  memset(b, 0, sizeof *b);
  float sine[TABLE + 1];
  for (int i = 0; i <= TABLE; i++) sine[i] = sinf(6.28318531f * (float)i / (float)TABLE);
  b->frames[TD_MUSIC_MENU] = (uint32_t)(8 * 4 * (60.0f / 90.0f) * RATE_F);
  b->frames[TD_MUSIC_PLAY] = (uint32_t)(8 * 4 * 0.5f * RATE_F);
  for (int t = TD_MUSIC_MENU; t < TD_MUSIC_TRACKS; t++) {
    int layers = t == TD_MUSIC_PLAY ? 2 : 1;
    for (int k = 0; k < layers; k++)
      if (!(b->pcm[t][k] = zeros(b->frames[t]))) {
        td_music_bank_free(b);
        return -1;
      }
  }
  loop menu = {b->pcm[TD_MUSIC_MENU][0], b->frames[TD_MUSIC_MENU], sine, 0x1234567u};
  loop base = {b->pcm[TD_MUSIC_PLAY][0], b->frames[TD_MUSIC_PLAY], sine, 0x2345671u};
  loop wave = {b->pcm[TD_MUSIC_PLAY][1], b->frames[TD_MUSIC_PLAY], sine, 0x3456712u};
  menu_track(&menu);
  play_track(&base, &wave);
  /* each track's layers together peak at TD_MUSIC_PEAK */
  for (int t = TD_MUSIC_MENU; t < TD_MUSIC_TRACKS; t++) {
    float peak = 0;
    for (uint32_t i = 0; i < b->frames[t]; i++) {
      float x = 0;
      for (int k = 0; k < TD_MUSIC_LAYERS; k++)
        if (b->pcm[t][k]) x += b->pcm[t][k][i];
      peak = fmaxf(peak, fabsf(x));
    }
    float g = peak > 0 ? TD_MUSIC_PEAK / peak : 0;
    for (int k = 0; k < TD_MUSIC_LAYERS; k++)
      for (uint32_t i = 0; b->pcm[t][k] && i < b->frames[t]; i++) b->pcm[t][k][i] *= g;
  }
  return 0;
}

void td_music_bank_free(td_music_bank *b) {
  for (int t = 0; t < TD_MUSIC_TRACKS; t++)
    for (int k = 0; k < TD_MUSIC_LAYERS; k++) free(b->pcm[t][k]);
  memset(b, 0, sizeof *b);
}

double td_music_seconds(const td_music_bank *b, td_music_track t) {
  return (unsigned)t < TD_MUSIC_TRACKS ? (double)b->frames[t] / TD_AUDIO_RATE : 0;
}

const char *td_music_track_name(td_music_track t) {
  static const char *const names[TD_MUSIC_TRACKS] = {"none", "menu", "play"};
  return (unsigned)t < TD_MUSIC_TRACKS ? names[t] : NULL;
}

/* ---- the player ------------------------------------------------------------ */

static int clamp100(int v) { return v < 0 ? 0 : v > 100 ? 100 : v; }

static float target_gain(const td_music_player *p) {
  float v = (float)p->volume / 100.0f;
  return p->muted ? 0.0f : v * v;
}

void td_music_init(td_music_player *p, const td_music_bank *b, int volume) {
  memset(p, 0, sizeof *p);
  p->bank = b;
  p->volume = clamp100(volume);
  p->gain = target_gain(p);
}

void td_music_play(td_music_player *p, td_music_track t) {
  if ((unsigned)t < TD_MUSIC_TRACKS) p->want = (int32_t)t;
}

void td_music_set_intensity(td_music_player *p, float level) {
  p->layer_want = !(level > 0) ? 0 : level > 1 ? 1 : level;
}

void td_music_set_volume(td_music_player *p, int volume) { p->volume = clamp100(volume); }

void td_music_mix(td_music_player *p, float *acc, size_t frames) {
  const float fade_step = 1.0f / (0.4f * RATE_F), layer_step = 1.0f / (1.5f * RATE_F);
  const float ramp = 1.0f / (0.005f * RATE_F);
  float target = target_gain(p);
  for (size_t i = 0; i < frames; i++) {
    /* the track: fade out, switch, fade in */
    if (p->want != p->track) {
      p->fade -= fade_step;
      if (p->fade <= 0) {
        p->fade = 0;
        p->track = p->want;
        p->pos = 0;
      }
    } else if (p->fade < 1) {
      p->fade = fminf(1.0f, p->fade + fade_step);
    }
    float d = p->layer_want - p->layer;
    p->layer = fabsf(d) <= layer_step ? p->layer_want : p->layer + (d > 0 ? layer_step : -layer_step);
    d = target - p->gain;
    p->gain = fabsf(d) <= ramp ? target : p->gain + (d > 0 ? ramp : -ramp);
    const td_music_bank *b = p->bank;
    if (!b || p->track <= TD_MUSIC_NONE || !b->frames[p->track]) continue;
    uint32_t n = b->frames[p->track];
    if (p->pos >= n) p->pos = 0;
    float x = b->pcm[p->track][0] ? b->pcm[p->track][0][p->pos] : 0;
    if (b->pcm[p->track][1]) x += p->layer * b->pcm[p->track][1][p->pos];
    x *= p->fade * p->gain;
    acc[2 * i] += x;
    acc[2 * i + 1] += x;
    p->pos = p->pos + 1 < n ? p->pos + 1 : 0;
  }
}
