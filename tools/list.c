// SPDX-License-Identifier: MIT
/*
 * list.c - ehrecord --list: the user_events tracepoints of tracefs
 * (user_events_status and events/user_events), their EventHeader names
 * decoded, and with --list=all every classic tracepoint of events/
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include <eventheader/eventheader.h>

#include "list.h"

/* One tracepoint to show. */
struct row {
	char *system;
	char *name;
	bool user;		/* user_events: its consumers are known */
	unsigned int used;	/* UE_USED_* */
	bool eventheader;	/* the name decodes */
	size_t provider_len;
	uint8_t level;
	uint64_t keyword;
	const char *options;	/* into name */
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static const char *const level_names[] = {
	NULL, "critical", "error", "warning", "info", "verbose",
};

const char *ue_level_name(unsigned int level)
{
	return level < sizeof(level_names) / sizeof(level_names[0]) ?
		       level_names[level] : NULL;
}

const char *ue_spec_name(const char *spec)
{
	static const char sys[] = "user_events:";

	if (!strncmp(spec, sys, sizeof(sys) - 1))
		return spec + sizeof(sys) - 1;
	return strchr(spec, ':') ? NULL : spec;
}

void ue_status_free(struct ue_status *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/*
 * A line of user_events_status: "Name" or "Name # Used by ftrace perf"
 * (kernels before 6.4 put "Byte:" in front). The list ends at the empty
 * line before "Active:".
 */
static int status_line(char *line, struct ue_status *st)
{
	char *p = line, *hash;

	line[strcspn(line, "\n")] = 0;
	if (isdigit((unsigned char)*p)) {
		p += strspn(p, "0123456789");
		p = *p == ':' ? p + 1 : line;
	}
	st->used = 0;
	hash = strstr(p, " # ");
	if (hash) {
		*hash = 0;
		hash += 3;
		if (strstr(hash, "ftrace"))
			st->used |= UE_USED_FTRACE;
		if (strstr(hash, "perf"))
			st->used |= UE_USED_PERF;
		if (strstr(hash, "other"))
			st->used |= UE_USED_OTHER;
	}
	p[strcspn(p, " ")] = 0;
	st->name = strdup(p);
	return st->name ? 0 : -ENOMEM;
}

int ue_status_read(const char *dir, struct ue_status **out, size_t *nout)
{
	struct ue_status *v = NULL, *nv;
	size_t n = 0, cap = 0;
	char *line = NULL, *path;
	size_t size = 0;
	int err = 0;
	FILE *f;

	if (asprintf(&path, "%s/user_events_status", dir) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	free(path);
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		if (*line == '\n')
			break;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				err = -ENOMEM;
				break;
			}
			v = nv;
		}
		err = status_line(line, &v[n]);
		if (err)
			break;
		n++;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	if (err) {
		ue_status_free(v, n);
		return err;
	}
	*out = v;
	*nout = n;
	return 0;
}

static struct row *add_row(struct rows *r, const char *system,
			   const char *name)
{
	struct row *v, *w;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		v = realloc(r->v, r->cap * sizeof(*v));
		if (!v)
			return NULL;
		r->v = v;
	}
	w = &r->v[r->n];
	memset(w, 0, sizeof(*w));
	w->system = strdup(system);
	w->name = strdup(name);
	if (!w->system || !w->name) {
		free(w->system);
		free(w->name);
		return NULL;
	}
	r->n++;
	return w;
}

static void free_rows(struct rows *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].system);
		free(r->v[i].name);
	}
	free(r->v);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

/* Does @r match --list's PATTERN: a glob, or a SPEC as -e takes it? */
static bool matches(const char *pattern, const struct row *r)
{
	char full[1024];

	if (!pattern)
		return true;
	snprintf(full, sizeof(full), "%s:%s", r->system, r->name);
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, r->name, 0) ||
		       !fnmatch(pattern, full, 0);
	if (!strcmp(pattern, r->name) || !strcmp(pattern, full))
		return true;
	/* a provider: each of its tracepoints */
	return r->eventheader && strlen(pattern) == r->provider_len &&
	       !strncmp(pattern, r->name, r->provider_len);
}

/* The user_events tracepoints: user_events_status, and events/user_events. */
static int user_rows(const struct list_opts *o, const char *dir,
		     struct rows *r)
{
	struct ue_status *st = NULL;
	char **names;
	size_t n = 0, i, j, have;
	struct row *w;
	int err;

	err = ue_status_read(dir, &st, &n);
	if (err == -ENOENT && o->all) {
		fprintf(stderr, "%s: user_events: not in this kernel (%s has no user_events_status; it needs CONFIG_USER_EVENTS, Linux 6.4 or later): classic tracepoints only\n",
			o->prog, dir);
		return 0;
	}
	if (err == -ENOENT) {
		fprintf(stderr, "%s: user_events: not in this kernel (%s has no user_events_status; it needs CONFIG_USER_EVENTS, Linux 6.4 or later)\n",
			o->prog, dir);
		return 1;
	}
	if (err) {
		fprintf(stderr, "%s: %s/user_events_status: %s%s\n", o->prog,
			dir, strerror(-err),
			err == -EACCES ? " (listing needs read access to tracefs: run as root)" : "");
		return 1;
	}
	for (i = 0; i < n; i++) {
		w = add_row(r, "user_events", st[i].name);
		if (!w)
			goto oom;
		w->user = true;
		w->used = st[i].used;
	}
	ue_status_free(st, n);
	/* The same set, unless one came or went between the two reads. */
	names = tracefs_system_events(dir, "user_events");
	have = r->n;
	for (i = 0; names && names[i]; i++) {
		for (j = 0; j < have; j++)
			if (!strcmp(r->v[j].name, names[i]))
				break;
		if (j < have)
			continue;
		w = add_row(r, "user_events", names[i]);
		if (!w) {
			tracefs_list_free(names);
			goto oom;
		}
		w->user = true;
	}
	tracefs_list_free(names);
	return 0;
oom:
	fprintf(stderr, "%s: %s\n", o->prog, strerror(ENOMEM));
	return 1;
}

/* Every other system's tracepoints (not ftrace's own record formats). */
static int classic_rows(const struct list_opts *o, const char *dir,
			struct rows *r)
{
	char **systems = tracefs_event_systems(dir), **events;
	size_t i, j;
	int ret = 0;

	if (!systems) {
		fprintf(stderr, "%s: cannot read %s/events: %s\n", o->prog, dir,
			strerror(errno ? errno : ENOENT));
		return 1;
	}
	for (i = 0; systems[i] && !ret; i++) {
		if (!strcmp(systems[i], "user_events") ||
		    !strcmp(systems[i], "ftrace"))
			continue;
		events = tracefs_system_events(dir, systems[i]);
		for (j = 0; events && events[j]; j++)
			if (!add_row(r, systems[i], events[j])) {
				fprintf(stderr, "%s: %s\n", o->prog,
					strerror(ENOMEM));
				ret = 1;
				break;
			}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	return ret;
}

static void decode(struct row *w)
{
	if (w->user)
		w->eventheader = eh_parse_tracepoint_name(w->name,
							  &w->provider_len,
							  &w->level,
							  &w->keyword,
							  &w->options);
}

/* The value of option @letter among @options ("Gmygroup": "mygroup"). */
static const char *option(const char *options, char letter, size_t *len)
{
	const char *p;

	for (p = options; p && *p; p++)
		if (*p == letter) {
			*len = strspn(p + 1, "0123456789abcdefghijklmnopqrstuvwxyz");
			return p + 1;
		}
	*len = 0;
	return NULL;
}

/* @n bytes at @s as a JSON string on standard output. */
void print_json_string(const char *s, size_t n)
{
	putchar('"');
	for (; n--; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void consumers_json(unsigned int used)
{
	static const char *const kinds[] = { "ftrace", "perf", "other" };
	bool first = true;
	unsigned int i;

	putchar('[');
	for (i = 0; i < 3; i++)
		if (used & (1u << i)) {
			printf("%s\"%s\"", first ? "" : ",", kinds[i]);
			first = false;
		}
	putchar(']');
}

static void print_jsonl(const struct row *w)
{
	const char *group;
	size_t glen;

	char full[1024];

	snprintf(full, sizeof(full), "%s:%s", w->system, w->name);
	printf("{\"tracepoint\":");
	print_json_string(full, strlen(full));
	printf(",\"system\":");
	print_json_string(w->system, strlen(w->system));
	printf(",\"name\":");
	print_json_string(w->name, strlen(w->name));
	printf(",\"eventheader\":%s", w->eventheader ? "true" : "false");
	if (w->eventheader) {
		printf(",\"provider\":");
		print_json_string(w->name, w->provider_len);
		printf(",\"level\":%u,\"keyword\":\"0x%" PRIX64 "\"", w->level,
		       w->keyword);
		group = option(w->options, 'G', &glen);
		printf(",\"group\":");
		print_json_string(group ? group : "", glen);
		printf(",\"options\":");
		print_json_string(w->options, strlen(w->options));
	}
	if (w->user) {
		printf(",\"enabled\":%s,\"consumers\":", w->used ? "true" : "false");
		consumers_json(w->used);
	}
	printf("}\n");
}

/* The cells of one row of the table. */
enum { C_TP, C_PROVIDER, C_LEVEL, C_KEYWORD, C_GROUP, C_ENABLED, C_N };

static void cells(const struct row *w, char c[C_N][300])
{
	const char *group, *lname;
	size_t glen;

	snprintf(c[C_TP], 300, "%s:%s", w->system, w->name);
	if (w->eventheader) {
		snprintf(c[C_PROVIDER], 300, "%.*s", (int)w->provider_len,
			 w->name);
		lname = ue_level_name(w->level);
		snprintf(c[C_LEVEL], 300, "%u%s%s", w->level, lname ? " " : "",
			 lname ? lname : "");
		snprintf(c[C_KEYWORD], 300, "0x%" PRIx64, w->keyword);
		group = option(w->options, 'G', &glen);
		snprintf(c[C_GROUP], 300, "%.*s", group ? (int)glen : 1,
			 group ? group : "-");
	} else {
		strcpy(c[C_PROVIDER], "-");
		strcpy(c[C_LEVEL], "-");
		strcpy(c[C_KEYWORD], "-");
		strcpy(c[C_GROUP], "-");
	}
	if (!w->user)
		strcpy(c[C_ENABLED], "-");
	else if (!w->used)
		strcpy(c[C_ENABLED], "no");
	else
		snprintf(c[C_ENABLED], 300, "by %s%s%s%s%s",
			 w->used & UE_USED_FTRACE ? "ftrace" : "",
			 (w->used & UE_USED_FTRACE) &&
				 (w->used & (UE_USED_PERF | UE_USED_OTHER)) ?
				 ", " : "",
			 w->used & UE_USED_PERF ? "perf" : "",
			 (w->used & UE_USED_PERF) && (w->used & UE_USED_OTHER) ?
				 ", " : "",
			 w->used & UE_USED_OTHER ? "other" : "");
}

static void print_table(const struct rows *r, const bool *shown)
{
	static const char *const heads[C_N] = {
		"TRACEPOINT", "PROVIDER", "LEVEL", "KEYWORD", "GROUP", "ENABLED",
	};
	char c[C_N][300];
	int width[C_N], k, len;
	size_t i;

	for (k = 0; k < C_N; k++)
		width[k] = (int)strlen(heads[k]);
	for (i = 0; i < r->n; i++) {
		if (!shown[i])
			continue;
		cells(&r->v[i], c);
		for (k = 0; k < C_N; k++) {
			len = (int)strlen(c[k]);
			if (len > width[k])
				width[k] = len;
		}
	}
	for (k = 0; k < C_N - 1; k++)
		printf("%-*s  ", width[k], heads[k]);
	printf("%s\n", heads[C_N - 1]);
	for (i = 0; i < r->n; i++) {
		if (!shown[i])
			continue;
		cells(&r->v[i], c);
		for (k = 0; k < C_N; k++)
			if (k < C_N - 1)
				printf("%-*s  ", width[k], c[k]);
			else
				printf("%s\n", c[k]);
	}
}

int list_run(const struct list_opts *o)
{
	struct rows r = { 0 };
	const char *dir = tracefs_tracing_dir();
	bool *shown = NULL;
	size_t i, n = 0;
	int ret;

	if (!dir) {
		fprintf(stderr, "%s: no tracefs: it is not mounted (as root: mount -t tracefs nodev /sys/kernel/tracing)\n",
			o->prog);
		return 1;
	}
	ret = user_rows(o, dir, &r);
	if (!ret && o->all)
		ret = classic_rows(o, dir, &r);
	if (!ret && r.n && !(shown = calloc(r.n, sizeof(*shown)))) {
		fprintf(stderr, "%s: %s\n", o->prog, strerror(ENOMEM));
		ret = 1;
	}
	if (ret)
		goto done;
	if (r.n)
		qsort(r.v, r.n, sizeof(*r.v), cmp_rows);
	for (i = 0; i < r.n; i++) {
		decode(&r.v[i]);
		shown[i] = matches(o->pattern, &r.v[i]);
		n += shown[i];
	}
	if (!n) {
		if (o->pattern)
			fprintf(stderr, "%s: no tracepoint matches %s\n",
				o->prog, o->pattern);
		else
			fprintf(stderr, "%s: no user_events tracepoint exists now\n",
				o->prog);
	} else if (o->jsonl) {
		for (i = 0; i < r.n; i++)
			if (shown[i])
				print_jsonl(&r.v[i]);
	} else {
		print_table(&r, shown);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: %s\n", o->prog,
			strerror(errno));
		ret = 1;
	}
done:
	free(shown);
	free_rows(&r);
	return ret;
}
