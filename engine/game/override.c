/*
** override.c: rule overrides (override.h): the table of fields by kind,
** parsing, and applying to a deep copy of the rules.
*/
#include "game/override.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum kind { K_TOWER, K_LEVEL, K_ENEMY, K_SOLDIER, K_RULES, K_COUNT } kind;

static const char *const kind_names[K_COUNT] = {"tower", "level", "enemy", "soldier", "rules"};

typedef struct field {
  kind k;                /* K_TOWER uses the level table */
  const char *name;
  size_t offset;
  bool whole;            /* int32_t, else float */
} field;

#define LV(n, w) {K_LEVEL, #n, offsetof(td_tower_level, n), w}
#define EN(n, w) {K_ENEMY, #n, offsetof(td_enemy_type, n), w}
#define SO(n, w) {K_SOLDIER, #n, offsetof(td_soldier_type, n), w}
#define RU(n, w) {K_RULES, #n, offsetof(td_rules, n), w}

/* In each struct's order; the docs list them from td_override_fields. */
static const field fields[] = {
  LV(cost, true), LV(range, false), LV(rate, false), LV(damage, false),
  LV(shot_speed, false), LV(splash, false), LV(chain, true), LV(chain_range, false),
  LV(chain_falloff, false), LV(pierce, true),
  {K_LEVEL, "effect_magnitude", offsetof(td_tower_level, effect) + offsetof(td_effect, magnitude), false},
  {K_LEVEL, "effect_duration", offsetof(td_tower_level, effect) + offsetof(td_effect, duration), false},
  LV(aim_time, false), LV(turn_rate, false), LV(buff_damage, false), LV(buff_rate, false),
  LV(health, false), LV(soldiers, true),
  EN(health, false), EN(armour, false), EN(speed, false), EN(radius, false), EN(bounty, true),
  EN(lives, true), EN(regen, false), EN(heal_radius, false), EN(heal_rate, false),
  EN(split_count, true), EN(melee_damage, false), EN(melee_rate, false),
  EN(siege_damage, false), EN(siege_rate, false), EN(siege_range, false),
  SO(health, false), SO(armour, false), SO(damage, false), SO(rate, false), SO(speed, false),
  SO(radius, false), SO(respawn, false), SO(sight, false), SO(regen, false),
  RU(wave_count, true), RU(first_wave_delay, false), RU(wave_interval, false),
  RU(start_gold, true), RU(start_lives, true), RU(wave_income, true), RU(sell_refund, false),
  RU(early_bonus, false), RU(endless_health_growth, false), RU(repair_cost, false),
};
#define NFIELDS (sizeof fields / sizeof fields[0])

const char *td_override_op_name(td_override_op op) {
  return op == TD_OVERRIDE_SCALE ? "scale" : "set";
}

static int find_kind(const char *s, size_t len) {
  for (int k = 0; k < K_COUNT; k++)
    if (strlen(kind_names[k]) == len && !memcmp(kind_names[k], s, len)) return k;
  return -1;
}

static const field *find_field(kind k, const char *name) {
  kind table = k == K_TOWER ? K_LEVEL : k;
  for (size_t i = 0; i < NFIELDS; i++)
    if (fields[i].k == table && !strcmp(fields[i].name, name)) return &fields[i];
  return NULL;
}

const char *td_override_fields(const char *kind_name, char *out, size_t cap) {
  int k = find_kind(kind_name, strlen(kind_name));
  if (k < 0 || cap == 0) return NULL;
  kind table = k == K_TOWER ? K_LEVEL : (kind)k;
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < NFIELDS && used < cap; i++)
    if (fields[i].k == table) {
      int w = snprintf(out + used, cap - used, "%s%s", used ? ", " : "", fields[i].name);
      if (w < 0) break;
      used += (size_t)w;
    }
  return out;
}

/* The parts of a parameter: kind, name ("" for rules), field. */
typedef struct parts {
  kind k;
  char name[TD_RULES_NAME_MAX];
  const field *f;
} parts;

static int split(const td_override *o, parts *p, td_err *err) {
  const char *flag = td_override_op_name(o->op), *s = o->param;
  const char *dot = strchr(s, '.');
  int k = dot ? find_kind(s, (size_t)(dot - s)) : -1;
  if (k < 0)
    return td_err_set(err, "--%s %s: expected tower.NAME.FIELD, level.NAME.FIELD, "
                      "enemy.NAME.FIELD, soldier.NAME.FIELD or rules.FIELD", flag, s);
  p->k = (kind)k;
  const char *fname = dot + 1;
  p->name[0] = '\0';
  if (p->k != K_RULES) {
    const char *dot2 = strrchr(fname, '.');
    size_t len = dot2 ? (size_t)(dot2 - fname) : 0;
    if (!dot2 || len == 0 || len >= TD_RULES_NAME_MAX)
      return td_err_set(err, "--%s %s: expected %s.NAME.FIELD", flag, s, kind_names[k]);
    for (size_t i = 0; i < len; i++)
      if (!td_rules_name_char((unsigned char)fname[i]))
        return td_err_set(err, "--%s %s: '%.*s' is not a name", flag, s, (int)len, fname);
    memcpy(p->name, fname, len);
    p->name[len] = '\0';
    fname = dot2 + 1;
  }
  p->f = find_field(p->k, fname);
  if (!p->f) {
    char list[640];
    return td_err_set(err, "--%s %s: no %s field '%.32s' (%s)", flag, s, kind_names[k], fname,
                      td_override_fields(kind_names[k], list, sizeof list));
  }
  return 0;
}

int td_override_parse(td_override_op op, const char *arg, td_override *out, td_err *err) {
  memset(out, 0, sizeof *out);
  out->op = op;
  const char *flag = td_override_op_name(op);
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg)
    return td_err_set(err, "--%s %s: expected PARAM=%s", flag, arg,
                      op == TD_OVERRIDE_SCALE ? "FACTOR" : "VALUE");
  size_t len = (size_t)(eq - arg);
  if (len >= sizeof out->param)
    return td_err_set(err, "--%s %.40s...: the parameter is too long", flag, arg);
  memcpy(out->param, arg, len);
  out->param[len] = '\0';
  char *end;
  errno = 0;
  double v = strtod(eq + 1, &end);
  if (end == eq + 1 || *end != '\0' || !isfinite(v) || errno == ERANGE)
    return td_err_set(err, "--%s %s: '%s' is not a finite number", flag, out->param, eq + 1);
  out->value = v;
  parts p;
  return split(out, &p, err);
}

void td_override_number(double v, char *buf, size_t cap) {
  snprintf(buf, cap, "%.15g", v);
  if (strtod(buf, NULL) != v) snprintf(buf, cap, "%.17g", v);
}

const char *td_override_text(const td_override *o, char *buf, size_t cap) {
  char num[32];
  td_override_number(o->value, num, sizeof num);
  snprintf(buf, cap, "--%s %s=%s", td_override_op_name(o->op), o->param, num);
  return buf;
}

/* ---- applying ------------------------------------------------------------- */

static int copy_array(void **dst, const void *src, size_t n, size_t size) {
  *dst = NULL;
  if (!n) return 0;
  *dst = td_mem_alloc(n * size);
  if (!*dst) return -1;
  memcpy(*dst, src, n * size);
  return 0;
}

static int copy_rules(const td_rules *src, td_rules *dst) {
  *dst = *src;
  dst->enemies = NULL, dst->towers = NULL, dst->soldier_types = NULL;
  dst->levels = NULL, dst->groups = NULL;
  int rc = copy_array((void **)&dst->enemies, src->enemies, src->enemy_count, sizeof *src->enemies);
  rc |= copy_array((void **)&dst->towers, src->towers, src->tower_count, sizeof *src->towers);
  rc |= copy_array((void **)&dst->soldier_types, src->soldier_types, src->soldier_type_count,
                   sizeof *src->soldier_types);
  rc |= copy_array((void **)&dst->levels, src->levels, src->level_count, sizeof *src->levels);
  rc |= copy_array((void **)&dst->groups, src->groups, src->group_count, sizeof *src->groups);
  return rc;
}

/* One number at base + f->offset. */
static int change(const td_override *o, const field *f, void *base, td_err *err) {
  char *at = (char *)base + f->offset;
  double old;
  if (f->whole) {
    int32_t i;
    memcpy(&i, at, sizeof i);
    old = i;
  } else {
    float x;
    memcpy(&x, at, sizeof x);
    old = x;
  }
  double v = o->op == TD_OVERRIDE_SCALE ? old * o->value : o->value;
  if (f->whole) {
    v = round(v); /* half away from zero */
    if (!(v >= INT32_MIN && v <= INT32_MAX))
      return td_err_set(err, "--%s %s: %.17g is out of range for a whole number",
                        td_override_op_name(o->op), o->param, v);
    int32_t i = (int32_t)v;
    memcpy(at, &i, sizeof i);
  } else {
    if (!(fabs(v) <= 3.0e38))
      return td_err_set(err, "--%s %s: %.17g is out of range", td_override_op_name(o->op),
                        o->param, v);
    float x = (float)v;
    memcpy(at, &x, sizeof x);
  }
  return 0;
}

/* "arrow, cannon, ..." : the names of n objects of size bytes from first
** (each starting with its name), cut to fit. */
static void name_list(const void *first, size_t n, size_t size, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n && used + 4 < cap; i++) {
    const char *name = (const char *)first + i * size;
    int w = snprintf(out + used, cap - used, "%s%s", i ? ", " : "", name);
    if (w < 0 || (size_t)w >= cap - used) {
      snprintf(out + used, cap - used, ", ...");
      return;
    }
    used += (size_t)w;
  }
}

static int apply_one(const td_override *o, td_rules *r, td_err *err) {
  parts p = {0};
  if (split(o, &p, err) != 0 || !p.f) return -1;
  if ((r->level_count && !r->levels) || (r->tower_count && !r->towers) ||
      (r->enemy_count && !r->enemies) || (r->soldier_type_count && !r->soldier_types))
    return td_err_set(err, "rule overrides: the rules lack their arrays");
  const char *flag = td_override_op_name(o->op);
  char names[160];
  switch (p.k) {
  case K_RULES: return change(o, p.f, r, err);
  case K_TOWER:
    for (size_t t = 0; t < r->tower_count; t++)
      if (!strcmp(r->towers[t].name, p.name)) {
        for (size_t l = 0; l < r->level_count; l++)
          if (r->levels[l].tower == (int32_t)t && change(o, p.f, &r->levels[l], err) != 0)
            return -1;
        return 0;
      }
    name_list(r->towers, r->tower_count, sizeof *r->towers, names, sizeof names);
    return td_err_set(err, "--%s %s: no tower type '%s' (%s)", flag, o->param, p.name, names);
  case K_LEVEL:
    for (size_t l = 0; l < r->level_count; l++)
      if (!strcmp(r->levels[l].name, p.name)) return change(o, p.f, &r->levels[l], err);
    name_list(r->levels, r->level_count, sizeof *r->levels, names, sizeof names);
    return td_err_set(err, "--%s %s: no tower level '%s' (%s)", flag, o->param, p.name, names);
  case K_ENEMY:
    for (size_t e = 0; e < r->enemy_count; e++)
      if (!strcmp(r->enemies[e].name, p.name)) return change(o, p.f, &r->enemies[e], err);
    name_list(r->enemies, r->enemy_count, sizeof *r->enemies, names, sizeof names);
    return td_err_set(err, "--%s %s: no enemy type '%s' (%s)", flag, o->param, p.name, names);
  case K_SOLDIER:
    for (size_t s = 0; s < r->soldier_type_count; s++)
      if (!strcmp(r->soldier_types[s].name, p.name))
        return change(o, p.f, &r->soldier_types[s], err);
    name_list(r->soldier_types, r->soldier_type_count, sizeof *r->soldier_types, names,
              sizeof names);
    return td_err_set(err, "--%s %s: no soldier type '%s' (%s)", flag, o->param, p.name,
                      r->soldier_type_count ? names : "the rules have none");
  case K_COUNT: break;
  }
  return td_err_set(err, "--%s %s: unknown kind", flag, o->param);
}

int td_override_apply(const td_override *list, size_t n, const td_rules *src, td_rules *dst,
                      td_err *err) {
  if (copy_rules(src, dst) != 0) {
    td_rules_free(dst);
    return td_err_set(err, "rule overrides: out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    if (apply_one(&list[i], dst, err) != 0) {
      td_rules_free(dst);
      return -1;
    }
    td_err verr;
    if (td_rules_validate(dst, &verr) != 0) {
      char text[TD_OVERRIDE_PARAM_MAX + 48];
      td_err_set(err, "%s: %s", td_override_text(&list[i], text, sizeof text), verr.msg);
      td_rules_free(dst);
      return -1;
    }
  }
  return 0;
}
