// SPDX-License-Identifier: MIT
/*
 * chrome-writer.c - events as Chrome / Perfetto trace JSON, the Trace
 * Event Format (docs/chrome-trace.md says how events are mapped)
 *
 *	{"traceEvents":[
 *	{"name":"process_name","ph":"M","pid":7,"args":{"name":"app"}},
 *	{"name":"Work","cat":"Prov","ph":"B","ts":0.000,"pid":7,"tid":7,"args":{...}},
 *	{"name":"Step","cat":"Prov","ph":"i","s":"t","ts":1.250,...},
 *	{"name":"Work","cat":"Prov","ph":"E","ts":2.001,...}
 *	],"displayTimeUnit":"ns","otherData":{...}}
 *
 * Activities (opcode 1 ... opcode 2 with the same activity id on the same
 * thread) become "B"/"E" pairs written as the events come, kept nested
 * per thread; every other event is an instant ("ph":"i"); "ts" is in
 * microseconds with three decimals (exact nanoseconds), counted from the
 * first event with a time. Thread and process names are metadata events.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <eventheader/eventheader.h>
#include <ehdecode/trace.h>

#include "formats/output.h"
#include "core/ehd-buf.h"
#include "core/ehd-table.h"
#include "formats/json/json-event.h"
#include "model/json-values.h"

/* Meta the trace event says itself: not repeated in its "args". */
#define SAID_META (EHD_META_N | EHD_META_TIME | EHD_META_PID | \
		   EHD_META_TID | EHD_META_PROVIDER | EHD_META_EVENT)

/* An activity begun ("B" written) and not ended yet. */
struct open_act {
	uint8_t id[16];
	char *text;		/* its name, then its category */
	size_t name_len;
	size_t cat_len;
};

struct thread {
	uint32_t pid;
	uint32_t tid;
	char *comm;		/* the thread_name written, or NULL */
	struct open_act *open;	/* the innermost last */
	size_t depth;
	size_t cap;
};

struct process {
	uint32_t pid;
	char *name;		/* the process_name written, or NULL */
};

/* A thread's activities as they were before a change (o->marks). */
struct undo {
	uint32_t thread;
	size_t depth;
	struct open_act *open;	/* copies, owned */
};

/* What the output's ending depends on, but for the open activities. */
struct tally {
	uint64_t records;		/* trace events written */
	bool have_base;
	bool base_utc;
	uint64_t base;			/* the time of ts 0 (ns) */
	int64_t last;			/* ts of the last event (ns) */
	bool in_source;			/* the source has had an event */
	int64_t source_end;		/* then its latest ts (ns) */
	uint64_t unmatched;
	uint64_t unfinished;
	uint64_t split;
	uint64_t untimed;
};

/* What chrome_rewind() needs to take the writer back to a mark. */
struct snap {
	uint64_t undo;		/* the undo log's length then (from its start) */
	struct tally t;
};

struct ehd__chrome {
	struct ehd_table thread_ix;	/* pid << 32 | tid -> threads[] */
	struct thread *threads;
	size_t nthreads, threads_cap;
	struct ehd_table process_ix;	/* pid -> processes[] */
	struct process *processes;
	size_t nprocesses, processes_cap;
	struct ehd_buf args;		/* the "args" object of the event */
	struct tally t;
	/*
	 * With o->marks, each change to a thread's activities since the
	 * oldest mark, to take back (undo_base: how many went before).
	 */
	bool journal;
	struct undo *undo;
	size_t nundo, undo_cap;
	uint64_t undo_base;
};

static void free_acts(struct open_act *a, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(a[k].text);
	free(a);
}

static void chrome_free(struct ehd__chrome *c)
{
	size_t i, k;

	if (!c)
		return;
	for (i = 0; i < c->nthreads; i++) {
		free_acts(c->threads[i].open, c->threads[i].depth);
		free(c->threads[i].comm);
	}
	for (k = 0; k < c->nundo; k++)
		free_acts(c->undo[k].open, c->undo[k].depth);
	free(c->undo);
	for (i = 0; i < c->nprocesses; i++)
		free(c->processes[i].name);
	free(c->threads);
	free(c->processes);
	ehd__table_free(&c->thread_ix);
	ehd__table_free(&c->process_ix);
	ehd__buf_free(&c->args);
	free(c);
}

static struct thread *thread_of(struct ehd__chrome *c, uint32_t pid,
				uint32_t tid)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	struct thread *th;
	size_t pos = 0;
	uint32_t i;

	if (ehd__table_next(&c->thread_ix, key, &pos, &i))
		return &c->threads[i];
	if (c->nthreads >= UINT32_MAX - 1 ||
	    ehd__grow(&c->threads, &c->threads_cap, c->nthreads + 1,
		      sizeof(*th)) ||
	    ehd__table_add(&c->thread_ix, key, (uint32_t)c->nthreads))
		return NULL;
	th = &c->threads[c->nthreads++];
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->tid = tid;
	return th;
}

static struct process *process_of(struct ehd__chrome *c, uint32_t pid)
{
	struct process *p;
	size_t pos = 0;
	uint32_t i;

	if (ehd__table_next(&c->process_ix, pid, &pos, &i))
		return &c->processes[i];
	if (c->nprocesses >= UINT32_MAX - 1 ||
	    ehd__grow(&c->processes, &c->processes_cap, c->nprocesses + 1,
		      sizeof(*p)) ||
	    ehd__table_add(&c->process_ix, pid, (uint32_t)c->nprocesses))
		return NULL;
	p = &c->processes[c->nprocesses++];
	p->pid = pid;
	p->name = NULL;
	return p;
}

/* ---- trace events ---- */

/* What goes before a trace event. */
static void next_record(struct ehd__chrome *c, struct ehd_buf *b)
{
	ehd__buf_puts(b, c->t.records++ ? ",\n" : "\n");
}

/* ,"ts":MICROSECONDS.NNN from @ts ns: exact, no floating point. */
static void put_ts(struct ehd_buf *b, int64_t ts)
{
	uint64_t m = ts < 0 ? -(uint64_t)ts : (uint64_t)ts;
	unsigned int ns = (unsigned int)(m % 1000);
	char frac[4] = { '.', (char)('0' + ns / 100),
			 (char)('0' + ns / 10 % 10), (char)('0' + ns % 10) };

	ehd__buf_puts(b, ts < 0 ? ",\"ts\":-" : ",\"ts\":");
	ehd__json_u64(b, m / 1000);
	ehd__buf_put(b, frac, sizeof(frac));
}

/* {"name":@name,"cat":@cat,"ph":"@ph","ts":...,"pid":...,"tid":... */
static void put_head(struct ehd__chrome *c, struct ehd_buf *b,
		     const char *name, size_t name_len, const char *cat,
		     size_t cat_len, char ph, int64_t ts,
		     const struct thread *th)
{
	next_record(c, b);
	ehd__buf_puts(b, "{\"name\":");
	ehd__json_string(b, name, name_len);
	ehd__buf_puts(b, ",\"cat\":");
	ehd__json_string(b, cat, cat_len);
	ehd__buf_puts(b, ",\"ph\":\"");
	ehd__buf_putc(b, ph);
	ehd__buf_putc(b, '"');
	put_ts(b, ts);
	ehd__buf_puts(b, ",\"pid\":");
	ehd__json_u64(b, th->pid);
	ehd__buf_puts(b, ",\"tid\":");
	ehd__json_u64(b, th->tid);
}

/* ,"args":@args} (the end of the trace event) */
static void put_args(struct ehd_buf *b, const char *args, size_t len)
{
	ehd__buf_puts(b, ",\"args\":");
	ehd__buf_put(b, args, len);
	ehd__buf_putc(b, '}');
}

/* An "E" of open activity @a, with @args. */
static void put_end(struct ehd__chrome *c, struct ehd_buf *b,
		    const struct thread *th, const struct open_act *a,
		    int64_t ts, const char *args)
{
	put_head(c, b, a->text, a->name_len, a->text + a->name_len,
		 a->cat_len, 'E', ts, th);
	put_args(b, args, strlen(args));
}

/* A metadata event naming process @pid (@tid 0) or its thread @tid. */
static void put_name(struct ehd__chrome *c, struct ehd_buf *b,
		     uint32_t pid, uint32_t tid, const char *name)
{
	next_record(c, b);
	ehd__buf_puts(b, tid ? "{\"name\":\"thread_name\"" :
			       "{\"name\":\"process_name\"");
	ehd__buf_puts(b, ",\"ph\":\"M\",\"pid\":");
	ehd__json_u64(b, pid);
	if (tid) {
		ehd__buf_puts(b, ",\"tid\":");
		ehd__json_u64(b, tid);
	}
	ehd__buf_puts(b, ",\"args\":{\"name\":");
	ehd__json_string(b, name, strlen(name));
	ehd__buf_puts(b, "}}");
}

/* Keep @name in *@have; 1 if it is new or other than before. */
static int renamed(char **have, const char *name)
{
	char *s;

	if (*have && !strcmp(*have, name))
		return 0;
	s = strdup(name);
	if (!s)
		return -ENOMEM;
	free(*have);
	*have = s;
	return 1;
}

/*
 * Name the process and the thread of @ev when that is news. Not pid 0:
 * the idle task has a name per CPU ("swapper/N").
 */
static int put_names(struct ehd__chrome *c, struct ehd_buf *b,
		     struct thread *th, const struct ehd_event *ev)
{
	struct process *p;
	int n;

	if (!th->pid)
		return 0;
	if (ev->process) {
		p = process_of(c, th->pid);
		if (!p)
			return -ENOMEM;
		n = renamed(&p->name, ev->process);
		if (n < 0)
			return n;
		if (n)
			put_name(c, b, th->pid, 0, ev->process);
	}
	if (ev->comm) {
		n = renamed(&th->comm, ev->comm);
		if (n < 0)
			return n;
		if (n)
			put_name(c, b, th->pid, th->tid, ev->comm);
	}
	return 0;
}

/* The ts of @ev, ns from the first time; the last one's when it has none. */
static int64_t ts_of(struct ehd__chrome *c, const struct ehd_event *ev)
{
	int64_t ts = c->t.last;

	if (ev->context & EHD_CTX_TIME) {
		if (!c->t.have_base) {
			c->t.have_base = true;
			c->t.base = ev->time;
			c->t.base_utc = !!(ev->context & EHD_CTX_TIME_UTC);
		}
		ts = (int64_t)(ev->time - c->t.base);
	} else {
		c->t.untimed++;
	}
	c->t.last = ts;
	if (!c->t.in_source || ts > c->t.source_end)
		c->t.source_end = ts;
	c->t.in_source = true;
	return ts;
}

/* The fields of @ev and the meta chosen as an object, in c->args. */
static int render_args(struct ehd__chrome *c, const struct ehd_event *ev,
		       struct ehd_enum *en, unsigned int jflags,
		       unsigned int meta)
{
	struct ehd__json_context ctx = { ev, NULL };
	int err;

	ehd__buf_reset(&c->args);
	jflags &= EHD__JF_FIELD_TAGS;
	meta &= ~SAID_META;
	if (ehd_enum_event(en))
		err = ehd__json_event(&c->args, en, &ctx, jflags, meta);
	else
		err = ehd__json_tracefs_event(&c->args, ev->provider,
					      ev->provider_len, ev->name,
					      ev->name_len, en, &ctx, jflags,
					      meta);
	return err ? err : c->args.err;
}

/* Add "@name":true to the object in @a. */
static void args_flag(struct ehd_buf *a, const char *name)
{
	if (a->err || a->len < 2)
		return;
	a->len--;	/* its '}' */
	if (a->p[a->len - 1] != '{')
		ehd__buf_putc(a, ',');
	ehd__buf_putc(a, '"');
	ehd__buf_puts(a, name);
	ehd__buf_puts(a, "\":true}");
}

/*
 * Before a change to @th's activities: a copy of them in the undo log
 * (with o->marks only). 0 or -ENOMEM.
 */
static int keep_acts(struct ehd__chrome *c, const struct thread *th)
{
	struct undo *u;
	size_t k;

	if (!c->journal)
		return 0;
	if (ehd__grow(&c->undo, &c->undo_cap, c->nundo + 1, sizeof(*u)))
		return -ENOMEM;
	u = &c->undo[c->nundo];
	u->thread = (uint32_t)(th - c->threads);
	u->depth = 0;
	u->open = th->depth ? calloc(th->depth, sizeof(*u->open)) : NULL;
	if (th->depth && !u->open)
		return -ENOMEM;
	for (k = 0; k < th->depth; k++) {
		u->open[k] = th->open[k];
		u->open[k].text = malloc(th->open[k].name_len +
					 th->open[k].cat_len + 1);
		if (!u->open[k].text) {
			free_acts(u->open, k);
			return -ENOMEM;
		}
		memcpy(u->open[k].text, th->open[k].text,
		       th->open[k].name_len + th->open[k].cat_len);
	}
	u->depth = th->depth;
	c->nundo++;
	return 0;
}

/* Where activity @id is open on @th, innermost first; -1 if it is not. */
static long find_open(const struct thread *th, const uint8_t *id)
{
	size_t k;

	for (k = th->depth; k > 0; k--)
		if (!memcmp(th->open[k - 1].id, id, 16))
			return (long)(k - 1);
	return -1;
}

static int begin(struct ehd__chrome *c, struct ehd_buf *b,
		 struct thread *th, const struct ehd_event *ev, int64_t ts)
{
	struct open_act *a;

	if (keep_acts(c, th) ||
	    ehd__grow(&th->open, &th->cap, th->depth + 1, sizeof(*a)))
		return -ENOMEM;
	a = &th->open[th->depth];
	a->text = malloc(ev->name_len + ev->provider_len + 1);
	if (!a->text)
		return -ENOMEM;
	memcpy(a->text, ev->name, ev->name_len);
	memcpy(a->text + ev->name_len, ev->provider, ev->provider_len);
	a->name_len = ev->name_len;
	a->cat_len = ev->provider_len;
	memcpy(a->id, ev->activity_id, 16);
	th->depth++;
	put_head(c, b, ev->name, ev->name_len, ev->provider, ev->provider_len,
		 'B', ts, th);
	put_args(b, c->args.p, c->args.len);
	return 0;
}

/*
 * The stop of the activity open at @at on @th. Activities begun inside it
 * and still open would lose their nesting: they end with it ("cut") and
 * begin again just after it ("continued").
 */
static void end(struct ehd__chrome *c, struct ehd_buf *b, struct thread *th,
		size_t at, int64_t ts)
{
	size_t k, inner = th->depth - 1 - at;

	for (k = th->depth - 1; k > at; k--)
		put_end(c, b, th, &th->open[k], ts, "{\"cut\":true}");
	put_head(c, b, th->open[at].text, th->open[at].name_len,
		 th->open[at].text + th->open[at].name_len,
		 th->open[at].cat_len, 'E', ts, th);
	ehd__buf_puts(b, ",\"args\":{\"stop\":");
	ehd__buf_put(b, c->args.p, c->args.len);
	ehd__buf_puts(b, "}}");
	free(th->open[at].text);
	memmove(th->open + at, th->open + at + 1, inner * sizeof(*th->open));
	th->depth--;
	for (k = at; k < th->depth; k++) {
		const struct open_act *a = &th->open[k];

		put_head(c, b, a->text, a->name_len, a->text + a->name_len,
			 a->cat_len, 'B', ts, th);
		put_args(b, "{\"continued\":true}", 18);
	}
	c->t.split += inner;
}

static int chrome_render(struct ehd__chrome *c, struct ehd_buf *b,
			 const struct ehd_event *ev, struct ehd_enum *en,
			 unsigned int jflags, unsigned int meta)
{
	bool has_pid = ev->context & EHD_CTX_PID;
	struct thread *th;
	int64_t ts;
	long at = -1;
	int err;

	err = render_args(c, ev, en, jflags, meta);
	if (err)
		return err;
	th = thread_of(c, has_pid ? ev->pid : 0, has_pid ? ev->tid : 0);
	if (!th)
		return -ENOMEM;
	if (has_pid) {
		err = put_names(c, b, th, ev);
		if (err)
			return err;
	}
	ts = ts_of(c, ev);
	if (ev->opcode == EH_OPCODE_ACTIVITY_START && ev->activity_id)
		return begin(c, b, th, ev, ts) ? -ENOMEM : b->err;
	if (ev->opcode == EH_OPCODE_ACTIVITY_STOP && ev->activity_id)
		at = find_open(th, ev->activity_id);
	if (at >= 0) {
		if (keep_acts(c, th))
			return -ENOMEM;
		end(c, b, th, (size_t)at, ts);
		return b->err;
	}
	if (ev->opcode == EH_OPCODE_ACTIVITY_START ||
	    ev->opcode == EH_OPCODE_ACTIVITY_STOP) {
		args_flag(&c->args, "unmatched");
		c->t.unmatched++;
	}
	put_head(c, b, ev->name, ev->name_len, ev->provider, ev->provider_len,
		 'i', ts, th);
	ehd__buf_puts(b, ",\"s\":\"t\"");
	put_args(b, c->args.p, c->args.len);
	return c->args.err ? c->args.err : b->err;
}

static int end_source(struct ehd__chrome *c, struct ehd_buf *b)
{
	struct thread *th;
	size_t i;

	for (i = 0; i < c->nthreads; i++) {
		th = &c->threads[i];
		if (th->depth && keep_acts(c, th))
			return -ENOMEM;
		for (; th->depth; th->depth--) {
			put_end(c, b, th, &th->open[th->depth - 1],
				c->t.source_end, "{\"unfinished\":true}");
			free(th->open[th->depth - 1].text);
			c->t.unfinished++;
		}
	}
	c->t.in_source = false;
	return 0;
}

static void put_count(struct ehd_buf *b, const char *name, uint64_t n)
{
	ehd__buf_puts(b, ",\"");
	ehd__buf_puts(b, name);
	ehd__buf_puts(b, "\":");
	ehd__json_u64(b, n);
}

static void close_document(struct ehd__chrome *c, struct ehd_buf *b,
			   const struct ehd_writer_stats *st)
{
	ehd__buf_puts(b, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{"
			 "\"writer\":\"libehdecode " PACKAGE_VERSION "\"");
	if (c->t.have_base) {
		/* What ts 0 is: the time of the first event with one. */
		ehd__buf_puts(b, ",\"timeBase\":\"");
		if (c->t.base_utc)
			ehd__json_time(b, (int64_t)(c->t.base / 1000000000), 0);
		else
			ehd__json_u64(b, c->t.base / 1000000000);
		ehd__json_nanoseconds(b, (uint32_t)(c->t.base % 1000000000));
		ehd__buf_puts(b, c->t.base_utc ? "Z\"" : "\"");
	}
	put_count(b, "activitiesUnmatched", c->t.unmatched);
	put_count(b, "activitiesUnfinished", c->t.unfinished);
	put_count(b, "activitiesSplit", c->t.split);
	put_count(b, "eventsUntimed", c->t.untimed);
	put_count(b, "utf8Replaced", st->utf8_replaced);
	put_count(b, "eventsLost", st->lost);
	put_count(b, "eventsFieldsCut", st->fields_cut);
	put_count(b, "eventsTrailingData", st->trailing);
	ehd__buf_puts(b, "}}\n");
}

static int chrome_create(struct ehd__out *o)
{
	struct ehd__chrome *c = calloc(1, sizeof(*c));

	o->state = c;
	if (!c)
		return -ENOMEM;
	c->journal = o->marks;
	ehd__buf_puts(o->buf, "{\"traceEvents\":[");
	return 0;
}

static void chrome_destroy(struct ehd__out *o)
{
	chrome_free(o->state);
}

static int chrome_event(struct ehd__out *o, const struct ehd_event *ev,
			struct ehd_enum *en, const char **why, uint64_t *where)
{
	return chrome_render(o->state, o->buf, ev, en,
			     ehd__json_flags(o->flags), o->meta);
}

static int chrome_end(struct ehd__out *o)
{
	return end_source(o->state, o->buf);
}

static int chrome_close(struct ehd__out *o, const struct ehd_writer_stats *st)
{
	close_document(o->state, o->buf, st);
	return 0;
}

static void chrome_stats(const struct ehd__out *o, struct ehd_writer_stats *st)
{
	const struct ehd__chrome *c = o->state;

	st->unmatched = c->t.unmatched;
	st->unfinished = c->t.unfinished;
	st->split = c->t.split;
	st->untimed = c->t.untimed;
}

/* ---- taken back to a mark (ehd__output_ops.mark) ---- */

static void chrome_mark(struct ehd__out *o, void *snap)
{
	const struct ehd__chrome *c = o->state;
	struct snap *sn = snap;

	sn->undo = c->undo_base + c->nundo;
	sn->t = c->t;
}

/* Each thread's activities back as they were: the log undone to there. */
static void chrome_rewind(struct ehd__out *o, const void *snap)
{
	struct ehd__chrome *c = o->state;
	const struct snap *sn = snap;
	struct thread *th;
	struct undo *u;

	while (c->nundo && c->undo_base + c->nundo > sn->undo) {
		u = &c->undo[--c->nundo];
		th = &c->threads[u->thread];
		free_acts(th->open, th->depth);
		th->open = u->open;
		th->depth = th->cap = u->depth;
	}
	c->t = sn->t;
}

/* The log before the oldest mark goes (it is at or after its start). */
static void chrome_settle(struct ehd__out *o, const void *snap)
{
	struct ehd__chrome *c = o->state;
	const struct snap *sn = snap;
	size_t k, n = (size_t)(sn->undo - c->undo_base);

	if (!n)
		return;	/* (the log may be unallocated) */
	for (k = 0; k < n; k++)
		free_acts(c->undo[k].open, c->undo[k].depth);
	memmove(c->undo, c->undo + n, (c->nundo - n) * sizeof(*c->undo));
	c->nundo -= n;
	c->undo_base += n;
}

const struct ehd__output_ops ehd__chrome_output = {
	.name = "chrome", .format = EHD_OUT_CHROME, .caps = EHD__OUT_UTF8,
	.create = chrome_create, .destroy = chrome_destroy,
	.event = chrome_event, .end = chrome_end, .close = chrome_close,
	.stats = chrome_stats,
	.snap_size = sizeof(struct snap), .mark = chrome_mark,
	.rewind = chrome_rewind, .settle = chrome_settle,
};
