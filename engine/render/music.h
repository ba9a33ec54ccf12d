/*
** music.h: the game's music: short loops made by code at start-up, played
** under the sound effects by the mixer (audio.h), with their own volume.
**
** What. A td_music_bank holds two tracks as mono float loops at
** TD_AUDIO_RATE, each made of layers that play together: the menu's (a
** calm loop of pads, a bass and an arpeggio in A minor, 90 beats a minute,
** 8 bars) and the game's (a bass line, a pad and soft hi-hats in D minor
** at 120, 8 bars; its second layer, drums and a running ostinato, comes in
** while a wave is on: td_music_set_intensity). Notes that ring past a
** loop's end wrap to its start, so the loop has no seam.
**
** A td_music_player plays one track of a bank: td_music_play changes the
** track (the playing one fades out over 0.4 s, the new one fades in from
** its start), td_music_set_intensity moves the second layer's level over
** 1.5 s, td_music_mix adds the next frames to a float stereo buffer. Its
** volume (0..100 %) is applied as (volume / 100)^2 and ramps over 5 ms;
** at 0, or muted (the mixer's mute: td_audio_mixer_set_volume), it adds
** exactly nothing. At volume 100 the loops peak at TD_MUSIC_PEAK of full
** scale, below every effect's own peak (0.15 to 0.4): the music stays
** under them.
**
** Memory: a bank owns its samples (malloc; td_music_bank_free); a player
** borrows its bank (NULL: silent). Plain C, no SDL, no clock, no globals;
** deterministic: same calls, same samples. Threads: none of its own; on a
** device the mixer's lock covers it (audio.h).
*/
#ifndef TD_RENDER_MUSIC_H
#define TD_RENDER_MUSIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TD_MUSIC_LAYERS 2
#define TD_MUSIC_PEAK 0.12f    /* the loops' peak at volume 100, of full scale */

typedef enum td_music_track {
  TD_MUSIC_NONE = 0,     /* silence */
  TD_MUSIC_MENU,         /* the menus */
  TD_MUSIC_PLAY,         /* a game; layer 2 while a wave is on */
  TD_MUSIC_TRACKS
} td_music_track;

typedef struct td_music_bank {
  float *pcm[TD_MUSIC_TRACKS][TD_MUSIC_LAYERS]; /* mono loops; NULL: no such layer */
  uint32_t frames[TD_MUSIC_TRACKS];             /* a track's layers all have its length */
} td_music_bank;

typedef struct td_music_player {
  const td_music_bank *bank;
  int32_t track;         /* playing now (td_music_track) */
  int32_t want;          /* asked for: the playing track fades out first */
  uint32_t pos;          /* frame of the loop */
  float fade;            /* the track's fade, 0 .. 1 */
  float layer, layer_want; /* the second layer's level now and asked for, 0 .. 1 */
  int volume;            /* 0 .. 100 */
  bool muted;
  float gain;            /* the volume's gain now; ramps to (volume / 100)^2 */
} td_music_player;

/* Synthesises both tracks into b. 0, or -1 out of memory (b is then empty;
** td_music_bank_free is safe either way). */
int td_music_synth(td_music_bank *b);
void td_music_bank_free(td_music_bank *b);
/* Seconds of a track's loop (0 for none). */
double td_music_seconds(const td_music_bank *b, td_music_track t);
const char *td_music_track_name(td_music_track t); /* "none", "menu", "play"; NULL: bad */

/* A silent player on bank b (NULL: always silent) at volume, playing nothing. */
void td_music_init(td_music_player *p, const td_music_bank *b, int volume);
void td_music_play(td_music_player *p, td_music_track t);
void td_music_set_intensity(td_music_player *p, float level);  /* 0 .. 1, clamped */
void td_music_set_volume(td_music_player *p, int volume);       /* 0 .. 100, clamped */
/* Adds the next frames (stereo, left first: 2 x frames floats) to acc and
** advances the loop. */
void td_music_mix(td_music_player *p, float *acc, size_t frames);

#endif
