// SPDX-License-Identifier: MIT
/*
 * perf-read.c - perf records turned into events: perf.data (normal and
 * pipe mode, read with perf-file.c) and a live session's stream
 *
 * Samples become events: EventHeader ones identified, tracepoints with
 * their tracefs format, others raw. COMM and FORK records name threads,
 * LOST and LOST_SAMPLES records are counted. With EHD_READER_SORT_TIME
 * the samples are held and given out in time order, round by round; with
 * EHD_READER_SYSTEM side-band records become system events, cpu-clock
 * samples "cpu" samples and sched_switch "cswitch" samples.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <ehdecode/reader.h>
#include <ehdecode/session.h>
#include <traceevent/event-parse.h>

#include "core/ehd-bytes.h"
#include "core/err.h"
#include "formats/input.h"
#include "formats/perf/perf-file.h"
#include "live/session-int.h"
#include "model/eh-row.h"
#include "model/enumerator-int.h"
#include "model/event-int.h"
#include "model/tracefs-fields.h"
#include "system/procs.h"
#include "system/threads.h"

/* Most record bytes held for sorting one round. */
#define SORT_BYTES_MAX (64u << 20)

/* Runs of held records in time order tracked for a merge; past it, a sort. */
#define RUNS_MAX 64
/* Bytes of an arena chunk (a larger record gets a chunk of its own). */
#define ARENA_CHUNK (4u << 20)
/* Free chunks kept: memory given back would be faulted in again. */
#define SPARE_CHUNKS 4
/* Bytes of the largest record (its header's size is a u16). */
#define RECORD_MAX (1u << 16)

/*
 * Held records are copied into chunks and stay where they are until given
 * out: a chunk goes when its last record has (no compaction, no copy).
 */
struct chunk {
	struct chunk *next;	/* the free list */
	size_t len, cap;
	size_t live;		/* records in it not given out yet */
	uint8_t data[];
};

/* drain()'s "the sink has taken its most" (not an event: > 1). */
#define ROWS_PASSED 2

/* Bytes from the header to the payload of an identity kept for rows. */
#define KNOWN_BYTES_MAX 256

/*
 * The identity of the last EventHeader event of a tracepoint, kept while
 * rows are passed (ehd_reader_pass()): an event whose bytes up to its
 * payload are these is of it (no activity ids: those bytes differ). The
 * enumerator remembers the same of its last identities, but finds one by
 * scanning them by tracepoint name; this copy is found by the perf
 * event's index, the one lookup a row can afford.
 */
struct known {
	uint64_t key;		/* ehd__enum_key(); 0: none */
	uint32_t len;
	uint8_t bytes[KNOWN_BYTES_MAX];
};

/* What is worked out once per perf event (desc), by its index. */
struct per_desc {
	struct ehd__tracefs_types *types;	/* its fields' kinds */
	struct known *known;
};

/*
 * What is kept of a held record other than a plain sample (a side-band
 * record, or a sample the lean way does not read): its kind and its sample
 * or sample_id fields. Those of a sample of a file in the host's byte
 * order are parsed once, when held, its pointers kept as offsets in the
 * record. It sits in the arena, before the record's copy if there is one.
 */
struct rec_info {
	uint64_t time;
	uint32_t type;		/* PERF_RECORD_* */
	uint16_t misc;
	bool parsed;		/* the sample fields below are set */
	uint32_t cpu;
	uint64_t fields;	/* the sample_id fields there are */
	uint64_t offset;
	const struct ehd__perf_event_desc *desc;
	uint32_t pid, tid;
	uint32_t raw_off, raw_size;
	uint32_t chain_off;
	uint32_t chain_count;
};
/* (the record's copy follows it in the arena, 8-byte aligned) */
_Static_assert(sizeof(struct rec_info) % 8 == 0, "rec_info keeps alignment");

/*
 * A record held for sorting: when it was, where it is, and no more, so
 * that holding, merging and giving out move few bytes. A plain sample
 * (ehd__perf_next_places()) is read again where it is when given out; of
 * any other record, @info says the rest.
 */
struct held {
	struct ehd__perf_place pl;	/* pl.desc NULL: not plain */
	const struct rec_info *info;	/* NULL: a plain sample */
	struct chunk *chunk;	/* of its copy or info; NULL: none */
};

struct perf_read {
	unsigned int flags;	/* EHD_READER_* */
	struct ehd__err *err;	/* the front end's */
	struct ehd__perf_file *perf;
	const struct ehd__perf_session *ses;	/* perf's, once open */
	struct ehd_enum *en;	/* identifies EventHeader events */
	struct ehd_session *session;
	struct ehd__threads threads;	/* names from COMM, FORK records */
	struct ehd__procs *procs;	/* EHD_READER_SYSTEM */
	struct ehd__stack_counts stacks;
	struct ehd_system sys;		/* ev.system */
	/* a new process's inherited mappings, given after its ProcessCreate */
	uint32_t inherit_pid;
	size_t inherit_next;
	struct rec_info inherit_at;	/* time, cpu of the ProcessCreate */
	bool inheriting;
	/* an exec: the new program's ProcessCreate, after the old's exit */
	struct ehd_system exec_sys;
	char exec_name[17], exec_ns[48];
	struct rec_info exec_at;
	bool exec_pending;
	/* ehd_reader_restate(): the processes there are, given again */
	bool restating;
	size_t restate_proc;		/* the next process's index */
	uint32_t restate_pid;		/* the one whose mappings go out */
	size_t restate_map;
	uint64_t last_time;		/* of the record given last */
	/* the names of the thread of the last sample (names_gen) */
	struct {
		uint32_t pid, tid;
		uint64_t gen;
		const char *comm, *process;
	} last_names;
	/* sched_switch's event and fields, found once */
	const struct ehd__perf_event_desc *switch_desc;
	struct tep_format_field *switch_prev, *switch_next;
	/* the session asked for sched_switch: its samples are events too */
	bool keep_switch;
	bool cswitch_pending;		/* cswitch_ev, given next */
	struct ehd_event cswitch_ev;

	/* sorting */
	struct chunk *cur;	/* where records are copied now */
	struct chunk *spare;	/* free chunks kept for the next */
	unsigned int nspare;
	uint64_t held_bytes;	/* of the records held */
	struct chunk *given;	/* of the record given out last: release */
	uint64_t released;	/* of the session's stream, up to here */
	struct held *held;
	size_t first;		/* held[first..nheld) are held */
	size_t nheld, held_cap, next_held, drain_end;
	struct held *merged;	/* the merge's output, held_cap long */
	size_t runs[RUNS_MAX];	/* where each run after the first starts */
	size_t nruns;		/* RUNS_MAX + 1: too many, sort */
	bool native;		/* the input is in the host's byte order */
	uint64_t max_time;	/* latest time held so far */
	uint64_t round_limit;	/* latest time before the previous round */
	bool have_limit;
	bool draining;		/* giving out the held records */
	bool at_end;		/* the input has ended */

	/* by perf event (desc) index */
	struct per_desc *descs;
	size_t ndescs;
	struct ehd__eh_sink *sink;	/* ehd_reader_pass(): rows go there */
	struct ehd__eh_row rows[EHD__ROWS_BATCH];	/* pass_run()'s */
	bool declined;		/* the sink declined the next held sample */

	struct ehd_event ev;
	struct ehd__event_internal internal;	/* behind ev.internal */
	struct ehd__perf_sample sample;
	struct ehd_reader_stats stats;	/* all but events */
	uint64_t lost_stream;	/* sum of LOST records */
	uint64_t lost_samples;	/* sum of LOST_SAMPLES records of events */
	bool have_lost_samples;
};

/* Take the perf file reader's error as ours. */
static int perf_fail(struct perf_read *r, int err)
{
	uint64_t off = 0;
	const char *why = ehd__perf_error(r->perf, &off);

	return ehd__err_take(r->err, err, why, off);
}

/* ---- opening ---- */

/* perf.data in either byte order, or perf's pipe mode. */
static bool perf_probe(const uint8_t *h, size_t n)
{
	return n == 8 &&
	       (!memcmp(h, "PERFILE2", 8) || !memcmp(h, "2ELIFREP", 8) ||
		!memcmp(h, "PERFFILE", 8));
}

static ssize_t session_source(void *ctx, void *buf, size_t n)
{
	return ehd_session_read(ctx, buf, n);
}

static int session_view(void *ctx, const void **p, size_t *n)
{
	return ehd__session_view(ctx, p, n);
}

static void held_reserve(struct perf_read *r, size_t ring_bytes);

static int perf_open(void *state, const struct ehd__input_src *src)
{
	struct perf_read *r = state;
	int err;

	r->flags = src->flags;
	r->err = src->err;
	r->en = ehd_enum_new();
	if (r->flags & EHD_READER_SYSTEM)
		r->procs = ehd__procs_new();
	if (r->procs && (r->flags & EHD_READER_RAW_NAMES))
		ehd__procs_set_demangle(r->procs, false);
	if (!r->en || ((r->flags & EHD_READER_SYSTEM) && !r->procs) ||
	    ehd__perf_new(&r->perf))
		return ehd__err_set(r->err, -ENOMEM, 0, "out of memory");
	/*
	 * A session's stream is pipe-mode perf.data, its records read where
	 * the session has them (a view), copied only when one is cut at the
	 * view's end.
	 */
	r->session = src->session;
	r->keep_switch = r->session && ehd__session_asks_switch(r->session);
	if (r->procs && r->session)
		ehd__procs_set_live(r->procs, true);
	if (src->session)
		err = ehd__perf_open_view(r->perf, session_view,
					  session_source, src->session,
					  src->name);
	else if (src->seekable)
		err = ehd__perf_open_fd(r->perf, src->fd, src->name);
	else
		err = ehd__perf_open_fd_after(r->perf, src->fd, src->name,
					      src->head, src->nhead);
	if (err)
		return perf_fail(r, err);
	r->ses = ehd__perf_session(r->perf);
	r->native = !r->ses->big_endian == !ehd__host_big();
	if (src->session) {
		held_reserve(r, ehd__session_ring_bytes(src->session));
		return EHD_INPUT_SESSION;
	}
	return r->ses->pipe_mode ? EHD_INPUT_PERF_PIPE : EHD_INPUT_PERF;
}

/* ---- events ---- */

static void split_name(struct ehd_event *ev, const char *s)
{
	const char *colon = strchr(s, ':');

	if (colon) {
		ev->provider = s;
		ev->provider_len = (size_t)(colon - s);
		s = colon + 1;
	} else {
		ev->provider = "";
	}
	ev->name = s;
	ev->name_len = strlen(s);
}

/* What is kept of @d (NULL when out of memory). */
static struct per_desc *per_desc(struct perf_read *r,
				 const struct ehd__perf_event_desc *d)
{
	struct per_desc *v;

	if (d->index >= r->ndescs) {
		v = realloc(r->descs, (d->index + 1) * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + r->ndescs, 0,
		       (d->index + 1 - r->ndescs) * sizeof(*v));
		r->descs = v;
		r->ndescs = d->index + 1;
	}
	return &r->descs[d->index];
}

/*
 * The field kinds of @d's tracepoint, worked out on its first sample (NULL
 * when out of memory: they are then deduced for each event).
 */
static const struct ehd__tracefs_types *
types_of(struct perf_read *r, const struct ehd__perf_event_desc *d,
	 int long_size)
{
	struct per_desc *p = per_desc(r, d);

	if (p && !p->types)
		p->types = ehd__tracefs_types_new(d->tep_event, long_size);
	return p ? p->types : NULL;
}

/*
 * Rows are passed: the identity of EventHeader event @ev (just
 * identified, its data @data) kept as @d's, for the events after it.
 */
static void keep_known(struct perf_read *r,
		       const struct ehd__perf_event_desc *d,
		       const struct ehd_event *ev, const uint8_t *data)
{
	struct per_desc *p = per_desc(r, d);
	uint64_t key = ehd__enum_key(r->en);
	const uint8_t *decls;
	size_t len, payload;

	if (!p || (!p->known && !(p->known = malloc(sizeof(*p->known)))))
		return;
	ehd__enum_layout(r->en, &decls, &len, &payload);
	p->known->key = 0;
	if (ev->activity_id || payload > KNOWN_BYTES_MAX)
		return;
	memcpy(p->known->bytes, data, payload);
	p->known->len = (uint32_t)payload;
	p->known->key = key;
}

/* Identify an EventHeader event: 0, or the reason it is not one, counted. */
static int identify(struct perf_read *r, struct ehd_event *ev,
		    const uint8_t *data, size_t size)
{
	int err = ehd__identify(r->en, ev, &r->internal, data, size);

	if (err)
		r->stats.not_eventheader++;
	return err;
}

static bool system_sample(struct perf_read *r,
			  const struct ehd__perf_sample *s);

/*
 * What the events have of the thread names now: a value that changes
 * whenever a name does (ehd__event_names_gen()).
 */
static uint64_t names_gen(const struct perf_read *r)
{
	return r->threads.gen | 1ull << 63;
}

/*
 * The context bits of the event of a sample with sample_id @fields (time,
 * UTC when @utc, the session having the clock's offset, CPU, pid).
 */
static inline unsigned int fields_context(uint64_t fields, bool utc)
{
	unsigned int context = 0;

	if (fields & PERF_SAMPLE_TIME)
		context |= EHD_CTX_TIME | (utc ? EHD_CTX_TIME_UTC : 0);
	if (fields & PERF_SAMPLE_CPU)
		context |= EHD_CTX_CPU;
	if (fields & PERF_SAMPLE_TID)
		context |= EHD_CTX_PID;
	return context;
}

/*
 * The context bits of the event of a sample with sample_id @fields, and
 * in *@time its time @t as the event has it.
 */
static inline unsigned int sample_context(struct perf_read *r,
					  uint64_t fields, uint64_t t,
					  uint64_t *time)
{
	const struct ehd__perf_session *ss = r->ses;

	*time = 0;
	if (fields & PERF_SAMPLE_TIME)	/* (ehd__perf_time_to_utc()) */
		*time = t + (ss->has_clock_offset ? ss->clock_offset : 0);
	return fields_context(fields, ss->has_clock_offset);
}

/*
 * The names of the thread and process of @ev (pid, tid set), kept from
 * the sample before while none changed; the writers' key to them.
 */
static void thread_names(struct perf_read *r, struct ehd_event *ev)
{
	uint64_t gen = names_gen(r);

	if (r->last_names.tid != ev->tid || r->last_names.pid != ev->pid ||
	    r->last_names.gen != gen) {
		r->last_names.tid = ev->tid;
		r->last_names.pid = ev->pid;
		r->last_names.gen = gen;
		r->last_names.comm = ehd__threads_name(&r->threads, ev->tid);
		r->last_names.process = ehd__threads_name(&r->threads, ev->pid);
	}
	ev->comm = r->last_names.comm;
	ev->process = r->last_names.process;
	r->internal.names_gen = gen;
}

/*
 * r->ev emptied for an event of the record at @offset, with the reader's
 * internals and the file's byte order; the file's session returned.
 */
static const struct ehd__perf_session *reset_event(struct perf_read *r,
						   uint64_t offset)
{
	const struct ehd__perf_session *ses = ehd__perf_session(r->perf);

	memset(&r->ev, 0, sizeof(r->ev));
	memset(&r->internal, 0, sizeof(r->internal));
	r->internal.procs = r->procs;
	r->ev.internal = &r->internal;
	r->ev.source_offset = offset;
	r->ev.big_endian = ses->big_endian;
	return ses;
}

/* The event of sample @s; false when it gives none (EHD_READER_SYSTEM). */
static bool make_event(struct perf_read *r, const struct ehd__perf_sample *s,
		       uint64_t offset)
{
	const struct ehd__perf_session *ses = reset_event(r, offset);
	const struct ehd__perf_event_desc *d = s->desc;
	struct ehd_event *ev = &r->ev;
	const uint8_t *raw = s->raw;

	ev->long_size = ses->tracing_long_size ? ses->tracing_long_size : 8;
	ev->context = sample_context(r, s->fields, s->time, &ev->time);
	if (ev->context & EHD_CTX_CPU)
		ev->cpu = s->cpu;
	if (ev->context & EHD_CTX_PID) {
		ev->pid = s->pid;
		ev->tid = s->tid;
		thread_names(r, ev);
	}
	if (s->fields & PERF_SAMPLE_CALLCHAIN) {
		ev->context |= EHD_CTX_CALLCHAIN;
		ev->callchain = s->callchain;
		ev->callchain_count = (size_t)s->callchain_count;
	}
	ev->data = ev->record = raw;
	ev->size = ev->record_size = s->raw_size;
	if (!d) {
		r->stats.unknown_id++;
		ev->kind = EHD_EVENT_RAW;
		ev->provider = ev->name = ev->tracepoint = "";
		return true;
	}
	if (r->procs && system_sample(r, s))
		return ev->kind == EHD_EVENT_SAMPLE;
	ev->tep_event = d->tep_event;
	ev->tracepoint = d->tp_name ? d->tp_name : "";
	ev->tracepoint_len = d->tp_name ? d->tp_name_len : 0;
	if (d->eh_offset >= 0 && raw && (uint32_t)d->eh_offset <= s->raw_size &&
	    !identify(r, ev, raw + d->eh_offset,
		      s->raw_size - (uint32_t)d->eh_offset)) {
		if (r->sink)
			keep_known(r, d, ev, raw + d->eh_offset);
		return true;
	}
	ev->kind = d->tep_event ? EHD_EVENT_TRACEFS : EHD_EVENT_RAW;
	if (d->tep_event)
		r->internal.types = types_of(r, d, ev->long_size);
	split_name(ev, d->name ? d->name : "");
	return true;
}

/*
 * For a system trace, the stack of r->ev cut of what a frame pointer walk
 * read past its outermost frame, and counted.
 */
static void trim_stack(struct perf_read *r)
{
	struct ehd_event *ev = &r->ev;
	size_t n;

	if (r->procs && (ev->context & EHD_CTX_CALLCHAIN)) {
		n = ehd__procs_trim(r->procs, ev->pid, ev->callchain,
				    ev->callchain_count);
		if (n < ev->callchain_count)	/* (the marker is not a frame) */
			r->stacks.cut += ev->callchain_count - n -
				(ev->callchain[n] == (uint64_t)PERF_CONTEXT_USER);
		ev->callchain_count = n;
		ehd__procs_count(r->procs, ev, &r->stacks);
	}
}

/* make_event(), its stack trimmed (trim_stack()). */
static bool sample_event(struct perf_read *r, const struct ehd__perf_sample *s,
			 uint64_t offset)
{
	if (!make_event(r, s, offset))
		return false;
	trim_stack(r);
	return true;
}

/* The cswitch of the sched_switch sample given out last (keep_switch). */
static void pending_cswitch(struct perf_read *r)
{
	r->cswitch_pending = false;
	r->ev = r->cswitch_ev;
	memset(&r->internal, 0, sizeof(r->internal));
	r->internal.procs = r->procs;
	r->ev.internal = &r->internal;
	thread_names(r, &r->ev);
	trim_stack(r);
}

static void universal(struct ehd_event *ev, const char *provider,
		      const char *name)
{
	ev->provider = provider;
	ev->provider_len = strlen(provider);
	ev->name = ev->tracepoint = name;
	ev->name_len = ev->tracepoint_len = strlen(name);
	ev->data = ev->record = NULL;
	ev->size = ev->record_size = 0;
}

/* Field @f of a sched_switch sample, or -1. */
static long long switch_field(const struct ehd__perf_sample *s,
			      struct tep_format_field *f)
{
	unsigned long long v;

	if (!f || !s->raw || f->offset + f->size > (int)s->raw_size ||
	    tep_read_number_field(f, s->raw, &v))
		return -1;
	return (long long)v;
}

/* Is @d sched:sched_switch? Its fields are then looked up once. */
static bool is_switch(struct perf_read *r,
		      const struct ehd__perf_event_desc *d)
{
	if (d == r->switch_desc)
		return true;
	if (!d->tep_event || !d->name || strcmp(d->name, "sched:sched_switch"))
		return false;
	/* A file says what its recording asked in its command line. */
	if (!r->session && !r->switch_desc)
		r->keep_switch = ehd__cmdline_asks_switch(r->ses->cmdline);
	r->switch_desc = d;
	r->switch_prev = tep_find_field(d->tep_event, "prev_pid");
	r->switch_next = tep_find_field(d->tep_event, "next_pid");
	return true;
}

/*
 * r->ev (its time and CPU set) made the "cswitch" of thread @tid coming
 * back after @off ns away, with the @n-frame @stack it left with.
 */
static void cswitch_event(struct perf_read *r, uint32_t tid, uint64_t off,
			  const uint64_t *stack, size_t n)
{
	struct ehd_event *ev = &r->ev;

	ev->kind = EHD_EVENT_SAMPLE;
	ev->value = off;
	ev->tid = tid;
	ev->pid = ehd__threads_pid(&r->threads, tid);
	if (!ev->pid)
		ev->pid = tid;
	thread_names(r, ev);
	ev->context |= EHD_CTX_PID | EHD_CTX_CALLCHAIN;
	ev->callchain = stack;
	ev->callchain_count = n;
	universal(ev, "Universal.Events", "cswitch");
}

/*
 * EHD_READER_SYSTEM: cpu-clock and task-clock samples are "cpu" samples;
 * sched_switch becomes "cswitch" (ev->kind EHD_EVENT_SAMPLE), or nothing
 * (ev->kind 0) when the thread that comes was not seen leaving. Where the
 * session (or, for a file, ehrecord's command line) asked for sched_switch
 * itself, its sample stays an event and the cswitch waits in
 * r->cswitch_ev, given after it. Return: false for
 * any other sample, and for a sched_switch sample that stays an event.
 */
static bool system_sample(struct perf_read *r,
			  const struct ehd__perf_sample *s)
{
	const struct ehd__perf_event_desc *d = s->desc;
	struct ehd_event *ev = &r->ev, raw;
	long long prev, next;
	const uint64_t *stack;
	uint64_t off;
	size_t n;

	if (d->attr.type == PERF_TYPE_SOFTWARE &&
	    (d->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
	     d->attr.config == PERF_COUNT_SW_TASK_CLOCK)) {
		ev->kind = EHD_EVENT_SAMPLE;
		ev->value = 1;
		universal(ev, "Universal.Events", "cpu");
		return true;
	}
	if (!is_switch(r, d))
		return false;
	prev = switch_field(s, r->switch_prev);
	next = switch_field(s, r->switch_next);
	if (prev < 0 || next < 0)
		return false;
	ev->kind = 0;
	if (!ehd__procs_switch(r->procs, s->time, (uint32_t)prev,
			       (uint32_t)next, s->callchain,
			       (size_t)s->callchain_count, &off, &stack, &n) ||
	    !next)
		return !r->keep_switch;
	if (!r->keep_switch) {
		cswitch_event(r, (uint32_t)next, off, stack, n);
		return true;
	}
	raw = *ev;
	cswitch_event(r, (uint32_t)next, off, stack, n);
	r->cswitch_ev = *ev;
	*ev = raw;
	r->cswitch_pending = true;
	return false;
}

#ifndef PERF_RECORD_MISC_LOST_SAMPLES_BPF
#define PERF_RECORD_MISC_LOST_SAMPLES_BPF (1 << 15)
#endif

/* The dummy event that carries side-band records (COMM, FORK, ...). */
static bool sideband_desc(const struct ehd__perf_event_desc *d)
{
	return d && d->attr.type == PERF_TYPE_SOFTWARE &&
	       d->attr.config == PERF_COUNT_SW_DUMMY;
}

/*
 * Count what LOST and LOST_SAMPLES records say. The kernel reports a full
 * ring's losses in LOST records as it goes; perf record (6.0 and later)
 * and our session add, at the end, a LOST_SAMPLES record per event with
 * that event's whole count (PERF_FORMAT_LOST), reported or not. Summing
 * both would count the same losses twice: once LOST_SAMPLES records are
 * seen, they alone give the number. Those of the side-band dummy event
 * are not events, and those with the BPF flag were filtered out on
 * purpose (perf record --filter), not lost.
 */
static void count_lost(struct perf_read *r, const struct ehd__perf_record *rec)
{
	const uint8_t *p = (const uint8_t *)rec->data + 8;
	int big = ehd__perf_session(r->perf)->big_endian;

	if (rec->type == PERF_RECORD_LOST && rec->size >= 24) {
		r->lost_stream += ehd__load_uint(p + 8, 8, big);
		r->stats.lost_records++;
	} else if (rec->type == PERF_RECORD_LOST_SAMPLES && rec->size >= 16 &&
		   !(rec->misc & PERF_RECORD_MISC_LOST_SAMPLES_BPF)) {
		uint64_t n = ehd__load_uint(p, 8, big);

		r->have_lost_samples = true;
		if (!rec->has_sample || !sideband_desc(rec->sample.desc))
			r->lost_samples += n;
		else
			r->stats.lost_other += n;
		r->stats.lost_records++;
	}
	r->stats.lost = r->have_lost_samples ? r->lost_samples : r->lost_stream;
}

/* A record that changes names (and with EHD_READER_SYSTEM, processes). */
static inline bool task_record(const struct perf_read *r, uint32_t type)
{
	return type == PERF_RECORD_COMM || type == PERF_RECORD_FORK ||
	       (r->procs && (type == PERF_RECORD_EXIT ||
			     type == PERF_RECORD_MMAP ||
			     type == PERF_RECORD_MMAP2 ||
			     type == PERF_RECORD_SWITCH));
}

/*
 * A FORK of a new process its event does not follow: events opened on a
 * process's threads with inherit_thread (ehrecord -p without --children)
 * see its forks, but not what the children do; the children are not
 * part of the trace.
 */
static bool unfollowed_fork(const struct perf_read *r,
			    const struct ehd__perf_record *rec)
{
	const struct ehd__perf_event_desc *d = rec->sample.desc;
	const uint8_t *p = (const uint8_t *)rec->data + 8;
	int big = ehd__perf_session(r->perf)->big_endian;

	return rec->type == PERF_RECORD_FORK && rec->has_sample && d &&
	       d->attr.inherit && d->attr.inherit_thread && rec->size >= 16 &&
	       ehd__load_uint(p, 4, big) != ehd__load_uint(p + 4, 4, big);
}

/*
 * The system event of a side-band record, in r->ev: time, and pid/tid
 * from its sample_id when it has one.
 */
static void sideband_event(struct perf_read *r, const struct rec_info *sid)
{
	struct ehd_event *ev = &r->ev;

	reset_event(r, sid->offset);
	ev->kind = EHD_EVENT_SYSTEM;
	ev->system = &r->sys;
	ev->long_size = 8;
	ev->context = EHD_CTX_PID |
		      sample_context(r, sid->fields, sid->time, &ev->time);
	ev->pid = ev->tid = r->sys.pid;
	if (ev->context & EHD_CTX_CPU)
		ev->cpu = sid->cpu;
}

static void system_event(struct perf_read *r, const struct rec_info *sid)
{
	struct ehd_event *ev = &r->ev;

	sideband_event(r, sid);
	ev->comm = ev->process = ehd__threads_name(&r->threads, ev->pid);
	universal(ev, "Universal.System",
		  r->sys.kind == EHD_SYSTEM_PROCESS_CREATE ? "ProcessCreate" :
		  r->sys.kind == EHD_SYSTEM_PROCESS_EXIT ? "ProcessExit" :
		  r->sys.kind == EHD_SYSTEM_MAPPING ? "ProcessMapping" :
		  "ExistingProcess");
}

#ifndef PERF_RECORD_MISC_SWITCH_OUT
#define PERF_RECORD_MISC_SWITCH_OUT (1 << 13)
#endif

/*
 * A PERF_RECORD_SWITCH of a thread coming onto a CPU (@data, file byte
 * order): the "cswitch" of its time away, as a sched_switch to it gives
 * it. Events opened on threads (ehrecord -p --off-cpu) see their threads
 * leave, with stacks, in sched_switch samples, but their coming back only
 * in these. Return: true when it gives one (in r->ev).
 */
static bool switch_in(struct perf_read *r, const struct rec_info *h,
		      const void *data, size_t size)
{
	const uint8_t *p = (const uint8_t *)data + 8;
	int big = ehd__perf_session(r->perf)->big_endian;
	const uint64_t *stack;
	uint64_t off;
	uint32_t tid;
	size_t n;

	if ((h->misc & PERF_RECORD_MISC_SWITCH_OUT) ||
	    !(h->fields & PERF_SAMPLE_TID) || size < 16)
		return false;
	tid = (uint32_t)ehd__load_uint(p + 4, 4, big);
	if (!tid || !ehd__procs_switch(r->procs, h->time, 0, tid, NULL, 0,
				       &off, &stack, &n))
		return false;
	sideband_event(r, h);
	cswitch_event(r, tid, off, stack, n);
	return true;
}

/*
 * A side-band record (@data, file byte order): names change, and with
 * EHD_READER_SYSTEM processes and mappings. Return: true when it gives a
 * system event (in r->ev).
 */
static bool apply_task(struct perf_read *r, const struct rec_info *h,
		       const void *data, size_t size)
{
	uint32_t type = h->type;
	uint16_t misc = h->misc;
	const uint8_t *p = (const uint8_t *)data + 8;
	int big = ehd__perf_session(r->perf)->big_endian;
	size_t n = size - 8;
	bool sys = false;

	if (type == PERF_RECORD_SWITCH)
		return switch_in(r, h, data, size);
	if (r->procs && ehd__procs_record(r->procs, type, misc, p, n, big,
					  &r->threads, &r->sys))
		sys = true;

	if ((type == PERF_RECORD_COMM && n <= 8) ||
	    (type == PERF_RECORD_FORK && n < 16))
		r->stats.malformed++;
	else if (type == PERF_RECORD_COMM) {
		const char *comm = (const char *)p + 8;

		ehd__threads_comm(&r->threads, (uint32_t)ehd__load_uint(p, 4, big),
				  (uint32_t)ehd__load_uint(p + 4, 4, big), comm,
				  strnlen(comm, n - 8));
	} else if (type == PERF_RECORD_FORK) {
		ehd__threads_fork(&r->threads,
				  (uint32_t)ehd__load_uint(p, 4, big),
				  (uint32_t)ehd__load_uint(p + 8, 4, big),
				  (uint32_t)ehd__load_uint(p + 12, 4, big));
	}
	if (sys && r->sys.kind == EHD_SYSTEM_PROCESS_CREATE &&
	    ehd__procs_exec_ended(r->procs)) {
		/* the old program's exit now, the new one's create next */
		r->exec_sys = r->sys;
		snprintf(r->exec_name, sizeof(r->exec_name), "%s",
			 r->sys.name ? r->sys.name : "");
		snprintf(r->exec_ns, sizeof(r->exec_ns), "%s",
			 r->sys.ns_name ? r->sys.ns_name : "");
		r->exec_sys.name = r->exec_name;
		r->exec_sys.ns_name = r->exec_ns;
		r->exec_at = *h;
		r->exec_pending = true;
		memset(&r->sys, 0, sizeof(r->sys));
		r->sys.kind = EHD_SYSTEM_PROCESS_EXIT;
		r->sys.pid = r->exec_sys.pid;
		system_event(r, h);
		return true;
	}
	if (sys) {
		system_event(r, h);
		if (r->sys.kind == EHD_SYSTEM_PROCESS_CREATE) {
			r->inheriting = true;
			r->inherit_pid = r->sys.pid;
			r->inherit_next = 0;
			r->inherit_at = *h;
		}
	}
	return sys;
}

/*
 * The next mapping a new process has from its parent (a fork copies them
 * without records): a ProcessMapping event of the child, at the time of
 * its ProcessCreate, so that a reader of the events alone (PerfView) can
 * attribute its samples. Return: true when it gives one.
 */
static bool inherited_mapping(struct perf_read *r)
{
	if (!ehd__procs_mapping_at(r->procs, r->inherit_pid, r->inherit_next++,
				   &r->sys)) {
		r->inheriting = false;
		return false;
	}
	system_event(r, &r->inherit_at);
	return true;
}

/*
 * The next event of a restatement: each process alive, as an
 * ExistingProcess event, then its mappings, just before the record given
 * last (which the caller may give again after them: they sort first).
 * Return: true when it gives one.
 */
static bool restated_event(struct perf_read *r)
{
	struct rec_info at = { .time = r->last_time ? r->last_time - 1 : 0,
			       .fields = r->last_time ? PERF_SAMPLE_TIME : 0 };
	const char *name;
	uint32_t pid;

	for (;;) {
		if (r->restate_pid &&
		    ehd__procs_mapping_at(r->procs, r->restate_pid,
					  r->restate_map++, &r->sys)) {
			system_event(r, &at);
			return true;
		}
		if (!ehd__procs_live_at(r->procs, &r->restate_proc, &pid)) {
			r->restating = false;
			r->restate_pid = 0;
			return false;
		}
		r->restate_proc++;
		r->restate_pid = pid;
		r->restate_map = 0;
		name = ehd__threads_name(&r->threads, pid);
		memset(&r->sys, 0, sizeof(r->sys));
		r->sys.kind = EHD_SYSTEM_EXISTING_PROCESS;
		r->sys.pid = pid;
		r->sys.name = name ? name : "";
		system_event(r, &at);
		return true;
	}
}

static void perf_restate(void *state)
{
	struct perf_read *r = state;

	if (!r->procs)
		return;
	r->restating = true;
	r->restate_proc = 0;
	r->restate_pid = 0;
}

/*
 * Sort held[@lo..@hi) by time, arrival order kept for equal times, with
 * @tmp as room: a merge sort, for when the runs are too many to merge.
 */
static void sort_held(struct held *h, struct held *tmp, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, i = lo, j = mid, k = lo;

	if (hi - lo < 2)
		return;
	sort_held(h, tmp, lo, mid);
	sort_held(h, tmp, mid, hi);
	if (h[mid - 1].pl.time <= h[mid].pl.time)
		return;
	while (i < mid && j < hi)
		tmp[k++] = h[j].pl.time < h[i].pl.time ? h[j++] : h[i++];
	while (i < mid)
		tmp[k++] = h[i++];
	while (j < hi)
		tmp[k++] = h[j++];
	memcpy(h + lo, tmp + lo, (hi - lo) * sizeof(*h));
}

/* Keep the parsed fields of sample @rec (pointers as offsets) in @i. */
static void keep_parse(struct rec_info *i, const struct ehd__perf_record *rec)
{
	const struct ehd__perf_sample *sm = &rec->sample;
	const uint8_t *base = rec->data;

	i->parsed = true;
	i->desc = sm->desc;
	i->pid = sm->pid;
	i->tid = sm->tid;
	i->raw_off = sm->raw ? (uint32_t)((const uint8_t *)sm->raw - base) : 0;
	i->raw_size = sm->raw ? sm->raw_size : 0;
	i->chain_off = sm->callchain ?
		       (uint32_t)((const uint8_t *)sm->callchain - base) : 0;
	i->chain_count = (uint32_t)sm->callchain_count;
}

/* Plain sample @l, in r->sample. */
static inline void lean_sample(struct perf_read *r,
			       const struct ehd__perf_lean *l)
{
	struct ehd__perf_sample *sm = &r->sample;

	memset(sm, 0, sizeof(*sm));
	sm->fields = l->fields;
	sm->desc = l->desc;
	sm->time = l->time;
	sm->cpu = l->cpu;
	sm->pid = l->pid;
	sm->tid = l->tid;
	sm->raw = l->data + l->raw_off;
	sm->raw_size = l->raw_size;
}

/* The sample @i kept of record @at, as a plain one in @l. */
static void lean_of(const struct rec_info *i, const uint8_t *at,
		    struct ehd__perf_lean *l)
{
	l->data = at;
	l->desc = i->desc;
	l->fields = i->fields;
	l->time = i->time;
	l->cpu = i->cpu;
	l->pid = i->pid;
	l->tid = i->tid;
	l->raw_off = i->raw_off;
	l->raw_size = i->raw_size;
}

/* The sample @i kept of record @at, in r->sample, its pointers into @at. */
static void held_sample(struct perf_read *r, const struct rec_info *i,
			const uint8_t *at)
{
	struct ehd__perf_sample *sm = &r->sample;
	struct ehd__perf_lean l;

	lean_of(i, at, &l);
	lean_sample(r, &l);
	if (!i->raw_off) {
		sm->raw = NULL;
		sm->raw_size = 0;
	}
	if (i->chain_off) {
		sm->callchain = (const uint64_t *)(const void *)(at +
								 i->chain_off);
		sm->callchain_count = i->chain_count;
	}
}

/* A chunk none of whose records is held: kept for the next, or freed. */
static void retire(struct perf_read *r, struct chunk *c)
{
	if (r->nspare < SPARE_CHUNKS && c->cap == ARENA_CHUNK) {
		c->next = r->spare;
		r->spare = c;
		r->nspare++;
		return;
	}
	free(c);
}

/* Room for @size bytes in a chunk: the current one, or another. */
static struct chunk *chunk_for(struct perf_read *r, size_t size)
{
	struct chunk *c = r->cur, *old = r->cur;
	size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;

	if (c && c->cap - c->len >= size)
		return c;
	if (c && !c->live && c->cap >= size) {
		c->len = 0;	/* nothing in it is held: start it again */
		return c;
	}
	if (r->spare && r->spare->cap >= size) {
		c = r->spare;
		r->spare = c->next;
		r->nspare--;
	} else {
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
	}
	c->len = 0;
	c->live = 0;
	r->cur = c;
	if (old && !old->live)
		retire(r, old);
	return c;
}

/* A record of chunk @c is no more held: the chunk may go. */
static void release(struct perf_read *r, struct chunk *c)
{
	if (!--c->live && c != r->cur)
		retire(r, c);
}

/* The session's stream is not needed before @pos (all was given out). */
static void release_stream(struct perf_read *r, uint64_t pos)
{
	ehd__session_release(r->session, pos);
	r->released = pos;
}

/* The record of the event given out last is not needed any more. */
static inline void release_given(struct perf_read *r)
{
	if (r->given) {
		release(r, r->given);
		r->given = NULL;
	}
}

static void free_chunks(struct perf_read *r)
{
	size_t i;

	release_given(r);
	for (i = r->first; i < r->nheld; i++)
		if (r->held[i].chunk) {
			release(r, r->held[i].chunk);
			r->held[i].chunk = NULL;
		}
	free(r->cur);
	while (r->spare) {
		struct chunk *c = r->spare;

		r->spare = c->next;
		free(c);
	}
	r->cur = NULL;
	r->nspare = 0;
}

/* The held entries (and the merge's output) made @cap long: 0 or -ENOMEM. */
static int held_resize(struct perf_read *r, size_t cap)
{
	struct held *h;

	h = realloc(r->held, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	r->held = h;
	h = realloc(r->merged, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	r->merged = h;
	r->held_cap = cap;
	return 0;
}

/*
 * A live session's reader holds about two rounds, each at most what its
 * rings hold: room for them made at the start, and its pages touched
 * then, not while the rings fill.
 */
size_t ehd__perf_held_reserve_for(size_t ring_bytes)
{
	size_t cap = 1024;

	/* (two rounds of the rings in records of 256 bytes: one per 128) */
	while (cap < ring_bytes / 128 && cap < EHD__PERF_HELD_RESERVE_MAX)
		cap *= 2;
	return cap;
}

static void held_reserve(struct perf_read *r, size_t ring_bytes)
{
	size_t cap = ehd__perf_held_reserve_for(ring_bytes);

	if (held_resize(r, cap))
		return;		/* (they grow as needed) */
	ehd__touch_pages(r->held, cap * sizeof(*r->held));
	ehd__touch_pages(r->merged, cap * sizeof(*r->merged));
}

/* held_room() when the entries are full. */
static int held_grow(struct perf_read *r)
{
	if (r->first && r->nheld == r->held_cap && r->first >= r->held_cap / 2) {
		/* Full, the first half given out: move the rest down. */
		size_t k;

		/* (no overlap: first >= held_cap / 2; see copy_span) */
		ehd__copy_span((uint8_t *)r->held,
			       (const uint8_t *)(r->held + r->first),
			       (r->nheld - r->first) * sizeof(*r->held));
		for (k = 0; k < r->nruns && k < RUNS_MAX; k++)
			r->runs[k] -= r->first;
		r->nheld -= r->first;
		r->first = 0;
	}
	if (r->nheld == r->held_cap)
		return held_resize(r, r->held_cap ? 2 * r->held_cap : 1024);
	return 0;
}

/* Room for one more held entry at least: 0, or -ENOMEM. */
static inline int held_room(struct perf_read *r)
{
	return r->nheld < r->held_cap ? 0 : held_grow(r);
}

/* A run starts at held[@at] (past RUNS_MAX of them, the held are sorted). */
static inline void run_starts(struct perf_read *r, size_t at)
{
	if (r->nruns <= RUNS_MAX) {
		if (r->nruns < RUNS_MAX)
			r->runs[r->nruns] = at;
		r->nruns++;
	}
}

/* A record of @time is held next: a new run if older than the one before. */
static inline void note_run(struct perf_read *r, uint64_t time)
{
	if (r->nheld > r->first && time < r->held[r->nheld - 1].pl.time)
		run_starts(r, r->nheld);
	if (time > r->max_time)
		r->max_time = time;
}

/*
 * Hold record @rec: its copy (unless borrowed) in the arena behind what is
 * kept of it (struct rec_info), its run noted.
 */
static int hold(struct perf_read *r, const struct ehd__perf_record *rec)
{
	bool borrowed = rec->flags & EHD__PERF_REC_BORROWED;
	size_t size = ((size_t)rec->size + 7) & ~(size_t)7;
	size_t need = sizeof(struct rec_info) + (borrowed ? 0 : size);
	struct rec_info *i;
	struct chunk *c;
	struct held *h;

	if (held_room(r) || !(c = chunk_for(r, need)))
		return ehd__err_set(r->err, -ENOMEM, rec->offset,
				    "out of memory");
	note_run(r, rec->sample.time);
	h = &r->held[r->nheld++];
	r->held_bytes += size;
	i = (struct rec_info *)(void *)(c->data + c->len);
	c->len += need;
	c->live++;
	h->pl.time = rec->sample.time;
	h->pl.offset = rec->offset;
	h->pl.size = (uint32_t)size;
	h->pl.desc = NULL;
	/* Borrowed: where the session has it, until released (keep_rest()). */
	h->pl.borrowed = borrowed;
	h->pl.data = rec->data;
	if (!borrowed) {
		memcpy(i + 1, rec->data, rec->size);
		h->pl.data = (const uint8_t *)(i + 1);
	}
	h->info = i;
	h->chunk = c;
	i->time = rec->sample.time;
	i->type = rec->type;
	i->misc = rec->misc;
	i->cpu = rec->sample.cpu;
	i->fields = rec->sample.fields;
	i->offset = rec->offset;
	i->parsed = false;
	if (rec->type == PERF_RECORD_SAMPLE && r->native &&
	    !(rec->flags & EHD__PERF_REC_DECOMPRESSED))
		keep_parse(i, rec);
	return 0;
}

/*
 * Hold the plain samples that come next, read in one call into the held
 * entries: where the session has them, or (from a file's read buffer)
 * copied into the arena together. 1 if there were any, 0 if none, or
 * -ENOMEM.
 */
static int hold_places(struct perf_read *r)
{
	bool copy = !ehd__perf_borrowing(r->perf), have, tp = false;
	const struct ehd__perf_event_desc *desc = NULL;
	uint64_t prev, max, t, bytes = 0, tps = 0;
	const uint8_t *from, *to;
	struct chunk *c = NULL;
	size_t room = SIZE_MAX, n, k;
	struct held *h;

	/* (room for the largest record: the run is never 0 for want of it) */
	if (held_room(r) || (copy && !(c = chunk_for(r, RECORD_MAX))))
		return ehd__err_set(r->err, -ENOMEM,
				    ehd__perf_position(r->perf),
				    "out of memory");
	if (c)
		room = c->cap - c->len;
	h = r->held + r->nheld;
	n = ehd__perf_next_places(r->perf, &h->pl, sizeof(*h),
				  r->held_cap - r->nheld, room);
	if (!n)
		return 0;
	from = h->pl.data;
	to = from;
	if (c) {
		k = (size_t)(h[n - 1].pl.data + h[n - 1].pl.size - from);
		ehd__copy_span(c->data + c->len, from, k);
		to = c->data + c->len;
		c->len += k;
		c->live += n;
	}
	/* (note_run() and the counts, kept in locals over the run) */
	have = r->nheld > r->first;
	prev = have ? r->held[r->nheld - 1].pl.time : 0;
	max = r->max_time;
	for (k = 0; k < n; k++, h++) {
		t = h->pl.time;
		if (have && t < prev)
			run_starts(r, r->nheld + k);
		have = true;
		prev = t;
		if (t > max)
			max = t;
		h->pl.data = to + (h->pl.data - from);
		h->info = NULL;
		h->chunk = c;
		bytes += h->pl.size;
		if (h->pl.desc != desc) {
			desc = h->pl.desc;
			tp = desc->attr.type == PERF_TYPE_TRACEPOINT;
		}
		tps += tp;
	}
	r->nheld += n;
	r->max_time = max;
	r->held_bytes += bytes;
	r->stats.tracepoint_samples += tps;
	r->stats.records += n;
	return 1;
}

/*
 * Whether the head of run @a (its record at @pos[@a]) comes before that of
 * run @b: earlier, or as early and of a run that arrived first.
 */
static inline bool head_before(const struct held *h, const size_t *pos,
			       size_t a, size_t b)
{
	uint64_t ta = h[pos[a]].pl.time, tb = h[pos[b]].pl.time;

	return ta < tb || (ta == tb && a < b);
}

/* Restore the heap of @n runs @heap (first head first) below index @i. */
static void sift_down(const struct held *h, const size_t *pos, size_t *heap,
		      size_t n, size_t i)
{
	size_t c, m, t;

	for (;;) {
		m = i;
		c = 2 * i + 1;
		if (c < n && head_before(h, pos, heap[c], heap[m]))
			m = c;
		if (c + 1 < n && head_before(h, pos, heap[c + 1], heap[m]))
			m = c + 1;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

/*
 * Put the held records in time order (arrival order for equal times).
 * Each run is in order already (a ring's records mostly are): a few runs
 * are merged, many sorted. The merge keeps the runs in a heap by their
 * heads and takes from the first while its head comes before the second's
 * (a run is mostly taken in stretches): one comparison a record, and a
 * sift of log(runs) a stretch.
 */
static void order_held(struct perf_read *r)
{
	size_t pos[RUNS_MAX + 1], end[RUNS_MAX + 1], heap[RUNS_MAX + 1];
	size_t nh = 0, n, k, b, next;
	const struct held *h = r->held;
	struct held *t;

	if (!r->nruns)
		return;
	if (r->nruns > RUNS_MAX) {
		sort_held(r->held, r->merged, r->first, r->nheld);
		r->nruns = 0;
		return;
	}
	pos[0] = r->first;
	for (k = 0; k < r->nruns; k++)
		end[k] = pos[k + 1] = r->runs[k];
	end[r->nruns] = r->nheld;
	for (k = 0; k <= r->nruns; k++)
		if (pos[k] < end[k])
			heap[nh++] = k;
	for (k = nh / 2; k--;)
		sift_down(h, pos, heap, nh, k);
	n = r->first;
	while (nh) {
		b = heap[0];
		/* the second run: the first's child that comes first */
		next = nh < 2 ? RUNS_MAX + 1 :
		       nh > 2 && head_before(h, pos, heap[2], heap[1]) ?
		       heap[2] : heap[1];
		do
			r->merged[n++] = h[pos[b]++];
		while (pos[b] < end[b] &&
		       (next > RUNS_MAX || head_before(h, pos, b, next)));
		if (pos[b] == end[b])
			heap[0] = heap[--nh];
		sift_down(h, pos, heap, nh, 0);
	}
	t = r->held;
	r->held = r->merged;
	r->merged = t;
	r->nruns = 0;
}

/*
 * Give out the held samples up to time @limit (all with @all), in time
 * order; the others stay held. perf's own rule: at the end of a round,
 * what was recorded before the previous round's end is complete.
 */
static void start_drain(struct perf_read *r, bool all, uint64_t limit)
{
	size_t lo = r->first, n = r->nheld, mid;

	order_held(r);
	/* (in time order now: the first after @limit is looked for) */
	while (!all && lo < n) {
		mid = lo + (n - lo) / 2;
		if (r->held[mid].pl.time > limit)
			n = mid;
		else
			lo = mid + 1;
	}
	r->next_held = r->first;
	r->drain_end = n;
	r->draining = true;
}

/*
 * Keep the samples not given out, at the front (they stay where they
 * are); a live session may free what is before the oldest of them.
 */
static void keep_rest(struct perf_read *r)
{
	uint64_t pos;
	size_t i;

	r->first = r->drain_end;
	if (r->first == r->nheld)
		r->first = r->nheld = 0;
	if (!r->session)
		return;
	pos = ehd__perf_position(r->perf);
	for (i = r->first; i < r->nheld; i++)
		if (r->held[i].pl.borrowed && r->held[i].pl.offset < pos)
			pos = r->held[i].pl.offset;
	release_stream(r, pos);
}

/*
 * The live session's spool is full and its drain thread waits, while the
 * records held here wait for a round end that waits for room: copy those
 * the session has (borrowed) into the arena, each with what is kept of
 * it, and give back all that was read. -EAGAIN, or -ENOMEM.
 */
static int give_back(struct perf_read *r)
{
	struct chunk *c;
	struct held *h;
	size_t i, info;

	for (i = r->first; i < r->nheld; i++) {
		h = &r->held[i];
		if (!h->pl.borrowed)
			continue;
		info = h->info ? sizeof(*h->info) : 0;
		c = chunk_for(r, info + h->pl.size);
		if (!c)
			return ehd__err_set(r->err, -ENOMEM, h->pl.offset,
					    "out of memory");
		if (h->info) {
			memcpy(c->data + c->len, h->info, info);
			release(r, h->chunk);
			h->info = (const struct rec_info *)(void *)
				  (c->data + c->len);
		}
		memcpy(c->data + c->len + info, h->pl.data, h->pl.size);
		h->pl.data = c->data + c->len + info;
		h->pl.borrowed = false;
		h->chunk = c;
		c->len += info + h->pl.size;
		c->live++;
	}
	release_stream(r, ehd__perf_position(r->perf));
	return -EAGAIN;
}

/*
 * What the rows of a run share, looked up once a run (pass_run()), and
 * once a perf event for its samples (row_desc()): no event is made during
 * the run, so no identity and no names change.
 * @desc: the perf event looked up last (NULL: none yet)
 * @known: its identity, NULL when its samples make no rows
 * @eh_offset: where its EventHeader begins in the raw data
 */
struct row_ctx {
	const struct ehd__perf_event_desc *desc;
	const struct known *known;
	uint32_t eh_offset;
	uint32_t min_raw;	/* the raw data's least size for a row */
	bool utc;
	uint64_t clock_offset;
	uint64_t names_gen;
};

/* @c for the samples of perf event @d: false if they make no rows. */
static bool row_desc(const struct perf_read *r, struct row_ctx *c,
		     const struct ehd__perf_event_desc *d)
{
	const struct known *k = NULL;

	if (d && d->eh_offset >= 0 && d->index < r->ndescs)
		k = r->descs[d->index].known;
	c->desc = d;
	c->known = k && k->key ? k : NULL;
	c->eh_offset = c->known ? (uint32_t)d->eh_offset : 0;
	c->min_raw = c->known ? c->eh_offset + c->known->len : 0;
	return c->known;
}

/*
 * The row of sample @l in @row, if it is an EventHeader event of the
 * identity its tracepoint's last event had (keep_known()): true if made.
 * What the row says is what make_event() would say of the event.
 */
static inline bool make_row(const struct perf_read *r, struct row_ctx *c,
			    const struct ehd__perf_lean *l,
			    struct ehd__eh_row *row)
{
	const struct known *k;
	const uint8_t *eh;
	size_t size;

	if (l->desc != c->desc && !row_desc(r, c, l->desc))
		return false;
	k = c->known;
	/* (one branch: under TCG each costs as much as a few instructions) */
	if (!k | !(l->fields & PERF_SAMPLE_TIME) | (l->raw_size < c->min_raw))
		return false;
	eh = l->data + l->raw_off + c->eh_offset;
	size = l->raw_size - c->eh_offset;
	if (!ehd__same_bytes(eh, k->bytes, k->len))
		return false;
	row->key = k->key;
	row->context = fields_context(l->fields, c->utc);
	row->time = l->time + c->clock_offset;
	row->cpu = l->cpu;
	row->pid = l->pid;
	row->tid = l->tid;
	row->names_gen = c->names_gen;
	row->payload = eh + k->len;
	row->payload_size = size - k->len;
	return true;
}

/* The fields of plain sample @h (held without a rec_info), read in @l. */
static inline void plain_lean(const struct held *h, struct ehd__perf_lean *l)
{
	l->data = h->pl.data;
	l->desc = h->pl.desc;
	l->time = h->pl.time;
	ehd__perf_lean_fields(l);
}

/*
 * The lean view of held sample @h in @l, if it can be a row: a plain
 * sample, or one whose fields were kept without a call chain.
 */
static inline bool row_sample(const struct held *h,
			      struct ehd__perf_lean *l)
{
	const struct rec_info *i = h->info;

	if (!i) {
		plain_lean(h, l);
		return true;
	}
	/* (only samples are parsed when held: keep_parse()) */
	if (!i->parsed || i->chain_off || !i->raw_off)
		return false;
	lean_of(i, h->pl.data, l);
	return true;
}

/*
 * Hand the sink the rows of the held samples that come next, a batch at a
 * time, while they make rows and it takes them: those it takes are given
 * out. At the first it declines, that sample is left next, to be made an
 * event (r->declined). 0 when the next sample (if any) makes no row or
 * was declined, or ROWS_PASSED when the sink has taken its most (or
 * failed).
 */
static int pass_run(struct perf_read *r)
{
	struct ehd__eh_sink *sink = r->sink;
	struct ehd__eh_row *rows = r->rows;
	size_t i = r->next_held, end = r->drain_end, base, n, k, most, stop;
	struct row_ctx c = { .names_gen = names_gen(r) };
	struct ehd__perf_lean l;
	uint64_t bytes;
	struct held *h;
	int err;

	if (r->ses->has_clock_offset) {	/* (ehd__perf_time_to_utc()) */
		c.utc = true;
		c.clock_offset = r->ses->clock_offset;
	}
	for (;;) {
		most = EHD__ROWS_BATCH;
		if (sink->max - sink->taken < most)
			most = (size_t)(sink->max - sink->taken);
		stop = end - i > most ? i + most : end;
		for (base = i, n = 0; i < stop; n++, i++)
			if (!row_sample(&r->held[i], &l) ||
			    !make_row(r, &c, &l, &rows[n]))
				break;
		if (!n)
			return 0;
		k = 0;
		err = sink->take(sink->o, rows, n, &k);
		bytes = 0;
		for (h = &r->held[base]; h < &r->held[base + k]; h++) {
			bytes += h->pl.size;
			if (h->chunk) {
				release(r, h->chunk);
				h->chunk = NULL;
			}
		}
		r->held_bytes -= bytes;
		if (k)
			r->last_time = h[-1].pl.time;
		if (k < n) {
			i = base + k;
			r->declined = true;
		}
		r->next_held = i;
		sink->taken += k;
		if (err)
			sink->err = err;
		if (sink->taken >= sink->max || sink->err)
			return ROWS_PASSED;
		if (k < n || n < most)
			return 0;
	}
}

/*
 * The next held sample (1), or 0 when all those due are out, or
 * ROWS_PASSED when the sink has taken its most; names applied. A plain
 * sample is read here, from where it is held. The samples that make rows
 * go to the sink together (pass_run()), the others one by one as events.
 */
static int drain(struct perf_read *r)
{
	const struct rec_info *i;
	struct ehd__perf_lean l;
	struct held *h;
	int err;

	for (;;) {
		if (r->sink && !r->declined && (err = pass_run(r)))
			return err;
		r->declined = false;
		if (r->next_held == r->drain_end) {
			r->draining = false;
			keep_rest(r);
			return 0;
		}
		h = &r->held[r->next_held++];
		r->held_bytes -= h->pl.size;
		r->given = h->chunk;	/* released at the next call */
		h->chunk = NULL;
		i = h->info;
		if (!i || (i->fields & PERF_SAMPLE_TIME))
			r->last_time = h->pl.time;
		if (i && task_record(r, i->type)) {
			if (apply_task(r, i, h->pl.data, h->pl.size))
				return 1;
			release_given(r);
			continue;
		}
		if (!i) {
			plain_lean(h, &l);
			lean_sample(r, &l);
		} else if (i->parsed) {
			held_sample(r, i, h->pl.data);
		} else {
			err = ehd__perf_parse_sample(r->perf, h->pl.data,
						     h->pl.offset, &r->sample);
			if (err)
				return perf_fail(r, err);
		}
		if (sample_event(r, &r->sample, h->pl.offset))
			return 1;
		release_given(r);
	}
}

/* Past the most bytes held for a round: give them all out now. */
static void held_most(struct perf_read *r)
{
	if (r->held_bytes >= SORT_BYTES_MAX) {
		r->stats.early_flushes++;
		start_drain(r, true, 0);
	}
}

/* A FINISHED_ROUND record: give out what is complete. */
static void end_round(struct perf_read *r)
{
	if (r->nheld > r->first && r->have_limit)
		start_drain(r, false, r->round_limit);
	r->round_limit = r->max_time;
	r->have_limit = true;
}

/* The next event, in r->ev: 1, 0 at the end, or < 0. */
static int next_event(struct perf_read *r)
{
	const struct ehd__perf_record *rec;
	bool sort = r->flags & EHD_READER_SORT_TIME;
	int ret;

	release_given(r);
	if (r->cswitch_pending) {
		pending_cswitch(r);
		return 1;
	}
	/* Nothing held (no sorting, or between rounds): let it all go. */
	if (r->session && r->nheld == r->first &&
	    ehd__perf_position(r->perf) - r->released >= (1u << 20))
		release_stream(r, ehd__perf_position(r->perf));
	for (;;) {
		if (r->exec_pending) {	/* (its address space is new: empty) */
			r->exec_pending = false;
			r->sys = r->exec_sys;
			system_event(r, &r->exec_at);
			return 1;
		}
		if (r->inheriting && inherited_mapping(r))
			return 1;
		if (r->restating && restated_event(r))
			return 1;
		if (r->draining) {
			ret = drain(r);
			if (ret)
				return ret;
		}
		if (r->at_end)
			return 0;
		/* Plain samples, the most of a recording: the short way. */
		if (sort && r->native) {
			ret = hold_places(r);
			if (ret < 0)
				return ret;
			if (ret) {
				held_most(r);
				continue;
			}
		}
		ret = ehd__perf_next(r->perf, &rec);
		if (ret == -EAGAIN && r->session)	/* live: nothing now */
			return ehd__session_starved(r->session) ?
			       give_back(r) : ret;
		if (ret < 0)
			return perf_fail(r, ret);
		if (!ret) {
			r->at_end = true;
			if (r->nheld > r->first)
				start_drain(r, true, 0);
			continue;
		}
		r->stats.records++;
		if (rec->type == PERF_RECORD_LOST ||
		    rec->type == PERF_RECORD_LOST_SAMPLES) {
			count_lost(r, rec);
			continue;
		}
		if (sort && rec->type == EHD__PERF_RECORD_FINISHED_ROUND) {
			end_round(r);
			continue;
		}
		if (task_record(r, rec->type) && unfollowed_fork(r, rec))
			continue;
		if (task_record(r, rec->type)) {
			/* Names change in time order with the samples. */
			if (!sort || !rec->has_sample ||
			    !(rec->sample.fields & PERF_SAMPLE_TIME)) {
				struct rec_info h = {
					.type = rec->type, .misc = rec->misc,
					.offset = rec->offset,
				};

				if (rec->has_sample) {
					h.fields = rec->sample.fields;
					h.time = rec->sample.time;
					h.cpu = rec->sample.cpu;
				}
				if (apply_task(r, &h, rec->data, rec->size))
					return 1;
			} else if ((ret = hold(r, rec))) {
				return ret;
			}
			continue;
		}
		if (rec->type == PERF_RECORD_THROTTLE)
			r->stats.throttled++;
		if (rec->type != PERF_RECORD_SAMPLE || !rec->has_sample)
			continue;
		r->stats.tracepoint_samples += rec->sample.desc &&
			rec->sample.desc->attr.type == PERF_TYPE_TRACEPOINT;
		if (!sort) {
			if (sample_event(r, &rec->sample, rec->offset))
				return 1;
			continue;
		}
		ret = hold(r, rec);
		if (ret)
			return ret;
		held_most(r);
	}
}

static int perf_next(void *state, const struct ehd_event **ev)
{
	struct perf_read *r = state;
	int ret = next_event(r);

	if (ret > 0)
		*ev = &r->ev;
	return ret;
}

static int perf_pass(void *state, const struct ehd_event **ev,
		     struct ehd__eh_sink *sink)
{
	struct perf_read *r = state;
	int ret;

	/* (A system trace's events all take the general path.) */
	r->sink = r->procs ? NULL : sink;
	ret = next_event(r);
	r->sink = NULL;
	if (ret == ROWS_PASSED)
		return 1;	/* (*ev stays NULL) */
	if (ret > 0)
		*ev = &r->ev;
	return ret;
}

/* ---- information ---- */

/* ns between two cpu-clock samples, of the first such event (0: none). */
static uint64_t cpu_sample_period(const struct perf_read *r)
{
	const struct ehd__perf_event_desc *d;
	size_t i;

	for (i = 0; (d = ehd__perf_desc(r->perf, i)); i++) {
		if (d->attr.type != PERF_TYPE_SOFTWARE ||
		    d->attr.config != PERF_COUNT_SW_CPU_CLOCK ||
		    !d->attr.sample_period)
			continue;
		if (!d->attr.freq)
			return d->attr.sample_period;	/* cpu-clock counts ns */
		return 1000000000 / d->attr.sample_freq;
	}
	return 0;
}

static void perf_trace_info(void *state, struct ehd_trace_info *i)
{
	struct perf_read *r = state;
	const struct ehd__perf_session *s;

	if (!r->perf)
		return;
	s = ehd__perf_session(r->perf);
	i->hostname = s->hostname;
	i->osrelease = s->osrelease;
	i->arch = s->arch;
	i->cpu_desc = s->cpudesc;
	i->perf_version = s->version;
	i->cmdline = s->cmdline;
	i->nr_cpus_online = s->nr_cpus_online;
	i->nr_cpus_avail = s->nr_cpus_avail;
	i->clockid = s->clockid == EHD__PERF_CLOCKID_UNKNOWN ? -1 :
		     (int32_t)s->clockid;
	i->has_clock_offset = s->has_clock_offset;
	i->clock_offset = s->clock_offset;
	i->long_size = s->tracing_long_size;
	i->page_size = s->tracing_page_size;
	i->big_endian = s->big_endian;
	i->cpu_sample_period = cpu_sample_period(r);
}

static void perf_stats(const void *state, struct ehd_reader_stats *stats)
{
	const struct perf_read *r = state;

	*stats = r->stats;
	stats->stacks = r->stacks.stacks;
	stats->stacks_broken = r->stacks.broken;
	stats->stacks_idle = r->stacks.idle;
	stats->frames_cut = r->stacks.cut;
	if (r->procs)
		ehd__procs_files(r->procs, &stats->files_read,
				 &stats->files_symbols);
	if (r->perf)
		stats->format_errors =
			ehd__perf_session(r->perf)->format_errors;
}

static void perf_free(void *state)
{
	struct perf_read *r = state;

	ehd__perf_free(r->perf);
	ehd_enum_free(r->en);
	ehd__threads_free(&r->threads);
	ehd__procs_free(r->procs);
	free_chunks(r);
	free(r->held);
	free(r->merged);
	while (r->ndescs) {
		r->ndescs--;
		free(r->descs[r->ndescs].types);	/* free(NULL) is fine */
		free(r->descs[r->ndescs].known);
	}
	free(r->descs);
}

const struct ehd__input_ops ehd__perf_input = {
	.name = "perf", .what = "perf.data",
	.kinds = 1u << EHD_INPUT_PERF | 1u << EHD_INPUT_PERF_PIPE |
		 1u << EHD_INPUT_SESSION,
	.state_size = sizeof(struct perf_read),
	.probe = perf_probe, .open = perf_open, .next = perf_next,
	.pass = perf_pass,
	.trace_info = perf_trace_info, .stats = perf_stats, .free = perf_free,
	.restate = perf_restate,
};
