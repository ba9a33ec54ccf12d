/*
** audio.h: the game's sound effects: synthesised at start-up, mixed in
** software, played through SDL2's audio.
**
** What. Three tiers. A td_audio_bank holds every td_sound as mono float
** samples, made by project code from oscillators, filtered noise and a
** plucked string (no asset files): td_audio_synth. A td_audio_mixer plays
** clips of a bank on TD_AUDIO_VOICES voices and mixes them into 16-bit
** stereo at a master volume: td_audio_start starts a voice, td_audio_mix
** writes the next frames. These two are plain C (no SDL, no clock, no
** globals): tests call them without a device. A td_audio is a mixer on an
** SDL audio device whose callback calls td_audio_mix; td_audio_play starts
** a sound on it from the game's thread. td play opens one; td shot and the
** benches never do.
**
** Restraint. A sound started again sooner than its own minimum gap (40 to
** 1000 ms, on the mixer's clock of frames mixed) is refused, so 200 towers
** firing at once make one shot's sound per gap, not a roar. When every
** voice plays, a new sound takes the voice of the least important sound
** (towers firing < kills < clicks < building, selling, upgrades and
** refusals < leaks and waves < the boss < victory and defeat), the one
** nearest its end; a sound less important than every playing one is
** refused. The sum goes through a soft clip
** (linear up to half of full scale, then a tanh knee), so a crowd of voices
** saturates smoothly and never wraps. Sounds are short (at most 2.5 s;
** firing ones 0.18-0.4 s) and quiet: each clip is scaled to a peak of its
** own, 0.15-0.4 of full scale.
**
** Volume: 0..100 %, applied as (volume / 100)^2 (loudness is roughly
** logarithmic); a change ramps over 5 ms so muting does not click. At
** volume 0 or muted the output is exactly zero; voices go on advancing.
**
** Music (music.h): the mixer's td_music_player adds its loop under the
** effects, before the soft clip, at the music's own volume (the effects'
** volume does not touch it; mute silences both). A td_audio makes the
** music's bank with the effects' and plays it: td_audio_music chooses the
** track and how intense it is, td_audio_set_music_volume its volume.
**
** Memory: a bank owns its samples (malloc; td_audio_bank_free); a mixer
** borrows its bank, which must outlive it; a td_audio owns its bank, mixer
** and device. Determinism: not part of the simulation (audio only reads the
** world's events, in the client). The synthesis and the mixer are
** deterministic: same calls, same samples (noise and the small pitch
** variation of repeated sounds come from seeded generators).
** Threads: td_audio_play, td_audio_set_volume and the getters lock the
** device against its callback; the bank and mixer functions do not lock.
*/
#ifndef TD_RENDER_AUDIO_H
#define TD_RENDER_AUDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/music.h"

#define TD_AUDIO_RATE 48000     /* frames per second of the bank and the mixer */
#define TD_AUDIO_VOICES 16      /* sounds playing at once, at most */
#define TD_AUDIO_MAX_SECONDS 2.5f

typedef enum td_sound {
  TD_SOUND_CLICK = 0,    /* a UI button */
  TD_SOUND_ARROW,        /* a tower fires: instant and pierce shots (a bow's twang) */
  TD_SOUND_CANNON,       /* ballistic shots (a thump) */
  TD_SOUND_FROST,        /* shots that slow (an icy chime) */
  TD_SOUND_ZAP,          /* chain shots (an electric crackle) */
  TD_SOUND_FLAK,         /* other homing shots (a chuff) */
  TD_SOUND_KILL,         /* an enemy killed (a pop) */
  TD_SOUND_LEAK,         /* an enemy reached a goal (a two-tone warning) */
  TD_SOUND_BUILD,        /* a tower built (a knock and a rising pair) */
  TD_SOUND_SELL,         /* a tower sold (coins) */
  TD_SOUND_UPGRADE,      /* an upgrade bought (a rising arpeggio) */
  TD_SOUND_REFUSED,      /* a command refused (a low double buzz) */
  TD_SOUND_WAVE,         /* a wave starts (a horn call) */
  TD_SOUND_BOSS,         /* a boss arrives (a gong over a low drone) */
  TD_SOUND_VICTORY,      /* the game won (a fanfare) */
  TD_SOUND_DEFEAT,       /* the game lost (a falling minor line) */
  TD_SOUND_COUNT
} td_sound;

typedef struct td_audio_clip {
  float *pcm;            /* mono samples in -1 .. 1 at TD_AUDIO_RATE */
  uint32_t frames;
} td_audio_clip;

typedef struct td_audio_bank {
  td_audio_clip clip[TD_SOUND_COUNT];
} td_audio_bank;

typedef struct td_audio_voice {
  int32_t sound;         /* -1: free */
  uint64_t pos;          /* position in the clip, 16.16 fixed-point frames */
  uint32_t step;         /* 16.16 frames of the clip per frame mixed (pitch) */
  float gain_l, gain_r;
} td_audio_voice;

typedef struct td_audio_mixer {
  const td_audio_bank *bank;
  td_audio_voice voice[TD_AUDIO_VOICES];
  uint64_t clock;                  /* frames mixed so far */
  uint64_t last[TD_SOUND_COUNT];   /* clock + 1 when each sound last started, 0: never */
  int volume;                      /* 0 .. 100 */
  bool muted;
  float gain;                      /* master gain now; ramps to the volume's */
  uint32_t rng;                    /* pitch variation */
  uint64_t started[TD_SOUND_COUNT];
  uint64_t refused;                /* starts refused (gap or no voice) */
  td_music_player music;           /* under the effects; silent without a bank */
} td_audio_mixer;

/* "click", "arrow", ...; NULL for a bad value. */
const char *td_audio_sound_name(td_sound s);
/* The sound named so, or -1. */
int td_audio_sound_parse(const char *name);

/* Synthesises every sound into b. 0, or -1 when out of memory (b is then
** empty; td_audio_bank_free is safe either way). */
int td_audio_synth(td_audio_bank *b);
void td_audio_bank_free(td_audio_bank *b);

/* A silent mixer on bank b at volume (0..100, clamped), not muted or muted;
** its music has no bank (silent) until td_music_init(&m->music, ...). */
void td_audio_mixer_init(td_audio_mixer *m, const td_audio_bank *b, int volume, bool muted);
void td_audio_mixer_set_volume(td_audio_mixer *m, int volume, bool muted);
/* Starts sound s at gain (0..1, times the clip's own level) and pan (-1
** left .. 1 right). True when a voice plays it; false when refused (its
** minimum gap, no voice free for it, a bad sound). */
bool td_audio_start(td_audio_mixer *m, td_sound s, float gain, float pan);
/* Mixes the next `frames` stereo frames into out (2 x frames samples, left
** first) and advances the voices and the clock. */
void td_audio_mix(td_audio_mixer *m, int16_t *out, size_t frames);
/* Voices playing now. */
int td_audio_voices(const td_audio_mixer *m);

/* ---- on a device ------------------------------------------------------------ */

typedef struct td_audio td_audio;

/* Synthesises the bank and opens the default output device (48 kHz stereo,
** SDL converting to what the device has). NULL when SDL has no audio or no
** device opens (or memory runs out), with why set ("no audio device: ...");
** the caller then runs without sound. */
td_audio *td_audio_open(int volume, bool muted, char *why, size_t why_size);
void td_audio_close(td_audio *a);
/* Starts a sound (see td_audio_start). These four do nothing on a NULL a
** (td_audio_get_volume leaves its outputs as they are). */
void td_audio_play(td_audio *a, td_sound s, float gain, float pan);
void td_audio_set_volume(td_audio *a, int volume, bool muted);
void td_audio_get_volume(td_audio *a, int *volume, bool *muted);
/* Sounds started (s in range), or all of them (s = -1), since the open;
** 0 for a NULL a. */
uint64_t td_audio_started(td_audio *a, int s);
/* The music: the track to play and its intensity (0: calm, 1: a wave on;
** td_music_play, td_music_set_intensity), its volume (0..100), and what
** plays now (the track asked for, the volume, the second layer's level;
** outputs left as they are for a NULL a). */
void td_audio_music(td_audio *a, td_music_track t, float intensity);
void td_audio_set_music_volume(td_audio *a, int volume);
void td_audio_get_music(td_audio *a, int *track, int *volume, float *layer);

#endif
