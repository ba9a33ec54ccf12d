/*
** test_audio.c: the sound effects without a device: every synthesised
** sound is short, quiet and not silent; the mixer is silent at volume 0 and
** muted, scales with the volume, ramps a change, pans, keeps to its voices
** and each sound's minimum gap, never passes full scale, and gives the same
** samples for the same calls. The music (music.h): both loops made, as
** long as their bars, quiet (at most TD_MUSIC_PEAK) and seamless; the
** mixer's music channel plays at its own volume (the (v/100)^2 curve,
** whatever the effects' volume), is exactly silent at 0 and muted, fades
** between tracks and brings its second layer in with the intensity.
**
** TD_AUDIO_WAV_DIR=DIR also writes every sound and a mixed battle scene as
** WAV files there and prints each sound's length, peak and RMS (how the
** sounds were listened to and measured).
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/audio.h"

#define RATE TD_AUDIO_RATE
#define MS(ms) ((size_t)(ms) * RATE / 1000)

/* ---- helpers ------------------------------------------------------------- */

typedef struct level {
  double peak, rms; /* of the samples, in full scale (32767 = 1) */
} level;

static level measure(const int16_t *s, size_t n) {
  level l = {0, 0};
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    double x = s[i] / 32767.0;
    if (fabs(x) > l.peak) l.peak = fabs(x);
    sum += x * x;
  }
  l.rms = n ? sqrt(sum / (double)n) : 0;
  return l;
}

/* Mixes `frames` into a new buffer (stereo). */
static int16_t *mix_new(td_audio_mixer *m, size_t frames) {
  int16_t *out = malloc(frames * 2 * sizeof *out);
  assert_non_null(out);
  td_audio_mix(m, out, frames);
  return out;
}

static void mix_skip(td_audio_mixer *m, size_t frames) { free(mix_new(m, frames)); }

static bool all_zero(const int16_t *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i]) return false;
  return true;
}

/* A bank whose clips are constant (value) and `seconds` long, for the
** sounds listed; the others empty (starting them is refused). */
static void flat_bank(td_audio_bank *b, float value, float seconds, const td_sound *which, int n) {
  memset(b, 0, sizeof *b);
  for (int k = 0; k < n; k++) {
    td_audio_clip *c = &b->clip[which[k]];
    c->frames = (uint32_t)(seconds * (float)RATE);
    c->pcm = malloc(c->frames * sizeof *c->pcm);
    assert_non_null(c->pcm);
    for (uint32_t i = 0; i < c->frames; i++) c->pcm[i] = value;
  }
}

static td_audio_bank *shared_bank(void) {
  static td_audio_bank bank;
  static bool made;
  if (!made) {
    assert_int_equal(td_audio_synth(&bank), 0);
    made = true;
  }
  return &bank;
}

static int free_shared(void **state) {
  (void)state;
  td_audio_bank_free(shared_bank());
  return 0;
}

/* ---- synthesis ------------------------------------------------------------ */

static void test_every_sound_is_short_quiet_and_heard(void **state) {
  (void)state;
  const td_audio_bank *b = shared_bank();
  for (int s = 0; s < TD_SOUND_COUNT; s++) {
    const td_audio_clip *c = &b->clip[s];
    const char *name = td_audio_sound_name((td_sound)s);
    assert_non_null(name);
    assert_int_equal(td_audio_sound_parse(name), s);
    assert_non_null(c->pcm);
    assert_true(c->frames >= MS(30));
    assert_true(c->frames <= (uint32_t)(TD_AUDIO_MAX_SECONDS * (float)RATE));
    double peak = 0, sum = 0;
    for (uint32_t i = 0; i < c->frames; i++) {
      double x = (double)c->pcm[i];
      assert_true(isfinite(x));
      if (fabs(x) > peak) peak = fabs(x);
      sum += x * x;
    }
    double rms = sqrt(sum / c->frames);
    if (peak < 0.15 || peak > 0.41 || rms < 0.01) fail_msg("%s: peak %.3f rms %.4f", name, peak, rms);
    /* ends at zero: no click when it stops */
    assert_true(fabs((double)c->pcm[c->frames - 1]) < 1e-6);
    /* no DC offset worth a speaker's travel */
    double mean = 0;
    for (uint32_t i = 0; i < c->frames; i++) mean += (double)c->pcm[i];
    mean /= c->frames;
    if (fabs(mean) > 0.02) fail_msg("%s: mean %.4f", name, mean);
  }
  assert_null(td_audio_sound_name(TD_SOUND_COUNT));
  assert_int_equal(td_audio_sound_parse("nope"), -1);
  assert_int_equal(td_audio_sound_parse(NULL), -1);
}

/* Sounds differ from each other (no two clips alike). */
static void test_sounds_are_distinct(void **state) {
  (void)state;
  const td_audio_bank *b = shared_bank();
  for (int s = 0; s < TD_SOUND_COUNT; s++)
    for (int t = s + 1; t < TD_SOUND_COUNT; t++) {
      const td_audio_clip *x = &b->clip[s], *y = &b->clip[t];
      uint32_t n = x->frames < y->frames ? x->frames : y->frames;
      double dot = 0, xx = 0, yy = 0;
      for (uint32_t i = 0; i < n; i++) {
        double p = (double)x->pcm[i], q = (double)y->pcm[i];
        dot += p * q;
        xx += p * p;
        yy += q * q;
      }
      double corr = dot / sqrt(xx * yy + 1e-30);
      if (fabs(corr) > 0.5)
        fail_msg("%s and %s correlate %.2f", td_audio_sound_name((td_sound)s), td_audio_sound_name((td_sound)t),
                 corr);
    }
}

static void test_synthesis_is_deterministic(void **state) {
  (void)state;
  td_audio_bank a, b;
  assert_int_equal(td_audio_synth(&a), 0);
  assert_int_equal(td_audio_synth(&b), 0);
  for (int s = 0; s < TD_SOUND_COUNT; s++) {
    assert_int_equal(a.clip[s].frames, b.clip[s].frames);
    assert_memory_equal(a.clip[s].pcm, b.clip[s].pcm, a.clip[s].frames * sizeof(float));
  }
  td_audio_bank_free(&a);
  td_audio_bank_free(&b);
  assert_null(a.clip[0].pcm);
  td_audio_bank_free(&a); /* twice is safe */
}

/* ---- the mixer ------------------------------------------------------------- */

static void start_all(td_audio_mixer *m) {
  for (int s = 0; s < TD_SOUND_COUNT; s++) assert_true(td_audio_start(m, (td_sound)s, 1, 0));
}

static void test_silent_at_volume_zero_and_muted(void **state) {
  (void)state;
  td_audio_mixer m;
  size_t n = MS(2600);
  /* volume 0 */
  td_audio_mixer_init(&m, shared_bank(), 0, false);
  start_all(&m);
  int16_t *out = mix_new(&m, n);
  assert_true(all_zero(out, 2 * n));
  free(out);
  /* the voices went on: all done after their length */
  assert_int_equal(td_audio_voices(&m), 0);
  /* muted at 100 */
  td_audio_mixer_init(&m, shared_bank(), 100, true);
  start_all(&m);
  out = mix_new(&m, n);
  assert_true(all_zero(out, 2 * n));
  free(out);
  /* nothing playing: silence at any volume */
  td_audio_mixer_init(&m, shared_bank(), 100, false);
  out = mix_new(&m, MS(100));
  assert_true(all_zero(out, 2 * MS(100)));
  free(out);
  /* a volume past the range is clamped */
  td_audio_mixer_init(&m, shared_bank(), -50, false);
  assert_int_equal(m.volume, 0);
  td_audio_mixer_set_volume(&m, 500, false);
  assert_int_equal(m.volume, 100);
}

static void test_output_scales_with_volume(void **state) {
  (void)state;
  /* the upgrade has no pitch variation: the same samples at every volume */
  size_t n = shared_bank()->clip[TD_SOUND_UPGRADE].frames;
  double rms100 = 0, prev = -1;
  for (int v = 100; v >= 10; v -= 10) {
    td_audio_mixer m;
    td_audio_mixer_init(&m, shared_bank(), v, false);
    assert_true(td_audio_start(&m, TD_SOUND_UPGRADE, 1, 0));
    int16_t *out = mix_new(&m, n);
    level l = measure(out, 2 * n);
    free(out);
    if (v == 100) rms100 = l.rms;
    /* (volume / 100)^2, within rounding to 16 bits */
    double want = rms100 * (v / 100.0) * (v / 100.0);
    if (fabs(l.rms - want) > 0.01 * want + 2e-5) fail_msg("volume %d: rms %.5f, want %.5f", v, l.rms, want);
    if (prev >= 0) assert_true(l.rms < prev);
    prev = l.rms;
  }
  assert_true(rms100 > 0.01);
  /* the gain argument scales the same way, linearly */
  td_audio_mixer m;
  td_audio_mixer_init(&m, shared_bank(), 100, false);
  assert_true(td_audio_start(&m, TD_SOUND_UPGRADE, 0.5f, 0));
  int16_t *out = mix_new(&m, n);
  level half = measure(out, 2 * n);
  free(out);
  assert_true(fabs(half.rms - rms100 / 2) < 0.01 * rms100);
}

static void test_volume_change_ramps_then_holds(void **state) {
  (void)state;
  td_sound s = TD_SOUND_BOSS;
  td_audio_bank b;
  flat_bank(&b, 0.25f, 1.0f, &s, 1);
  td_audio_mixer m;
  td_audio_mixer_init(&m, &b, 100, false);
  assert_true(td_audio_start(&m, s, 1, 0));
  int16_t *out = mix_new(&m, MS(10));
  assert_int_equal(out[0], (int16_t)lrint(0.25 * 32767)); /* full at once: no ramp at start */
  free(out);
  td_audio_mixer_set_volume(&m, 100, true);
  out = mix_new(&m, MS(20));
  /* down over 5 ms, one step a frame, then exactly zero */
  for (size_t i = 1; i < MS(20); i++) {
    assert_true(out[2 * i] <= out[2 * (i - 1)]);
    assert_true(out[2 * (i - 1)] - out[2 * i] < 100);
  }
  assert_true(out[2 * MS(2)] > 0);
  assert_true(all_zero(out + 2 * MS(6), 2 * (MS(20) - MS(6))));
  free(out);
  /* unmuted: back up */
  td_audio_mixer_set_volume(&m, 100, false);
  out = mix_new(&m, MS(20));
  assert_int_equal(out[2 * (MS(20) - 1)], (int16_t)lrint(0.25 * 32767));
  free(out);
  td_audio_bank_free(&b);
}

static void test_pan(void **state) {
  (void)state;
  td_sound s = TD_SOUND_BOSS;
  td_audio_bank b;
  flat_bank(&b, 0.2f, 0.1f, &s, 1);
  td_audio_mixer m;
  int16_t out[2 * 64];
  struct {
    float pan;
    int l, r;
  } cases[] = {{-1, 6553, 0}, {1, 0, 6553}, {0, 6553, 6553}, {0.5f, 3277, 6553}, {NAN, 6553, 6553},
               {-7, 6553, 0}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    td_audio_mixer_init(&m, &b, 100, false);
    assert_true(td_audio_start(&m, s, 1, cases[k].pan));
    td_audio_mix(&m, out, 64);
    assert_int_equal(out[10], cases[k].l);
    assert_int_equal(out[11], cases[k].r);
  }
  td_audio_bank_free(&b);
}

static void test_minimum_gap(void **state) {
  (void)state;
  td_audio_mixer m;
  td_audio_mixer_init(&m, shared_bank(), 100, false);
  /* 200 towers fire in the same frame: one arrow sound */
  int ok = 0;
  for (int k = 0; k < 200; k++) ok += td_audio_start(&m, TD_SOUND_ARROW, 1, 0);
  assert_int_equal(ok, 1);
  assert_int_equal((int)m.refused, 199);
  /* another sound is not held back by the arrow's gap */
  assert_true(td_audio_start(&m, TD_SOUND_CANNON, 1, 0));
  /* they fire every 10 ms for a second: about one sound per 70 ms gap */
  td_audio_mixer_init(&m, shared_bank(), 100, false);
  ok = 0;
  for (int t = 0; t < 100; t++) {
    for (int k = 0; k < 200; k++) ok += td_audio_start(&m, TD_SOUND_ARROW, 1, 0);
    mix_skip(&m, MS(10));
  }
  assert_true(ok >= 12 && ok <= 15);
  assert_int_equal((int)m.started[TD_SOUND_ARROW], ok);
  /* a click 40 ms after a click plays, 30 ms after does not */
  td_audio_mixer_init(&m, shared_bank(), 100, false);
  assert_true(td_audio_start(&m, TD_SOUND_CLICK, 1, 0));
  mix_skip(&m, MS(30));
  assert_false(td_audio_start(&m, TD_SOUND_CLICK, 1, 0));
  mix_skip(&m, MS(10));
  assert_true(td_audio_start(&m, TD_SOUND_CLICK, 1, 0));
}

static void test_voice_cap_and_priority(void **state) {
  (void)state;
  td_sound which[3] = {TD_SOUND_ARROW, TD_SOUND_KILL, TD_SOUND_CLICK};
  td_audio_bank b;
  flat_bank(&b, 0.01f, 3.0f, which, 3);
  td_audio_mixer m;
  td_audio_mixer_init(&m, &b, 100, false);
  /* kills 60 ms apart fill every voice */
  for (int k = 0; k < TD_AUDIO_VOICES; k++) {
    assert_true(td_audio_start(&m, TD_SOUND_KILL, 1, 0));
    mix_skip(&m, MS(60));
  }
  assert_int_equal(td_audio_voices(&m), TD_AUDIO_VOICES);
  /* a tower's shot is less important than every kill playing: refused */
  assert_false(td_audio_start(&m, TD_SOUND_ARROW, 1, 0));
  /* a kill takes the voice of the kill nearest its end; the others play on */
  td_audio_voice before[TD_AUDIO_VOICES];
  memcpy(before, m.voice, sizeof before);
  int oldest = 0;
  for (int v = 1; v < TD_AUDIO_VOICES; v++)
    if (before[v].pos > before[oldest].pos) oldest = v;
  assert_true(td_audio_start(&m, TD_SOUND_KILL, 1, 0));
  assert_int_equal(td_audio_voices(&m), TD_AUDIO_VOICES);
  for (int v = 0; v < TD_AUDIO_VOICES; v++) assert_true(m.voice[v].pos == (v == oldest ? 0 : before[v].pos));
  /* a click is more important: it plays, still on 16 voices */
  assert_true(td_audio_start(&m, TD_SOUND_CLICK, 1, 0));
  assert_int_equal(td_audio_voices(&m), TD_AUDIO_VOICES);
  /* 16 voices at 0.01 each: 0.16 of full scale, not 17 */
  int16_t *out = mix_new(&m, 16);
  assert_int_equal(out[0], (int16_t)lrint(0.16 * 32767));
  free(out);
  /* a sound with no clip is refused */
  assert_false(td_audio_start(&m, TD_SOUND_BOSS, 1, 0));
  assert_false(td_audio_start(&m, TD_SOUND_COUNT, 1, 0));
  td_audio_bank_free(&b);
}

/* Sixteen full-scale voices in phase: the soft clip keeps them inside the
** 16-bit range, the same sign, never wrapped. */
static void test_no_clipping_past_the_range(void **state) {
  (void)state;
  for (int sign = -1; sign <= 1; sign += 2) {
    td_sound all[TD_SOUND_COUNT];
    for (int s = 0; s < TD_SOUND_COUNT; s++) all[s] = (td_sound)s;
    td_audio_bank b;
    flat_bank(&b, (float)sign, 0.05f, all, TD_SOUND_COUNT);
    td_audio_mixer m;
    td_audio_mixer_init(&m, &b, 100, false);
    for (int s = 0; s < TD_SOUND_COUNT; s++) assert_true(td_audio_start(&m, (td_sound)s, 1, 0));
    size_t n = MS(40);
    int16_t *out = mix_new(&m, n);
    for (size_t i = 0; i < 2 * n; i++) {
      assert_true(out[i] * sign > 32000);
      assert_true(out[i] * sign <= 32767);
    }
    free(out);
    td_audio_bank_free(&b);
  }
  /* below half of full scale the mix is linear: 0.4 stays 0.4 */
  td_sound s = TD_SOUND_BOSS;
  td_audio_bank b;
  flat_bank(&b, 0.4f, 0.05f, &s, 1);
  td_audio_mixer m;
  td_audio_mixer_init(&m, &b, 100, false);
  assert_true(td_audio_start(&m, s, 1, 0));
  int16_t out[2 * 8];
  td_audio_mix(&m, out, 8);
  assert_int_equal(out[0], (int16_t)lrint(0.4 * 32767));
  td_audio_bank_free(&b);
}

/* A battle: a wave, 200 towers of every kind firing every frame (60 a
** second), kills, leaks, the boss. Loud moments stay under full scale and
** the whole is never a wall of sound. */
static int16_t *battle(const td_audio_bank *bank, size_t *frames_out, td_audio_mixer *m) {
  static const td_sound fire[5] = {TD_SOUND_ARROW, TD_SOUND_CANNON, TD_SOUND_FROST, TD_SOUND_ZAP,
                                   TD_SOUND_FLAK};
  size_t frame = MS(1000) / 60, frames = 240 * frame;
  int16_t *out = malloc(frames * 2 * sizeof *out);
  assert_non_null(out);
  td_audio_mixer_init(m, bank, 100, false);
  td_test_rng rng = {7};
  for (int f = 0; f < 240; f++) {
    if (f == 0) td_audio_start(m, TD_SOUND_WAVE, 1, 0);
    if (f == 60) td_audio_start(m, TD_SOUND_BOSS, 1, 0);
    if (f == 200) td_audio_start(m, TD_SOUND_VICTORY, 1, 0);
    if (f >= 20 && f < 200) {
      for (int k = 0; k < 200; k++)
        td_audio_start(m, fire[k % 5], 0.5f + 0.5f * (float)td_test_unit(&rng),
                       (float)td_test_unit(&rng) * 2 - 1);
      for (int k = 0; k < 5; k++) td_audio_start(m, TD_SOUND_KILL, 1, (float)td_test_unit(&rng) * 2 - 1);
      if (f % 45 == 0) td_audio_start(m, TD_SOUND_LEAK, 1, 0);
    }
    td_audio_mix(m, out + 2 * (size_t)f * frame, frame);
  }
  *frames_out = frames;
  return out;
}

static void test_battle_is_bounded(void **state) {
  (void)state;
  td_audio_mixer m;
  size_t n;
  int16_t *out = battle(shared_bank(), &n, &m);
  level l = measure(out, 2 * n);
  if (l.peak > 0.9 || l.rms > 0.2 || l.rms < 0.02) fail_msg("battle: peak %.3f rms %.3f", l.peak, l.rms);
  /* each fire sound started no more often than its gap allows */
  assert_true(m.started[TD_SOUND_ARROW] <= 3000 / 70 + 1);
  assert_true(m.started[TD_SOUND_KILL] <= 3000 / 50 + 1);
  assert_int_equal((int)m.started[TD_SOUND_BOSS], 1);
  free(out);
}

static void test_mixing_is_deterministic(void **state) {
  (void)state;
  td_audio_mixer m1, m2;
  size_t n1, n2;
  int16_t *a = battle(shared_bank(), &n1, &m1);
  int16_t *b = battle(shared_bank(), &n2, &m2);
  assert_int_equal(n1, n2);
  assert_memory_equal(a, b, n1 * 2 * sizeof *a);
  free(a);
  free(b);
}

/* ---- the debug path: WAV files and figures ------------------------------------ */

static void put32(FILE *f, uint32_t v) {
  for (int k = 0; k < 4; k++) fputc((int)((v >> (8 * k)) & 255), f);
}
static void put16(FILE *f, uint16_t v) {
  fputc(v & 255, f);
  fputc(v >> 8, f);
}

static void write_wav(const char *path, const int16_t *s, size_t frames, int channels) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  uint32_t bytes = (uint32_t)(frames * (size_t)channels * 2);
  fwrite("RIFF", 1, 4, f);
  put32(f, 36 + bytes);
  fwrite("WAVEfmt ", 1, 8, f);
  put32(f, 16);
  put16(f, 1);
  put16(f, (uint16_t)channels);
  put32(f, RATE);
  put32(f, (uint32_t)(RATE * channels * 2));
  put16(f, (uint16_t)(channels * 2));
  put16(f, 16);
  fwrite("data", 1, 4, f);
  put32(f, bytes);
  for (size_t i = 0; i < frames * (size_t)channels; i++) put16(f, (uint16_t)s[i]);
  assert_int_equal(fclose(f), 0);
}

/* ---- music ---------------------------------------------------------------- */

static td_music_bank *shared_music(void) {
  static td_music_bank bank;
  static bool made;
  if (!made) {
    assert_int_equal(td_music_synth(&bank), 0);
    made = true;
  }
  return &bank;
}

static int free_music(void **state) {
  (void)state;
  td_music_bank_free(shared_music());
  return 0;
}

/* A mixer with no effects playing the music track t at music volume mv. */
static void music_mixer(td_audio_mixer *m, td_music_track t, int mv, float intensity) {
  td_audio_mixer_init(m, shared_bank(), 80, false);
  td_music_init(&m->music, shared_music(), mv);
  td_music_play(&m->music, t);
  td_music_set_intensity(&m->music, intensity);
}

static double sum_abs(const int16_t *s, size_t n) {
  double a = 0;
  for (size_t i = 0; i < n; i++) a += fabs((double)s[i]);
  return a;
}

static void test_music_loops(void **state) {
  (void)state;
  const td_music_bank *b = shared_music();
  assert_true(fabs(td_music_seconds(b, TD_MUSIC_MENU) - 8 * 4 * 60.0 / 90) < 0.01); /* 8 bars at 90 */
  assert_true(fabs(td_music_seconds(b, TD_MUSIC_PLAY) - 16.0) < 0.01);              /* 8 bars at 120 */
  assert_null(b->pcm[TD_MUSIC_NONE][0]);
  assert_non_null(b->pcm[TD_MUSIC_MENU][0]);
  assert_null(b->pcm[TD_MUSIC_MENU][1]);
  assert_non_null(b->pcm[TD_MUSIC_PLAY][1]); /* the wave layer */
  for (int t = TD_MUSIC_MENU; t < TD_MUSIC_TRACKS; t++) {
    uint32_t n = b->frames[t];
    float peak = 0;
    for (int k = 0; k < TD_MUSIC_LAYERS; k++) {
      if (!b->pcm[t][k]) continue;
      double rms = 0;
      for (uint32_t i = 0; i < n; i++) {
        peak = fmaxf(peak, fabsf(b->pcm[t][k][i]));
        rms += (double)b->pcm[t][k][i] * (double)b->pcm[t][k][i];
      }
      rms = sqrt(rms / n);
      assert_true(rms > 0.01 && rms < (double)TD_MUSIC_PEAK); /* heard, and quiet */
      /* seamless: the end runs into the start as any two neighbours do */
      assert_true(fabsf(b->pcm[t][k][n - 1] - b->pcm[t][k][0]) < 0.03f);
    }
    assert_true(peak <= TD_MUSIC_PEAK + 1e-4f);
  }
  assert_string_equal(td_music_track_name(TD_MUSIC_PLAY), "play");
  assert_null(td_music_track_name(TD_MUSIC_TRACKS));
}

static void test_music_volume(void **state) {
  (void)state;
  size_t n = MS(1000);
  td_audio_mixer full, half, zero;
  music_mixer(&full, TD_MUSIC_MENU, 100, 0);
  music_mixer(&half, TD_MUSIC_MENU, 50, 0);
  music_mixer(&zero, TD_MUSIC_MENU, 0, 0);
  mix_skip(&full, MS(500)); /* past the fade in */
  mix_skip(&half, MS(500));
  mix_skip(&zero, MS(500));
  int16_t *a = mix_new(&full, n), *h = mix_new(&half, n), *z = mix_new(&zero, n);
  level la = measure(a, 2 * n);
  assert_true(la.rms > 0.005 && la.peak <= (double)TD_MUSIC_PEAK + 0.001); /* plays, under the effects */
  /* at 50 %: (0.5)^2 of the samples at 100 % (the same frames of the loop) */
  double ra = sum_abs(a, 2 * n), rh = sum_abs(h, 2 * n);
  assert_true(fabs(rh / ra - 0.25) < 0.01);
  assert_true(all_zero(z, 2 * n)); /* 0: exactly silent */
  free(a);
  free(h);
  free(z);
  /* its own volume: the effects' volume at 0 leaves it, mute silences it */
  td_audio_mixer_set_volume(&full, 0, false);
  a = mix_new(&full, n);
  assert_true(measure(a, 2 * n).rms > 0.005);
  free(a);
  td_audio_mixer_set_volume(&full, 80, true);
  mix_skip(&full, MS(10)); /* the 5 ms ramp */
  a = mix_new(&full, n);
  assert_true(all_zero(a, 2 * n));
  free(a);
  /* a music volume change applies (after its ramp) */
  td_audio_mixer_set_volume(&full, 80, false);
  td_music_set_volume(&full.music, 0);
  mix_skip(&full, MS(10));
  a = mix_new(&full, n);
  assert_true(all_zero(a, 2 * n));
  free(a);
  /* no bank: silent */
  td_audio_mixer m;
  td_audio_mixer_init(&m, shared_bank(), 100, false);
  td_music_play(&m.music, TD_MUSIC_MENU);
  a = mix_new(&m, n);
  assert_true(all_zero(a, 2 * n));
  free(a);
}

static void test_music_intensity_and_tracks(void **state) {
  (void)state;
  size_t n = MS(2000);
  td_audio_mixer calm, wave;
  music_mixer(&calm, TD_MUSIC_PLAY, 100, 0);
  music_mixer(&wave, TD_MUSIC_PLAY, 100, 1);
  mix_skip(&calm, MS(2000)); /* the layer's 1.5 s ramp */
  mix_skip(&wave, MS(2000));
  assert_true(wave.music.layer == 1.0f && calm.music.layer == 0.0f);
  int16_t *c = mix_new(&calm, n), *w = mix_new(&wave, n);
  assert_true(measure(w, 2 * n).rms > 1.25 * measure(c, 2 * n).rms); /* drums and the lead */
  free(c);
  free(w);
  /* a change of track fades the old one out over 0.4 s, then the new one starts */
  td_music_play(&calm.music, TD_MUSIC_MENU);
  mix_skip(&calm, MS(200));
  assert_int_equal(calm.music.track, TD_MUSIC_PLAY);
  mix_skip(&calm, MS(300));
  assert_int_equal(calm.music.track, TD_MUSIC_MENU);
  assert_true(calm.music.pos < MS(200));
  /* none: silence once faded */
  td_music_play(&calm.music, TD_MUSIC_NONE);
  mix_skip(&calm, MS(500));
  c = mix_new(&calm, MS(100));
  assert_true(all_zero(c, 2 * MS(100)));
  free(c);
}

static void test_wav_dump(void **state) {
  (void)state;
  const char *dir = getenv("TD_AUDIO_WAV_DIR");
  if (!dir || !*dir) skip();
  const td_audio_bank *b = shared_bank();
  char path[1024];
  printf("%-8s %7s %9s %9s\n", "sound", "ms", "peak dBFS", "rms dBFS");
  for (int s = 0; s < TD_SOUND_COUNT; s++) {
    /* as the mixer plays it at volume 100, centred */
    td_audio_mixer m;
    td_audio_mixer_init(&m, b, 100, false);
    td_audio_start(&m, (td_sound)s, 1, 0);
    size_t n = b->clip[s].frames;
    int16_t *st = mix_new(&m, n);
    int16_t *mono = malloc(n * sizeof *mono);
    assert_non_null(mono);
    for (size_t i = 0; i < n; i++) mono[i] = st[2 * i];
    level l = measure(mono, n);
    printf("%-8s %7.0f %9.1f %9.1f\n", td_audio_sound_name((td_sound)s), 1000.0 * (double)n / RATE,
           20 * log10(l.peak), 20 * log10(l.rms));
    snprintf(path, sizeof path, "%s/%02d-%s.wav", dir, s, td_audio_sound_name((td_sound)s));
    write_wav(path, mono, n, 1);
    free(mono);
    free(st);
  }
  td_audio_mixer m;
  size_t n;
  int16_t *out = battle(b, &n, &m);
  level l = measure(out, 2 * n);
  unsigned long long started = 0;
  for (int s = 0; s < TD_SOUND_COUNT; s++) started += m.started[s];
  printf("battle: %.1f s, peak %.1f dBFS, rms %.1f dBFS, %llu started, %llu refused\n", (double)n / RATE,
         20 * log10(l.peak), 20 * log10(l.rms), started, (unsigned long long)m.refused);
  snprintf(path, sizeof path, "%s/battle.wav", dir);
  write_wav(path, out, n, 2);
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_sound_is_short_quiet_and_heard),
    cmocka_unit_test(test_sounds_are_distinct),
    cmocka_unit_test(test_synthesis_is_deterministic),
    cmocka_unit_test(test_silent_at_volume_zero_and_muted),
    cmocka_unit_test(test_output_scales_with_volume),
    cmocka_unit_test(test_volume_change_ramps_then_holds),
    cmocka_unit_test(test_pan),
    cmocka_unit_test(test_minimum_gap),
    cmocka_unit_test(test_voice_cap_and_priority),
    cmocka_unit_test(test_no_clipping_past_the_range),
    cmocka_unit_test(test_battle_is_bounded),
    cmocka_unit_test(test_mixing_is_deterministic),
    cmocka_unit_test(test_music_loops),
    cmocka_unit_test(test_music_volume),
    cmocka_unit_test(test_music_intensity_and_tracks),
    cmocka_unit_test(test_wav_dump),
  };
  int rc = cmocka_run_group_tests(tests, NULL, free_shared);
  free_music(NULL);
  return rc;
}
