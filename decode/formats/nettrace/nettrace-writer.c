// SPDX-License-Identifier: MIT
/*
 * nettrace-writer.c - events written as a nettrace v6 stream
 *
 * The stream is written one window at a time. A window holds events until
 * their payloads reach WINDOW_BYTES, or they are WINDOW_ROWS; it is then
 * written as
 *	[Metadata] [Thread] [Stack] [LabelList] Event SequencePoint
 * where Metadata and Thread carry only the rows new since the last window,
 * and Stack and LabelList the stacks and activity ids of the window (the
 * sequence point ends their validity). Memory is one window (bounded
 * whatever the events' sizes, down to none) plus the event types and
 * threads seen.
 *
 * TraceEvent's reader rules (docs/nettrace-mapping.md, "What TraceEvent
 * needs") shape the rest:
 *  - the stream header and Trace block come first (the Trace block is
 *    written with the first window, whose first event gives the sync
 *    time), EndOfStream last; no Event block is empty;
 *  - every row a block refers to is in an earlier block of its window;
 *    metadata ids, thread indexes, stack and label list ids are never
 *    reused; metadata id 0 is not used;
 *  - one capture thread (index 0) numbers the events 1, 2, 3... so the
 *    sequence delta is 0 and sequence numbers never go back;
 *  - a window is sorted by time and an event older than the previous
 *    sequence point is moved up to it (counted), so every event can be
 *    marked IsSorted and the capture thread never changes unsorted;
 *  - an (provider, EventId) pair names one metadata row: the EventHeader
 *    id when it is free, else a synthetic id hashed from the event's
 *    identity and shape;
 *  - every row has an OpCode (TraceEvent otherwise strips "Start"/"Stop"
 *    from names); payloads over 65,535 bytes are not written (counted);
 *    stacks are cut at 8,190 frames (counted).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/perf_event.h>
#include <traceevent/event-parse.h>

#include <ehdecode/trace.h>

#include "model/enumerator-int.h"
#include "model/eh-row.h"
#include "model/event-int.h"
#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/io.h"
#include "core/ehd-table.h"
#include "formats/nettrace/nettrace-format.h"
#include "formats/nettrace/nettrace-map.h"
#include "formats/nettrace/nettrace-steps.h"
#include "formats/output.h"
#include "system/procs.h"
#include "model/tracefs-fields.h"

/*
 * Payload bytes that end a window: its memory (the rows held, the blocks
 * made) is about four times that, faulted in once; 256 KiB keeps it
 * small, and the blocks and sequence point a window adds are some 100
 * bytes.
 */
#define WINDOW_BYTES (256u << 10)
/*
 * Rows that end a window whatever their payloads: events of a few bytes
 * (or none) would otherwise grow its rows and its Event block without
 * bound. 8,192 is what a window of 32-byte payloads holds.
 */
#define WINDOW_ROWS 8192u
/* Rows or stacks that end a window (blocks hold at most 16 MiB). */
#define TABLE_BYTES_MAX (8u << 20)
/* Most frames of a stack TraceEvent reads (64-bit IPs). */
#define STACK_FRAMES_MAX 8190
/* Largest metadata row (its size is a uint16_t). */
#define ROW_MAX 0xffffu
/* Counts in the Trace block (put_counts()), and the digits of each. */
#define NCOUNTS 7
#define COUNT_DIGITS 20
/* Capture thread of every event. */
#define CAPTURE_THREAD 0
/* ---- state ---- */

enum meta_kind {
	MK_EVENTHEADER = 'E', MK_TRACEFS = 'T', MK_RAW = 'R', MK_UNIVERSAL = 'U'
};

struct meta {
	size_t key_at, key_len;		/* in w->keys */
	size_t prov_at, prov_len;	/* provider, in w->keys */
	uint32_t event_id;
	struct ehd__ntm map;
};

/* An event of the window. */
struct held {
	uint64_t ticks;
	uint64_t order;		/* arrival, for a stable sort */
	uint32_t meta;		/* metadata id */
	uint32_t thread;
	uint32_t stack;
	uint32_t labels;
	uint32_t cpu;
	uint32_t at, size;	/* payload, in w->payloads */
};

/* The type last seen on a tracepoint (by its name's address). */
struct eh_cache {
	const char *tp;
	uint32_t meta;		/* index + 1; 0 for none */
};

/* The type of an enumerator identity key (ehd__enum_key()). */
struct key_cache {
	uint64_t key;		/* 0 for none */
	uint32_t meta;		/* index */
};

#define KEY_CACHE_SIZE 64

#define EH_CACHE_SIZE 64

/* The thread index of (pid, tid, names_gen): see ehd__event_internal. */
struct thread_cache {
	uint64_t gen;		/* 0: empty */
	uint32_t pid, tid;
	uint32_t index;
};

#define THREAD_CACHE_SIZE 64

/* A classic tracepoint of the current source. */
struct tp_cache {
	const struct tep_event *event;
	uint32_t meta;
};

struct ehd__ntw {
	int fd;
	int err;
	struct ehd_buf out;

	/* the trace */
	bool info_set;
	struct ehd_trace_info info;
	struct ehd_buf info_strings;	/* copies of its strings */
	const char *source;
	uint64_t clock_offset;
	bool trace_written;
	uint64_t trace_end;	/* the stream offset where the Trace block ends */

	/* event types: metadata id = index + 1 */
	struct meta *metas;
	size_t nmetas, metas_cap, metas_written;
	struct ehd_buf keys;
	struct ehd_table by_key;		/* key hash -> meta index */
	struct ehd_table by_id;		/* provider hash ^ event id -> index */
	struct ehd_buf key;		/* the key being looked up */
	struct ehd_buf rows;		/* metadata rows not yet written */
	struct tp_cache *tps;
	size_t ntps;
	struct eh_cache eh_cache[EH_CACHE_SIZE];
	struct key_cache key_cache[KEY_CACHE_SIZE];

	/* threads: index = position + 1 (0 is the capture thread) */
	struct ehd_table threads;		/* pid << 32 | tid -> index */
	struct thread_cache tcache[THREAD_CACHE_SIZE];
	uint32_t nthreads;
	struct ehd_buf thread_rows;	/* rows not yet written */
	bool capture_written;

	/* the window */
	struct held *held;
	size_t nheld, held_cap;
	struct ehd_buf payloads;
	struct ehd_table stacks;		/* hash -> stack id */
	struct ehd_buf stack_data;	/* the stack block's stacks */
	uint32_t nstacks;
	struct ehd_table labels;		/* hash -> label list id */
	struct ehd_buf label_data;
	uint32_t nlabels;
	uint64_t min_ticks, max_ticks;
	uint64_t last_ticks;		/* of the event held last */
	uint64_t last_sp;		/* time of the last sequence point */
	bool have_sp;
	uint32_t seq;			/* of the capture thread */
	uint64_t order;

	/* system traces: Universal.* events */
	uint32_t usys[6];		/* Universal.System types: index + 1 */
	/* the Universal.Events type last used, and its index + 1 */
	char sample_name[16];
	uint32_t sample_meta;		/* ... its index + 1 */
	struct ehd_table symbols;	/* hash -> offset in symbol_keys */
	struct ehd_buf symbol_keys;	/* {mapping id, start} of each */
	uint64_t nsymbols;
	struct ehd_table build_ids;	/* hash -> offset in build_id_keys */
	struct ehd_buf build_id_keys;	/* {u64 metadata id, hex, NUL} */
	uint64_t nbuild_ids;
	struct ehd_table kernel_maps;	/* incarnation key -> announced */
	struct ehd_table births;	/* pid -> index in born */
	uint32_t *born;			/* ProcessCreates of a pid */
	size_t nborn, born_cap;
	struct ehd_table named;		/* stacks of the window named: hash */
	struct ehd_frame *frames;	/* frames_cap */
	size_t frames_cap;
	uint64_t *ips;			/* a stack without perf's markers */
	size_t ips_cap;
	size_t nips;			/* the event's frames (take_stack()) */
	uint64_t ips_hash;		/* of those its stack keeps (cut) */

	struct ehd_buf scratch;
	struct ehd_buf fixed;		/* a string made well-formed */
	unsigned int first_context;
	bool have_first;
	bool idle_named;	/* process 0's ExistingProcess written */
	struct ehd_writer_stats st;
	struct ehd_writer_stats done;	/* st when the last window went out */

	/* ehd_writer_set_limit(): the most bytes, 0 for no bound */
	uint64_t limit;
	bool full;			/* an event was refused: no more */
	uint64_t row_bound;		/* the window's row headers at most, */
	uint64_t wmin, wmax;		/* ... less their times; its times */

	/* the counts in the Trace block, known at the end */
	off_t start;			/* fd's offset at the start; -1: a pipe */
	bool closing;
	bool ending;			/* the end of stream is written */
	uint64_t counts_at[NCOUNTS];	/* stream offsets of their digits */
};

static int ntw_new(struct ehd__ntw **wp, int fd)
{
	struct ehd__ntw *w = calloc(1, sizeof(*w));
	struct stat st;
	int fl = fcntl(fd, F_GETFL);

	if (!w)
		return -ENOMEM;
	w->fd = fd;
	/* Rewritten in place at the end: a regular file, not appended to. */
	w->start = -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && fl >= 0 &&
	    !(fl & O_APPEND))
		w->start = lseek(fd, 0, SEEK_CUR);
	*wp = w;
	return 0;
}

static void ntw_free(struct ehd__ntw *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nmetas; i++)
		ehd__ntm_fini(&w->metas[i].map);
	free(w->metas);
	free(w->tps);
	free(w->held);
	ehd__table_free(&w->by_key);
	ehd__table_free(&w->by_id);
	ehd__table_free(&w->threads);
	ehd__table_free(&w->stacks);
	ehd__table_free(&w->labels);
	ehd__table_free(&w->symbols);
	ehd__table_free(&w->build_ids);
	ehd__table_free(&w->kernel_maps);
	ehd__table_free(&w->births);
	free(w->born);
	ehd__table_free(&w->named);
	ehd__buf_free(&w->symbol_keys);
	ehd__buf_free(&w->build_id_keys);
	free(w->frames);
	free(w->ips);
	ehd__buf_free(&w->out);
	ehd__buf_free(&w->info_strings);
	ehd__buf_free(&w->keys);
	ehd__buf_free(&w->key);
	ehd__buf_free(&w->rows);
	ehd__buf_free(&w->thread_rows);
	ehd__buf_free(&w->payloads);
	ehd__buf_free(&w->stack_data);
	ehd__buf_free(&w->label_data);
	ehd__buf_free(&w->scratch);
	ehd__buf_free(&w->fixed);
	free(w);
}

/* ---- output ---- */

/* Start a block in w->out; returns where its header is. */
static size_t block_begin(struct ehd__ntw *w)
{
	size_t at = w->out.len;

	ehd__nt_put_le(&w->out, 0, 4);
	return at;
}

static void block_end(struct ehd__ntw *w, size_t at, unsigned int kind)
{
	size_t size = w->out.len - at - 4;

	ehd__nt_patch_le(&w->out, at, (uint64_t)kind << 24 | size, 4);
}

/*
 * end_early() - a window found no room on the device (@err: -ENOSPC,
 * -EDQUOT, or -EFBIG past RLIMIT_FSIZE): cut the file back to the windows
 * written whole before it, which ntw_close() ends as any file; the first
 * window (make_window() made its Trace block), to that block: a trace of
 * no events. The events of the window are not in it (the counts are as
 * they were then); no more are taken. Return: false where that cannot be
 * (a pipe, the cut failed).
 */
static bool end_early(struct ehd__ntw *w, int err)
{
	uint64_t lost = w->st.lost;

	if (w->start < 0 || w->ending ||
	    ehd__cut_back(w->fd, (uint64_t)w->start + w->st.bytes))
		return false;
	w->out.len = w->st.bytes ? 0 : (size_t)w->trace_end;
	w->st = w->done;
	w->st.lost = lost;	/* (told since, of the whole recording) */
	w->st.no_room = -err;
	w->full = true;
	return true;
}

/*
 * Return: 0, -EFBIG when the file was ended early for want of room
 * (end_early()), or the error that lost the output.
 */
static int write_out(struct ehd__ntw *w)
{
	int err;

	if (w->out.err && !w->err)
		w->err = w->out.err;
	if (w->err)
		return w->err;
	err = ehd__write_full(w->fd, w->out.p, w->out.len, NULL);
	if (ehd__no_room(err) && end_early(w, err))
		return -EFBIG;
	if (err)
		return w->err = err;
	w->st.bytes += w->out.len;
	w->out.len = 0;
	w->done = w->st;
	return 0;
}

/* ---- the trace block ---- */

/* Keep the first source's info and name; strings are copied. */
static void copy_info(struct ehd__ntw *w, const struct ehd_trace_info *in,
		      const char *name)
{
	const char **s[] = { &w->info.hostname, &w->info.osrelease,
			     &w->info.arch, &w->info.cpu_desc,
			     &w->info.perf_version, &w->info.cmdline,
			     &w->source };
	size_t offs[7], i;

	w->info = *in;
	w->source = name;
	for (i = 0; i < 7; i++) {
		offs[i] = SIZE_MAX;
		if (*s[i]) {
			offs[i] = w->info_strings.len;
			ehd__buf_put(&w->info_strings, *s[i], strlen(*s[i]) + 1);
		}
	}
	for (i = 0; i < 7; i++)
		*s[i] = offs[i] == SIZE_MAX || w->info_strings.err ? NULL :
			w->info_strings.p + offs[i];
	w->clock_offset = in->has_clock_offset ? in->clock_offset : 0;
}

/* Year, month, day of week (0 = Sunday), day from days since 1970. */
static void civil(int64_t days, int *y, int *m, int *dow, int *d)
{
	int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;

	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
	*dow = (int)(((days % 7) + 11) % 7);	/* 1970-01-01 was a Thursday */
}

/* A UTF-8 string of the format, well-formed (counted when made so). */
static void put_string(struct ehd__ntw *w, struct ehd_buf *b, const char *s,
		       size_t len)
{
	w->st.utf8_replaced += ehd__nt_put_string(b, s, len);
}

static void put_kv(struct ehd__ntw *w, uint32_t *n, const char *k,
		   const char *v)
{
	if (!v || !*v)
		return;
	put_string(w, &w->out, k, strlen(k));
	put_string(w, &w->out, v, strlen(v));
	(*n)++;
}

/*
 * What was lost or changed on the way, as trace keys whose values are
 * known at the end only: each is a fixed 20 digits, written as zeros and
 * rewritten at the close (patch_counts()). Without a way back to the
 * Trace block (a pipe) they are left out, unless the trace block is
 * written at the close.
 */
static const char *const count_keys[NCOUNTS] = {
	"ehd:EventsLost",		/* ehd_writer_add_lost() */
	"ehd:EventsNotWritten",		/* skipped */
	"ehd:EventsUntyped",		/* untyped */
	"ehd:EventsTrailingData",	/* trailing */
	"ehd:StacksCut",		/* stacks_cut */
	"ehd:CharactersReplaced",	/* lossy */
	"ehd:Utf8Replaced",		/* utf8_replaced */
};

static void count_values(const struct ehd__ntw *w, uint64_t v[NCOUNTS])
{
	v[0] = w->st.lost;
	v[1] = w->st.skipped;
	v[2] = w->st.untyped;
	v[3] = w->st.trailing;
	v[4] = w->st.stacks_cut;
	v[5] = w->st.lossy;
	v[6] = w->st.utf8_replaced;
}

static void put_counts(struct ehd__ntw *w, uint32_t *n)
{
	size_t i;

	if (w->start < 0 && !w->closing)
		return;
	for (i = 0; i < NCOUNTS; i++) {
		put_string(w, &w->out, count_keys[i], strlen(count_keys[i]));
		ehd__nt_put_var(&w->out, COUNT_DIGITS);
		w->counts_at[i] = w->st.bytes + w->out.len;
		ehd__buf_put(&w->out, "00000000000000000000", COUNT_DIGITS);
		(*n)++;
	}
}

/*
 * The counts' final values into the Trace block: in w->out if it is still
 * there, else in the file. Return: 0 or a negative errno.
 */
static int patch_counts(struct ehd__ntw *w)
{
	uint64_t v[NCOUNTS];
	char t[COUNT_DIGITS + 1];
	size_t i;
	int err;

	if (!w->counts_at[0])
		return 0;
	count_values(w, v);
	for (i = 0; i < NCOUNTS; i++) {
		uint64_t at = w->counts_at[i];

		snprintf(t, sizeof(t), "%020llu", (unsigned long long)v[i]);
		if (at >= w->st.bytes) {
			memcpy(w->out.p + (at - w->st.bytes), t, COUNT_DIGITS);
			continue;
		}
		err = ehd__pwrite_full(w->fd, t, COUNT_DIGITS,
				       (uint64_t)w->start + at, NULL);
		if (err)
			return w->err = err;
	}
	return 0;
}

static void put_kv_u64(struct ehd__ntw *w, uint32_t *n, const char *k,
		       uint64_t v)
{
	char t[24];

	if (!v)
		return;
	snprintf(t, sizeof(t), "%llu", (unsigned long long)v);
	put_kv(w, n, k, t);
}

/*
 * The stream header and Trace block. With a clock offset, the sync point
 * is the whole UTC millisecond at or before the first event, so that
 * ticks + offset give back the exact UTC time.
 */
static void write_trace(struct ehd__ntw *w)
{
	const struct ehd_trace_info *in = &w->info;
	bool has_time = w->first_context & EHD_CTX_TIME;
	bool utc = has_time && (w->first_context & EHD_CTX_TIME_UTC);
	uint64_t sync_utc = 0, sync_ticks = 0, secs;
	uint32_t nkv = 0;
	size_t at, count_at;
	int y, mo, dow, d;
	char ctx[32] = "";

	ehd__buf_put(&w->out, EHD__NT_MAGIC, EHD__NT_MAGIC_LEN);
	ehd__nt_put_le(&w->out, 0, 4);
	ehd__nt_put_le(&w->out, EHD__NT_MAJOR, 4);
	ehd__nt_put_le(&w->out, EHD__NT_MINOR, 4);
	/*
	 * TraceEvent takes a sync time of tick 0 for none (and asserts): the
	 * sync point is the first event's tick, never 0 (see hold_event()).
	 */
	sync_ticks = w->min_ticks ? w->min_ticks : 1;	/* no event: 1 */
	if (utc) {
		sync_utc = (w->min_ticks + w->clock_offset) / 1000000 * 1000000;
		sync_ticks = sync_utc - w->clock_offset;
		if (!sync_ticks || sync_ticks > w->min_ticks) {
			/* (a clock too close to its start: off by < 1 ms) */
			sync_ticks = w->min_ticks;
			sync_utc = sync_ticks + w->clock_offset;
		}
	}
	secs = sync_utc / 1000000000;
	civil((int64_t)(secs / 86400), &y, &mo, &dow, &d);
	at = block_begin(w);
	ehd__nt_put_le(&w->out, (uint64_t)y, 2);
	ehd__nt_put_le(&w->out, (uint64_t)mo, 2);
	ehd__nt_put_le(&w->out, (uint64_t)dow, 2);
	ehd__nt_put_le(&w->out, (uint64_t)d, 2);
	ehd__nt_put_le(&w->out, secs % 86400 / 3600, 2);
	ehd__nt_put_le(&w->out, secs % 3600 / 60, 2);
	ehd__nt_put_le(&w->out, secs % 60, 2);
	ehd__nt_put_le(&w->out, sync_utc % 1000000000 / 1000000, 2);
	ehd__nt_put_le(&w->out, sync_ticks, 8);
	ehd__nt_put_le(&w->out, 1000000000, 8);		/* 1 tick = 1 ns */
	ehd__nt_put_le(&w->out, 8, 4);			/* stack IPs are 64-bit */
	count_at = w->out.len;
	ehd__nt_put_le(&w->out, 0, 4);
	put_kv_u64(w, &nkv, "HardwareThreadCount",
		   in->nr_cpus_online ? in->nr_cpus_online : in->nr_cpus_avail);
	put_kv_u64(w, &nkv, "SystemPageSize", in->page_size);
	/* Not a rate: the ns between two samples (what PerfView takes). */
	put_kv_u64(w, &nkv, "ExpectedCPUSamplingRate",
		   in->cpu_sample_period);
	put_kv(w, &nkv, "MachineName", in->hostname);
	put_kv(w, &nkv, "OSRelease", in->osrelease);
	put_kv(w, &nkv, "Architecture", in->arch);
	put_kv(w, &nkv, "CpuDescription", in->cpu_desc);
	put_kv(w, &nkv, "PerfVersion", in->perf_version);
	put_kv(w, &nkv, "CommandLine", in->cmdline);
	if (has_time && in->clockid >= 0) {
		char t[16];
		const char *name = ehd__nt_clock_name(in->clockid);

		snprintf(t, sizeof(t), "%d", in->clockid);
		put_kv(w, &nkv, "ClockId", name ? name : t);
	}
	put_kv_u64(w, &nkv, "PointerSizeOfSource", in->long_size);
	put_kv(w, &nkv, "Source", w->source);
	put_kv(w, &nkv, "Writer", "libehdecode " PACKAGE_VERSION);
	/* Ours: what the events carried, so our reader gives back as much. */
	put_kv(w, &nkv, "ehd:TimeBase",
	       !has_time ? "none" : utc ? "utc" : "clock");
	snprintf(ctx, sizeof(ctx), "%s%s%s",
		 has_time ? "time," : "",
		 (w->first_context & EHD_CTX_CPU) ? "cpu," : "",
		 (w->first_context & EHD_CTX_PID) ? "pid," : "");
	if (*ctx)
		ctx[strlen(ctx) - 1] = 0;
	else
		strcpy(ctx, "none");
	put_kv(w, &nkv, "ehd:Context", ctx);
	put_counts(w, &nkv);
	ehd__nt_patch_le(&w->out, count_at, nkv, 4);
	block_end(w, at, EHD__NT_TRACE);
	w->trace_written = true;
	w->trace_end = w->st.bytes + w->out.len;
}

/* ---- event types ---- */

static const char *key_str(const struct ehd__ntw *w, size_t at)
{
	return w->keys.p + at;
}

static uint64_t id_key(const char *prov, size_t len, uint32_t id)
{
	return (ehd__hash_bytes(prov, len, 0x51) & ~0xffffull) | id;
}

/* Is event id @id of provider @prov taken? */
static bool id_taken(const struct ehd__ntw *w, const char *prov, size_t len,
		     uint32_t id)
{
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&w->by_id, id_key(prov, len, id), &pos, &i))
		if (w->metas[i].prov_len == len &&
		    !memcmp(key_str(w, w->metas[i].prov_at), prov, len))
			return true;
	return false;
}

/*
 * The event id of a new type: its own when free, else one derived from
 * its key (stable for the same provider, name and shape).
 */
static uint32_t choose_id(const struct ehd__ntw *w, const char *prov,
			  size_t len, uint32_t own, uint64_t key_hash)
{
	uint32_t id = (uint32_t)(key_hash % 0x7fff) + 0x8000, tries;

	if (own && !id_taken(w, prov, len, own))
		return own;
	for (tries = 0; tries < 0x8000 && id_taken(w, prov, len, id); tries++)
		id = id == 0xffff ? 0x8000 : id + 1;
	return id;
}

static void opt_kv(struct ehd__ntw *w, const char *k, const char *v,
		   size_t vlen)
{
	ehd__buf_putc(&w->rows, EHD__NT_OPT_KEY_VALUE);
	put_string(w, &w->rows, k, strlen(k));
	put_string(w, &w->rows, v, vlen);
}

struct identity {
	const char *provider, *name, *tracepoint, *full_name;
	size_t provider_len, name_len, tracepoint_len;
	const struct eh_header *header;	/* EventHeader events */
	uint64_t keyword;
	uint32_t own_id;		/* others: the event id wanted */
	bool fixed_id;			/* ... and no other will do */
};

/* The largest event version TraceLog takes (but for 255). */
#define NT_VERSION_MAX 10

/* The metadata row of type @idx (id idx + 1), into w->rows. */
static int put_row(struct ehd__ntw *w, size_t idx, const struct identity *id)
{
	const struct meta *m = &w->metas[idx];
	struct ehd_buf *b = &w->rows;
	size_t at = b->len, opt_at;
	char t[64];

	ehd__nt_put_le(b, 0, 2);
	ehd__nt_put_var(b, idx + 1);
	put_string(w, b, id->provider, id->provider_len);
	ehd__nt_put_var(b, m->event_id);
	put_string(w, b, id->name, id->name_len);
	ehd__buf_put(b, m->map.fields.p, m->map.fields.len);
	opt_at = b->len;
	ehd__nt_put_le(b, 0, 2);
	ehd__buf_putc(b, EHD__NT_OPT_OPCODE);
	ehd__buf_putc(b, (char)(id->header ? id->header->opcode : 0));
	if (id->header) {
		const struct eh_header *h = id->header;

		if (id->keyword) {
			ehd__buf_putc(b, EHD__NT_OPT_KEYWORD);
			ehd__nt_put_le(b, id->keyword, 8);
		}
		if (h->level) {
			ehd__buf_putc(b, EHD__NT_OPT_LEVEL);
			ehd__buf_putc(b, (char)h->level);
		}
		/*
		 * TraceLog asserts that a version is at most 10 (or 255):
		 * a larger one stays in "ehd:header" only.
		 */
		if (h->version && h->version <= NT_VERSION_MAX) {
			ehd__buf_putc(b, EHD__NT_OPT_VERSION);
			ehd__buf_putc(b, (char)h->version);
		}
		snprintf(t, sizeof(t), "%x,%x,%x,%x,%x,%x", h->flags,
			 h->version, h->id, h->tag, h->opcode, h->level);
		opt_kv(w, "ehd:header", t, strlen(t));
		if (id->full_name && strlen(id->full_name) != id->name_len)
			opt_kv(w, "ehd:name", id->full_name,
			       strlen(id->full_name));
	}
	if (id->tracepoint_len)
		opt_kv(w, "ehd:tracepoint", id->tracepoint, id->tracepoint_len);
	opt_kv(w, "ehd:fields", m->map.hints.p ? m->map.hints.p : "",
	       m->map.hints.len);
	if (b->err)
		return -ENOMEM;
	if (b->len - at - 2 > ROW_MAX || b->len - opt_at - 2 > ROW_MAX) {
		b->len = at;
		return -E2BIG;
	}
	ehd__nt_patch_le(b, opt_at, b->len - opt_at - 2, 2);
	ehd__nt_patch_le(b, at, b->len - at - 2, 2);
	w->st.metadata++;
	return 0;
}

/* Find the type keyed by w->key; returns its index or -1. */
static long find_type(struct ehd__ntw *w, uint64_t h)
{
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&w->by_key, h, &pos, &i))
		if (w->metas[i].key_len == w->key.len &&
		    !memcmp(key_str(w, w->metas[i].key_at), w->key.p,
			    w->key.len))
			return i;
	return -1;
}

/*
 * Add the type keyed by w->key, its map in @map (taken over). Returns its
 * index, or < 0.
 */
static long add_type(struct ehd__ntw *w, uint64_t h, struct ehd__ntm *map,
		     const struct identity *id)
{
	struct meta *m;
	size_t idx = w->nmetas;
	int err;

	if (w->nmetas == w->metas_cap) {
		size_t cap = w->metas_cap ? 2 * w->metas_cap : 64;

		m = realloc(w->metas, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		w->metas = m;
		w->metas_cap = cap;
	}
	if (idx >= 0x7fffffff)
		return -E2BIG;
	m = &w->metas[idx];
	memset(m, 0, sizeof(*m));
	m->key_at = w->keys.len;
	m->key_len = w->key.len;
	ehd__buf_put(&w->keys, w->key.p, w->key.len);
	m->prov_at = w->keys.len;
	m->prov_len = id->provider_len;
	ehd__buf_put(&w->keys, id->provider, id->provider_len);
	ehd__buf_putc(&w->keys, 0);
	if (w->keys.err)
		return -ENOMEM;
	m->event_id = id->fixed_id ? id->own_id :
		      choose_id(w, id->provider, id->provider_len,
				id->header ? id->header->id : id->own_id,
				ehd__hash_bytes(map->fields.p, map->fields.len, h));
	m->map = *map;
	memset(map, 0, sizeof(*map));
	w->st.utf8_replaced += m->map.utf8_replaced;	/* its field names */
	w->nmetas++;
	err = put_row(w, idx, id);
	if (!err)
		err = ehd__table_add(&w->by_key, h, (uint32_t)idx);
	if (!err)
		err = ehd__table_add(&w->by_id, id_key(id->provider, id->provider_len,
						  m->event_id), (uint32_t)idx);
	if (err) {
		ehd__ntm_fini(&m->map);
		w->nmetas--;
		return err;
	}
	return (long)idx;
}

static void key_begin(struct ehd__ntw *w, char kind, const struct identity *id)
{
	w->key.len = 0;
	ehd__buf_putc(&w->key, kind);
	ehd__buf_put(&w->key, id->provider, id->provider_len);
	ehd__buf_putc(&w->key, 0);
	ehd__buf_put(&w->key, id->name, id->name_len);
	ehd__buf_putc(&w->key, 0);
	ehd__buf_put(&w->key, id->tracepoint, id->tracepoint_len);
	ehd__buf_putc(&w->key, 0);
}

static size_t cache_slot(const struct ehd_event *ev)
{
	return ((uintptr_t)ev->tracepoint >> 3) % EH_CACHE_SIZE;
}

/*
 * The type last seen on this event's tracepoint, if this event is of it:
 * its key ends with the tracepoint, the header, the name and the
 * declarations, compared here without building a key. Returns -1 if not.
 */
static long cached_type(const struct ehd__ntw *w, const struct ehd_event *ev,
			const uint8_t *decls, size_t len)
{
	const struct eh_cache *c = &w->eh_cache[cache_slot(ev)];
	const struct ehd_event_info *info = ev->eh;
	size_t name = (size_t)(decls - (const uint8_t *)info->name);
	size_t tail = sizeof(info->header) + name + len;
	size_t tp = ev->tracepoint_len;
	const struct meta *m;
	const char *k;

	if (c->tp != ev->tracepoint || !c->meta ||
	    (const char *)decls < info->name || info->name[name - 1])
		return -1;
	m = &w->metas[c->meta - 1];
	if (m->key_len < tail + tp + 2)
		return -1;
	k = key_str(w, m->key_at) + m->key_len - tail;
	if (memcmp(k, &info->header, sizeof(info->header)) ||
	    memcmp(k + sizeof(info->header), info->name, name + len) ||
	    k[-1] || k[-2 - (long)tp] ||
	    memcmp(k - 1 - tp, ev->tracepoint, tp))
		return -1;
	return (long)c->meta - 1;
}

/* The type of EventHeader event @ev, by its whole key: found, or made. */
static long keyed_type(struct ehd__ntw *w, const struct ehd_event *ev,
		       const uint8_t *decls, size_t len)
{
	const struct ehd_event_info *info = ev->eh;
	struct identity id = {
		ev->provider, ev->name, ev->tracepoint, info->name,
		ev->provider_len, ev->name_len, ev->tracepoint_len,
		&info->header, ev->keyword, 0, false
	};
	struct ehd__ntm map = { 0 };
	uint64_t h;
	long idx;
	int err;

	key_begin(w, MK_EVENTHEADER, &id);
	ehd__buf_put(&w->key, &info->header, sizeof(info->header));
	ehd__buf_put(&w->key, info->name, strlen(info->name) + 1);
	ehd__buf_put(&w->key, decls, len);
	if (w->key.err)
		return -ENOMEM;
	h = ehd__hash_bytes(w->key.p, w->key.len, 0);
	idx = find_type(w, h);
	if (idx < 0) {
		err = ehd__ntm_eventheader(&map, decls, len,
					   !(info->header.flags & EH_FLAG_LITTLE_ENDIAN) ==
					   !ehd__host_big());
		idx = err ? err : add_type(w, h, &map, &id);
		ehd__ntm_fini(&map);
	}
	return idx;
}

/*
 * The type of an EventHeader event (enumerator @en started on it): that
 * of the identity the enumerator knows, else of the tracepoint's last
 * event if it is the same, else by its whole key.
 */
static long eventheader_type(struct ehd__ntw *w, const struct ehd_event *ev,
			     const struct ehd_enum *en, size_t *payload)
{
	const uint8_t *decls;
	size_t len;
	uint64_t key = ehd__enum_key(en);
	struct key_cache *kc = &w->key_cache[key % KEY_CACHE_SIZE];
	long idx;

	ehd__enum_layout(en, &decls, &len, payload);
	if (key && kc->key == key)
		return kc->meta;	/* the same identity as before */
	idx = cached_type(w, ev, decls, len);
	if (idx < 0) {
		idx = keyed_type(w, ev, decls, len);
		if (idx >= 0)
			w->eh_cache[cache_slot(ev)] =
				(struct eh_cache){ ev->tracepoint,
						   (uint32_t)idx + 1 };
	}
	if (idx >= 0 && key)
		*kc = (struct key_cache){ key, (uint32_t)idx };
	return idx;
}

/* The type of a classic or raw event (cached per tracepoint format). */
static long classic_type(struct ehd__ntw *w, const struct ehd_event *ev)
{
	const struct ehd__tracefs_types *types =
		ehd__event_types(ev);
	struct identity id = {
		ev->provider, ev->name, ev->tracepoint, NULL,
		ev->provider_len, ev->name_len, ev->tracepoint_len, NULL, 0,
		0, false
	};
	struct ehd__ntm map = { 0 };
	struct ehd__tracefs_types *own = NULL;
	struct tp_cache *c;
	uint64_t h;
	long idx;
	size_t i;
	int err = 0;

	for (i = 0; i < w->ntps; i++)
		if (w->tps[i].event == ev->tep_event)
			return w->tps[i].meta;
	if (ev->kind == EHD_EVENT_TRACEFS && ev->tep_event) {
		if (!types || ehd__tracefs_types_event(types) != ev->tep_event)
			types = own = ehd__tracefs_types_new(ev->tep_event,
							     ev->long_size);
		if (!types)
			return -ENOMEM;
		err = ehd__ntm_tracefs(&map, ev->tep_event, types,
				       ev->big_endian != ehd__host_big());
		free(own);
		if (err == -ENOTSUP)
			err = 0, ev = NULL;	/* cannot be said: raw */
	} else {
		ev = NULL;
	}
	if (!ev)
		err = err ? err : ehd__ntm_raw(&map);
	if (err) {
		ehd__ntm_fini(&map);
		return err;
	}
	key_begin(w, ev ? MK_TRACEFS : MK_RAW, &id);
	ehd__buf_put(&w->key, map.fields.p, map.fields.len);
	ehd__buf_put(&w->key, map.hints.p, map.hints.len);
	if (w->key.err) {
		ehd__ntm_fini(&map);
		return -ENOMEM;
	}
	h = ehd__hash_bytes(w->key.p, w->key.len, 0);
	idx = find_type(w, h);
	if (idx < 0)
		idx = add_type(w, h, &map, &id);
	ehd__ntm_fini(&map);
	if (idx < 0 || !ev)
		return idx;
	c = realloc(w->tps, (w->ntps + 1) * sizeof(*c));
	if (c) {
		w->tps = c;
		c[w->ntps].event = ev->tep_event;
		c[w->ntps++].meta = (uint32_t)idx;
	}
	return idx;
}

/* ---- threads, stacks, activity ids ---- */

/*
 * The thread index of an event of @context, @pid and @tid whose names are
 * those of @gen (ehd__event_names_gen()), if known without its names.
 */
static bool thread_known(const struct ehd__ntw *w, unsigned int context,
			 uint32_t pid, uint32_t tid, uint64_t gen,
			 uint32_t *index)
{
	const struct thread_cache *c = &w->tcache[tid % THREAD_CACHE_SIZE];

	if (!(context & EHD_CTX_PID)) {
		*index = CAPTURE_THREAD;
		return true;
	}
	if (gen && c->gen == gen && c->tid == tid && c->pid == pid) {
		*index = c->index;
		return true;
	}
	return false;
}

static int thread_index(struct ehd__ntw *w, const struct ehd_event *ev,
			uint32_t *index)
{
	/*
	 * One index per thread and names: a thread that changes its name
	 * (exec, prctl) gets a new row, so every event keeps the names it
	 * had. The key is a hash of them all (64 bits: collisions are left
	 * to chance).
	 */
	uint64_t key = (uint64_t)ev->pid << 32 | ev->tid;
	uint64_t gen = ehd__event_names_gen(ev);
	struct thread_cache *c = &w->tcache[ev->tid % THREAD_CACHE_SIZE];
	size_t pos = 0, at;
	uint32_t v;
	int err;

	if (thread_known(w, ev->context, ev->pid, ev->tid, gen, index))
		return 0;
	if (ev->comm)
		key = ehd__hash_bytes(ev->comm, strlen(ev->comm) + 1, key);
	if (ev->process)
		key = ehd__hash_bytes(ev->process, strlen(ev->process) + 1,
				      key ^ 0x9e3779b97f4a7c15ull);
	if (ehd__table_next(&w->threads, key, &pos, &v)) {
		*index = v;
		goto cache;
	}
	v = ++w->nthreads;
	at = w->thread_rows.len;
	ehd__nt_put_le(&w->thread_rows, 0, 2);
	ehd__nt_put_var(&w->thread_rows, v);
	ehd__buf_putc(&w->thread_rows, EHD__NT_THREAD_PID);
	ehd__nt_put_var(&w->thread_rows, ev->pid);
	ehd__buf_putc(&w->thread_rows, EHD__NT_THREAD_TID);
	ehd__nt_put_var(&w->thread_rows, ev->tid);
	if (ev->comm) {
		ehd__buf_putc(&w->thread_rows, EHD__NT_THREAD_NAME);
		put_string(w, &w->thread_rows, ev->comm, strlen(ev->comm));
	}
	if (ev->process) {
		ehd__buf_putc(&w->thread_rows, EHD__NT_THREAD_KEY_VALUE);
		put_string(w, &w->thread_rows, "ProcessName", 11);
		put_string(w, &w->thread_rows, ev->process,
				   strlen(ev->process));
	}
	ehd__nt_patch_le(&w->thread_rows, at, w->thread_rows.len - at - 2, 2);
	*index = v;
	err = w->thread_rows.err ? -ENOMEM : ehd__table_add(&w->threads, key, v);
	if (err)
		return err;
cache:
	if (gen)
		*c = (struct thread_cache){ gen, ev->pid, ev->tid, *index };
	return 0;
}

/* The addresses of a call chain without perf's context markers. */
static size_t stack_ips(struct ehd__ntw *w, const struct ehd_event *ev)
{
	size_t i, n = 0;

	if (ev->callchain_count > w->ips_cap) {
		uint64_t *p = realloc(w->ips, ev->callchain_count * 8);

		if (!p)
			return SIZE_MAX;
		w->ips = p;
		w->ips_cap = ev->callchain_count;
	}
	for (i = 0; i < ev->callchain_count; i++)
		if (ev->callchain[i] < (uint64_t)PERF_CONTEXT_MAX)	/* a marker */
			w->ips[n++] = ev->callchain[i];
	return n;
}

/*
 * A sample of the idle task (process 0), written without its stack: its
 * frames are the kernel's idle loop and interrupts, and PerfView calls a
 * Linux stack of process 0 BROKEN whatever it holds (it knows only the
 * Windows kernel as its root). The sample still counts for the CPU time.
 */
static bool idle_sample(const struct ehd_event *ev)
{
	return ev->kind == EHD_EVENT_SAMPLE && (ev->context & EHD_CTX_PID) &&
	       !ev->pid;
}

/*
 * The frames of @ev's stack in w->ips (w->nips of them, uncut; none for an
 * event without a stack) and the hash of those its stack keeps in
 * w->ips_hash: taken once per event (ntw_event()), for its stack's id and
 * for the naming of its functions. 0 or -ENOMEM.
 */
static int take_stack(struct ehd__ntw *w, const struct ehd_event *ev)
{
	size_t n;

	w->nips = 0;
	if (!(ev->context & EHD_CTX_CALLCHAIN) || !ev->callchain_count ||
	    idle_sample(ev))
		return 0;
	n = stack_ips(w, ev);
	if (n == SIZE_MAX)
		return -ENOMEM;
	w->nips = n;
	w->ips_hash = ehd__hash_words(w->ips, n > STACK_FRAMES_MAX ?
					      STACK_FRAMES_MAX : n);
	return 0;
}

/* Whether the @n little-endian words at @s are @ips. */
static bool same_ips(const uint8_t *s, const uint64_t *ips, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return !memcmp(s, ips, n * 8);
#else
	size_t i;

	for (i = 0; i < n && ehd__load_uint(s + 8 * i, 8, 0) == ips[i]; i++)
		;
	return i == n;
#endif
}

/* The id of the event's stack (take_stack()), or 0 for none. */
static int stack_id(struct ehd__ntw *w, uint32_t *id)
{
	size_t n = w->nips, pos = 0, i;
	uint64_t h;
	uint32_t v;

	*id = 0;
	if (!n)
		return 0;
	if (n > STACK_FRAMES_MAX) {
		n = STACK_FRAMES_MAX;
		w->st.stacks_cut++;
	}
	h = w->ips_hash;
	/* Kept as {u32 id, u32 size, IPs}; the table points at the size. */
	while (ehd__table_next(&w->stacks, h, &pos, &v)) {
		const uint8_t *s = (const uint8_t *)w->stack_data.p + v;

		if (ehd__load_uint(s, 4, 0) == n * 8 &&
		    same_ips(s + 4, w->ips, n)) {
			*id = (uint32_t)ehd__load_uint(s - 4, 4, 0);
			return 0;
		}
	}
	v = ++w->nstacks;
	ehd__nt_put_le(&w->stack_data, v, 4);
	pos = w->stack_data.len;
	ehd__nt_put_le(&w->stack_data, n * 8, 4);
	for (i = 0; i < n; i++)
		ehd__nt_put_le(&w->stack_data, w->ips[i], 8);
	*id = v;
	return w->stack_data.err ? -ENOMEM :
				   ehd__table_add(&w->stacks, h, (uint32_t)pos);
}

static void put_guid(struct ehd_buf *b, const uint8_t *rfc)
{
	uint8_t g[16];

	ehd__nt_guid_swap(g, rfc);
	ehd__buf_put(b, g, 16);
}

static int label_id(struct ehd__ntw *w, const struct ehd_event *ev,
		    uint32_t *id)
{
	uint8_t key[33];
	size_t pos = 0;
	uint64_t h;
	uint32_t v;

	*id = 0;
	if (!ev->activity_id)
		return 0;
	memset(key, 0, sizeof(key));
	memcpy(key, ev->activity_id, 16);
	if (ev->related_id) {
		memcpy(key + 16, ev->related_id, 16);
		key[32] = 1;
	}
	h = ehd__hash_bytes(key, sizeof(key), 0);
	while (ehd__table_next(&w->labels, h, &pos, &v))
		if (!memcmp(w->label_data.p + v + 4, key, sizeof(key))) {
			*id = (uint32_t)ehd__load_uint(
				(const uint8_t *)w->label_data.p + v, 4, 0);
			return 0;
		}
	/* Kept as {u32 id, key}; written as label lists. */
	pos = w->label_data.len;
	ehd__nt_put_le(&w->label_data, ++w->nlabels, 4);
	ehd__buf_put(&w->label_data, key, sizeof(key));
	*id = w->nlabels;
	return w->label_data.err ? -ENOMEM :
				   ehd__table_add(&w->labels, h, (uint32_t)pos);
}

/* ---- windows ---- */

static int cmp_held(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void write_stacks(struct ehd__ntw *w)
{
	const uint8_t *p = (const uint8_t *)w->stack_data.p;
	size_t at, off = 0, n;

	at = block_begin(w);
	ehd__nt_put_le(&w->out, 1, 4);
	ehd__nt_put_le(&w->out, w->nstacks, 4);
	while (off < w->stack_data.len) {
		n = (size_t)ehd__load_uint(p + off + 4, 4, 0);
		ehd__buf_put(&w->out, p + off + 4, 4 + n);
		off += 8 + n;
	}
	block_end(w, at, EHD__NT_STACK);
}

static void write_labels(struct ehd__ntw *w)
{
	const uint8_t *p = (const uint8_t *)w->label_data.p;
	size_t at, off;

	at = block_begin(w);
	ehd__nt_put_le(&w->out, 1, 4);
	ehd__nt_put_le(&w->out, w->nlabels, 4);
	for (off = 0; off < w->label_data.len; off += 37) {
		bool rel = p[off + 36];

		ehd__buf_putc(&w->out, (char)(EHD__NT_LABEL_ACTIVITY |
			      (rel ? 0 : EHD__NT_LABEL_LAST)));
		put_guid(&w->out, p + off + 4);
		if (rel) {
			ehd__buf_putc(&w->out, (char)(EHD__NT_LABEL_RELATED |
						      EHD__NT_LABEL_LAST));
			put_guid(&w->out, p + off + 20);
		}
	}
	block_end(w, at, EHD__NT_LABEL_LIST);
}

/*
 * A row header's most bytes: flags, 8 varuint32 (metadata id, sequence
 * step, capture thread, processor, thread, stack, labels, payload size)
 * and the varuint64 time difference.
 */
#define ROW_HEADER_MAX (1 + 8 * 5 + 10)

/* The event block: compressed rows of the sorted window. */
static void write_events(struct ehd__ntw *w)
{
	const struct held *e, *end = w->held + w->nheld;
	uint32_t meta = 0, cpu = 0, thread = 0, stack = 0, labels = 0;
	uint32_t size = 0, seq = w->seq;
	uint64_t ticks = 0, header = 0, payload = 0;
	size_t at;
	uint8_t *d, *h;

	at = block_begin(w);
	ehd__nt_put_le(&w->out, EHD__NT_EB_HEADER_SIZE, 2);
	ehd__nt_put_le(&w->out, EHD__NT_EB_COMPRESSED, 2);
	ehd__nt_put_le(&w->out, w->held[0].ticks, 8);
	ehd__nt_put_le(&w->out, end[-1].ticks, 8);
	/*
	 * Room for the rows at their largest (their payloads are distinct
	 * runs of w->payloads): then written in place.
	 */
	if (ehd__buf_reserve(&w->out, w->nheld * (size_t)ROW_HEADER_MAX +
					  w->payloads.len))
		return;		/* (w->out.err: the write fails) */
	d = (uint8_t *)w->out.p + w->out.len;
	for (e = w->held; e < end; e++) {
		uint8_t flags = EHD__NT_ROW_SORTED;

		h = d++;
		if (e->meta != meta) {
			flags |= EHD__NT_ROW_METADATA;
			d += ehd__nt_put_varuint(d, e->meta);
		}
		/*
		 * The sequence number's step from the row before, less 1: the
		 * block's first row steps from 0, the others by 1.
		 */
		if (e->cpu != cpu || e == w->held) {
			flags |= EHD__NT_ROW_CAPTURE;
			d += ehd__nt_put_varuint(d, e == w->held ? seq : 0);
			d += ehd__nt_put_varuint(d, CAPTURE_THREAD);
			d += ehd__nt_put_varuint(d, e->cpu);
		}
		if (e->thread != thread) {
			flags |= EHD__NT_ROW_THREAD;
			d += ehd__nt_put_varuint(d, e->thread);
		}
		if (e->stack != stack) {
			flags |= EHD__NT_ROW_STACK;
			d += ehd__nt_put_varuint(d, e->stack);
		}
		d += ehd__nt_put_varuint(d, e->ticks - ticks);
		if (e->labels != labels) {
			flags |= EHD__NT_ROW_LABELS;
			d += ehd__nt_put_varuint(d, e->labels);
		}
		if (e->size != size || e == w->held) {
			flags |= EHD__NT_ROW_PAYLOAD;
			d += ehd__nt_put_varuint(d, e->size);
		}
		*h = flags;
		header += (uint64_t)(d - h);
		if (e->size)	/* (no payload at all: payloads.p is NULL) */
			ehd__copy_small(d, (const uint8_t *)w->payloads.p +
					   e->at, e->size);
		d += e->size;
		payload += e->size;
		meta = e->meta;
		cpu = e->cpu;
		thread = e->thread;
		stack = e->stack;
		labels = e->labels;
		size = e->size;
		ticks = e->ticks;
		seq++;
	}
	w->out.len = (size_t)(d - (uint8_t *)w->out.p);
	w->out.p[w->out.len] = 0;	/* the buffer's promise (ehd-buf.h) */
	w->st.header_bytes += header;
	w->st.payload_bytes += payload;
	w->seq = seq;
	block_end(w, at, EHD__NT_EVENT);
}

static void write_sequence_point(struct ehd__ntw *w, uint64_t ticks)
{
	size_t at = block_begin(w);

	ehd__nt_put_le(&w->out, ticks, 8);
	ehd__nt_put_le(&w->out, 0, 4);
	ehd__nt_put_le(&w->out, 1, 4);
	ehd__nt_put_var(&w->out, CAPTURE_THREAD);
	ehd__nt_put_var(&w->out, w->seq);
	block_end(w, at, EHD__NT_SEQUENCE_POINT);
	w->last_sp = ticks;
	w->have_sp = true;
}

static bool sorted(const struct held *h, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (h[i].ticks < h[i - 1].ticks)
			return false;
	return true;
}

/* Make the window's blocks in w->out (and, the first time, the trace block). */
static void make_window(struct ehd__ntw *w)
{
	size_t i, at;

	if (!w->trace_written)
		write_trace(w);
	if (w->rows.len) {
		at = block_begin(w);
		ehd__nt_put_le(&w->out, 0, 2);		/* header size */
		ehd__buf_put(&w->out, w->rows.p, w->rows.len);
		block_end(w, at, EHD__NT_METADATA);
		w->rows.len = 0;
		w->metas_written = w->nmetas;
	}
	if (!w->capture_written || w->thread_rows.len) {
		at = block_begin(w);
		if (!w->capture_written) {
			size_t row = w->out.len;

			ehd__nt_put_le(&w->out, 0, 2);
			ehd__nt_put_var(&w->out, CAPTURE_THREAD);
			ehd__buf_putc(&w->out, EHD__NT_THREAD_NAME);
			put_string(w, &w->out, "capture", 7);
			ehd__nt_patch_le(&w->out, row, w->out.len - row - 2, 2);
			w->capture_written = true;
		}
		ehd__buf_put(&w->out, w->thread_rows.p, w->thread_rows.len);
		block_end(w, at, EHD__NT_THREAD);
		w->thread_rows.len = 0;
	}
	if (w->nheld) {
		if (!sorted(w->held, w->nheld))
			qsort(w->held, w->nheld, sizeof(*w->held), cmp_held);
		for (i = 0; i < w->nheld && w->have_sp &&
			    w->held[i].ticks < w->last_sp; i++) {
			w->held[i].ticks = w->last_sp;
			w->st.reordered++;
		}
		if (w->nstacks)
			write_stacks(w);
		if (w->nlabels)
			write_labels(w);
		write_events(w);
		write_sequence_point(w, w->held[w->nheld - 1].ticks);
	}
	w->nheld = 0;
	w->row_bound = 0;
	w->payloads.len = 0;
	w->stack_data.len = 0;
	w->label_data.len = 0;
	w->nstacks = w->nlabels = 0;
	ehd__table_clear(&w->stacks);
	ehd__table_clear(&w->labels);
	ehd__table_clear(&w->named);
}

/* Write the window (and, the first time, the trace block). */
static int flush_window(struct ehd__ntw *w)
{
	make_window(w);
	return write_out(w);
}

/* ---- the interface ---- */

/* A new source; @info (may be NULL) is taken from the first one. */
static int ntw_begin(struct ehd__ntw *w, const char *name,
		     const struct ehd_trace_info *info)
{
	struct ehd_trace_info none;

	w->ntps = 0;	/* tracepoint formats belong to their source */
	if (w->info_set)
		return 0;
	if (!info) {
		memset(&none, 0, sizeof(none));
		none.clockid = -1;
		info = &none;
	}
	copy_info(w, info, name);
	w->info_set = true;
	return w->info_strings.err;
}

static unsigned int varuint_len(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * Rows a window has room for: the most it holds, and a batch of rows
 * (nettrace_rows()) taken while it has one less.
 */
#define HELD_RESERVE (WINDOW_ROWS + EHD__ROWS_BATCH)

/* Room for @n more rows in the window: 0 or -ENOMEM. */
static int held_room(struct ehd__ntw *w, size_t n)
{
	size_t cap = w->held_cap ? w->held_cap : HELD_RESERVE;
	struct held *h;

	if (w->held_cap - w->nheld >= n)
		return 0;
	while (cap - w->nheld < n)
		cap *= 2;
	h = realloc(w->held, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	w->held = h;
	w->held_cap = cap;
	return 0;
}

/*
 * The window's next row (held_room() made room), for an event of
 * @context at @time on @cpu, of type @meta, its payload from @payload_at
 * on: all but its thread, stack and labels, which the caller sets before
 * held_end().
 */
static inline struct held *held_begin(struct ehd__ntw *w,
				      unsigned int context, uint64_t time,
				      uint32_t cpu, uint32_t meta,
				      size_t payload_at)
{
	struct held *h = &w->held[w->nheld];

	/*
	 * Ticks are strictly positive: TraceEvent reads 0 as no time. An
	 * event without a time comes 1 ns after the one before it (from 1 in
	 * a source without a clock: the events' order).
	 */
	if (context & EHD_CTX_TIME)
		h->ticks = (context & EHD_CTX_TIME_UTC) ?
			   time - w->clock_offset : time;
	else
		h->ticks = w->last_ticks + 1;
	/* Untimed in a timed trace: its time is made up (said). */
	if (!(context & EHD_CTX_TIME) && (w->first_context & EHD_CTX_TIME))
		w->st.untimed++;
	if (!h->ticks)
		h->ticks = 1;
	w->last_ticks = h->ticks;
	h->order = w->order++;
	h->meta = meta + 1;
	h->cpu = (context & EHD_CTX_CPU) ? cpu : 0;
	h->at = (uint32_t)payload_at;
	h->size = (uint32_t)(w->payloads.len - payload_at);
	return h;
}

/* Row @h of an event of @context, complete: in the window. */
static inline void held_end(struct ehd__ntw *w, const struct held *h,
			    unsigned int context)
{
	if (!w->have_first) {
		w->have_first = true;
		w->first_context = context;
		w->min_ticks = h->ticks;
	}
	if (!w->trace_written && h->ticks < w->min_ticks)
		w->min_ticks = h->ticks;
	if (w->limit) {
		/* Its row header at most, whatever comes before it. */
		w->row_bound += 3 + varuint_len(h->meta) + varuint_len(h->cpu) +
				varuint_len(h->thread) + varuint_len(h->stack) +
				varuint_len(h->labels) + varuint_len(h->size);
		if (!w->nheld || h->ticks < w->wmin)
			w->wmin = h->ticks;
		if (!w->nheld || h->ticks > w->wmax)
			w->wmax = h->ticks;
	}
	w->nheld++;
	w->st.events++;
}

/*
 * Hold the row of event @ev, of type @meta, its payload from @payload_at;
 * @bare: a made-up event of @ev's context, without its stack and
 * activity ids.
 */
static int hold_event(struct ehd__ntw *w, const struct ehd_event *ev,
		      uint32_t meta, size_t payload_at, bool bare)
{
	struct held *h;
	int err = held_room(w, 1);

	if (err)
		return err;
	h = held_begin(w, ev->context, ev->time, ev->cpu, meta, payload_at);
	err = thread_index(w, ev, &h->thread);
	h->stack = h->labels = 0;
	if (!err && !bare)
		err = stack_id(w, &h->stack);
	if (!err && !bare)
		err = label_id(w, ev, &h->labels);
	if (err)
		return err;
	held_end(w, h, ev->context);
	return 0;
}

/* ---- system traces: PerfView's universal providers ---- */

/*
 * Samples and system events (docs/system-traces.md) are written as the
 * events PerfView's own parsers read: payloads of varuints and strings of
 * a u16 count of UTF-8 bytes (declared as Arrays of UTF8CodeUnit, which
 * is the same thing). Universal.System events are known by their ids.
 * ProcessMapping has no ProcessId field: the event's process says it
 * (PerfView's parser and one-collect, against UniversalProviders.md).
 */
enum usys {
	U_EXISTING_PROCESS, U_PROCESS_CREATE, U_PROCESS_EXIT, U_MAPPING,
	U_SYMBOL, U_MAPPING_METADATA, U_COUNT
};

static const struct {
	const char *name, *spec;	/* see ehd__ntm_universal() */
	const char *fields[6];
} usys_types[U_COUNT] = {
	[U_EXISTING_PROCESS] = { "ExistingProcess", "uss",
		{ "NamespaceId", "Name", "NamespaceName" } },
	[U_PROCESS_CREATE] = { "ProcessCreate", "uss",
		{ "NamespaceId", "Name", "NamespaceName" } },
	[U_PROCESS_EXIT] = { "ProcessExit", "", { NULL } },
	[U_MAPPING] = { "ProcessMapping", "uxxxsu",
		{ "Id", "StartAddress", "EndAddress", "FileOffset", "FileName",
		  "MetadataId" } },
	[U_SYMBOL] = { "ProcessSymbol", "uuxxs",
		{ "Id", "MappingId", "StartAddress", "EndAddress", "Name" } },
	[U_MAPPING_METADATA] = { "ProcessMappingMetadata", "uss",
		{ "Id", "SymbolMetadata", "VersionMetadata" } },
};

#define UNIVERSAL_SYSTEM "Universal.System"
/* A process's view of the kernel: mapping id KERNEL_MAPPING + pid. */
#define KERNEL_MAPPING (1ull << 62)
#define KERNEL_START (1ull << 63)

static long universal_type(struct ehd__ntw *w, const struct identity *id,
			   const char *spec, const char *const *fields)
{
	struct ehd__ntm map = { 0 };
	uint64_t h;
	long idx;
	int err;

	key_begin(w, MK_UNIVERSAL, id);
	ehd__buf_put(&w->key, spec, strlen(spec));
	if (w->key.err)
		return -ENOMEM;
	h = ehd__hash_bytes(w->key.p, w->key.len, 0);
	idx = find_type(w, h);
	if (idx >= 0)
		return idx;
	err = ehd__ntm_universal(&map, spec, fields);
	idx = err ? err : add_type(w, h, &map, id);
	ehd__ntm_fini(&map);
	return idx;
}

static long usys_type(struct ehd__ntw *w, unsigned int which)
{
	struct identity id = {
		.provider = UNIVERSAL_SYSTEM,
		.provider_len = strlen(UNIVERSAL_SYSTEM),
		.name = usys_types[which].name,
		.name_len = strlen(usys_types[which].name),
		.tracepoint = "",
		.own_id = which,
		.fixed_id = true,
	};
	long idx;

	if (w->usys[which])
		return (long)w->usys[which] - 1;
	idx = universal_type(w, &id, usys_types[which].spec,
			     usys_types[which].fields);
	if (idx >= 0)
		w->usys[which] = (uint32_t)idx + 1;
	return idx;
}

/* The type of a Universal.Events sample: "cpu" has id 1, "cswitch" 2. */
static long sample_type(struct ehd__ntw *w, const struct ehd_event *ev)
{
	static const char *const value[] = { "Value" };
	struct identity id = {
		.provider = ev->provider,
		.provider_len = ev->provider_len,
		.name = ev->name,
		.name_len = ev->name_len,
		.tracepoint = "",
	};
	long idx;

	if (w->sample_meta && ev->name_len < sizeof(w->sample_name) &&
	    !memcmp(w->sample_name, ev->name, ev->name_len) &&
	    !w->sample_name[ev->name_len])
		return (long)w->sample_meta - 1;
	if (ev->name_len == 3 && !memcmp(ev->name, "cpu", 3))
		id.own_id = 1;
	else if (ev->name_len == 7 && !memcmp(ev->name, "cswitch", 7))
		id.own_id = 2;
	idx = universal_type(w, &id, "u", value);
	if (idx >= 0 && ev->name_len < sizeof(w->sample_name)) {
		memcpy(w->sample_name, ev->name, ev->name_len);
		w->sample_name[ev->name_len] = 0;
		w->sample_meta = (uint32_t)idx + 1;
	}
	return idx;
}

/*
 * A string as PerfView's parsers read it: u16 count, UTF-8 bytes (made
 * well-formed, counted), into the payloads. Cut at a character's start
 * (counted as lossy) where it would take the payload begun at @at, with
 * the @after bytes at most that follow the string, past what nettrace
 * holds.
 */
static void put_short_string(struct ehd__ntw *w, const char *s, size_t n,
			     size_t at, size_t after)
{
	struct ehd_buf *b = &w->payloads;
	size_t used = b->len - at + 2 + after;
	size_t room = used < EHD__NT_PAYLOAD_MAX ? EHD__NT_PAYLOAD_MAX - used : 0;

	if (ehd__utf8_well_formed(s, n) < n) {
		w->fixed.len = 0;
		w->st.utf8_replaced += ehd__utf8_put(&w->fixed, s, n);
		s = ehd__buf_cstr(&w->fixed);
		n = w->fixed.len;
	}
	if (n > room) {
		n = room;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;	/* not in the middle of a character */
		w->st.lossy++;
	}
	ehd__nt_put_le(b, n, 2);
	ehd__buf_put(b, s, n);
}

static void put_cstring(struct ehd__ntw *w, const char *s, size_t at,
			size_t after)
{
	put_short_string(w, s ? s : "", s ? strlen(s) : 0, at, after);
}

/* Hold a made-up event of type @idx, payload from @at, @ev's context. */
static int hold_made(struct ehd__ntw *w, const struct ehd_event *ev,
		     long idx, size_t at)
{
	if (w->payloads.err)
		return -ENOMEM;
	return hold_event(w, ev, (uint32_t)idx, at, true);
}

static bool is_hex(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n && !s[n] && n <= 2 * 64;
}

/* The ProcessMappingMetadata id of a build id, written the first time. */
/*
 * The ProcessMappingMetadata of @sy's file, written the first time: its
 * build id and, where the reader read them, the p_vaddr and p_offset of
 * the segment the mapping begins in (PerfView's keys; it finds a frame's
 * function at address - mapping start + p_vaddr rounded down to the
 * page). One per distinct text: files and segments share them.
 */
static int mapping_metadata(struct ehd__ntw *w, const struct ehd_event *ev,
			    const struct ehd_system *sy, uint64_t *meta_id)
{
	size_t len, pos = 0, at;
	uint64_t h;
	uint32_t v;
	long idx;
	int err;

	w->scratch.len = 0;
	ehd__buf_printf(&w->scratch, "{\"type\":\"ELF\",\"build_id\":\"%s\"",
			sy->build_id);
	if (sy->has_segment)
		ehd__buf_printf(&w->scratch,
				",\"p_vaddr\":\"0x%llx\",\"p_offset\":\"0x%llx\"",
				(unsigned long long)sy->segment_vaddr,
				(unsigned long long)sy->segment_offset);
	ehd__buf_put(&w->scratch, "}", 2);
	if (w->scratch.err)
		return -ENOMEM;
	len = w->scratch.len - 1;
	h = ehd__hash_bytes(w->scratch.p, len, 0x6d);
	while (ehd__table_next(&w->build_ids, h, &pos, &v))
		if (!strcmp(w->build_id_keys.p + v + 8, w->scratch.p)) {
			*meta_id = ehd__load_uint((const uint8_t *)
						  w->build_id_keys.p + v, 8, 0);
			return 0;
		}
	idx = usys_type(w, U_MAPPING_METADATA);
	if (idx < 0)
		return (int)idx;
	*meta_id = ++w->nbuild_ids;
	v = (uint32_t)w->build_id_keys.len;
	ehd__nt_put_le(&w->build_id_keys, *meta_id, 8);
	ehd__buf_put(&w->build_id_keys, w->scratch.p, len + 1);
	at = w->payloads.len;
	ehd__nt_put_var(&w->payloads, *meta_id);
	put_short_string(w, w->scratch.p, len, at, 2);
	put_cstring(w, "", at, 0);
	if (w->build_id_keys.err)
		return -ENOMEM;
	err = hold_made(w, ev, idx, at);
	return err ? err : ehd__table_add(&w->build_ids, h, v);
}

/*
 * The ProcessCreates of process @pid so far (@add: one more now); -1
 * without memory. A pid's kernel mapping is announced again in each
 * incarnation: PerfView starts a created process with no modules.
 */
static long births(struct ehd__ntw *w, uint32_t pid, bool add)
{
	size_t pos = 0;
	uint32_t i;

	if (!ehd__table_next(&w->births, pid, &pos, &i)) {
		if (!add)
			return 0;
		if (w->nborn >= UINT32_MAX ||
		    ehd__grow(&w->born, &w->born_cap, w->nborn + 1,
			      sizeof(*w->born)) ||
		    ehd__table_add(&w->births, pid, (uint32_t)w->nborn))
			return -1;
		i = (uint32_t)w->nborn++;
		w->born[i] = 0;
	}
	if (add)
		w->born[i]++;
	return w->born[i];
}

/* The mapping id of the kernel in @ev's process, announced the first time. */
static int kernel_mapping(struct ehd__ntw *w, const struct ehd_event *ev,
			  uint64_t *id)
{
	size_t pos = 0, at;
	uint32_t v;
	long idx;
	int err;

	long born = births(w, ev->pid, false);
	uint64_t key = (uint64_t)born << 32 | ev->pid;

	*id = KERNEL_MAPPING + ev->pid;
	if (ehd__table_next(&w->kernel_maps, key, &pos, &v))
		return 0;
	idx = usys_type(w, U_MAPPING);
	if (idx < 0)
		return (int)idx;
	at = w->payloads.len;
	ehd__nt_put_var(&w->payloads, *id);
	ehd__nt_put_var(&w->payloads, KERNEL_START);
	ehd__nt_put_var(&w->payloads, UINT64_MAX);
	ehd__nt_put_var(&w->payloads, 0);
	put_cstring(w, EHD__KERNEL_MODULE, at, 1);
	ehd__nt_put_var(&w->payloads, 0);
	err = hold_made(w, ev, idx, at);
	return err ? err : ehd__table_add(&w->kernel_maps, key, 1);
}

/* A ProcessSymbol event for each function of @ev's stack not yet named. */
static int symbols(struct ehd__ntw *w, const struct ehd_event *ev)
{
	int n, i, err = 0;

	/* Every frame is named (the stack itself may be cut, not this). */
	if (ev->callchain_count > w->frames_cap) {
		struct ehd_frame *p = realloc(w->frames, ev->callchain_count *
							 sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->frames = p;
		w->frames_cap = ev->callchain_count;
	}
	n = ehd_event_frames(ev, w->frames, w->frames_cap);
	for (i = 0; i < n && !err; i++) {
		const struct ehd_frame *f = &w->frames[i];
		uint64_t key[2] = { f->mapping_id, f->symbol_start }, h;
		size_t pos = 0, at;
		bool seen = false;
		uint32_t v;
		long idx;

		if (!f->symbol)
			continue;
		if (f->kind == EHD_FRAME_KERNEL) {
			err = kernel_mapping(w, ev, &key[0]);
			if (err)
				return err;
		}
		if (!key[0])
			continue;
		h = ehd__hash_bytes(key, sizeof(key), 0x73);
		while (!seen && ehd__table_next(&w->symbols, h, &pos, &v))
			seen = !memcmp(w->symbol_keys.p + v, key, sizeof(key));
		if (seen)
			continue;
		idx = usys_type(w, U_SYMBOL);
		if (idx < 0)
			return (int)idx;
		v = (uint32_t)w->symbol_keys.len;
		ehd__buf_put(&w->symbol_keys, key, sizeof(key));
		at = w->payloads.len;
		ehd__nt_put_var(&w->payloads, ++w->nsymbols);
		ehd__nt_put_var(&w->payloads, key[0]);
		ehd__nt_put_var(&w->payloads, f->symbol_start);
		ehd__nt_put_var(&w->payloads, f->symbol_end);
		put_cstring(w, f->symbol, at, 0);
		err = w->symbol_keys.err ? -ENOMEM : hold_made(w, ev, idx, at);
		if (!err)
			err = ehd__table_add(&w->symbols, h, v);
	}
	return n < 0 ? n : err;
}

/* A sample (Universal.Events) or system event (Universal.System). */
static int universal_event(struct ehd__ntw *w, const struct ehd_event *ev)
{
	const struct ehd_system *sy = ev->system;
	uint64_t meta_id = 0;
	size_t at;
	long idx;
	int err = 0;

	if (idle_sample(ev) && !w->idle_named) {
		/*
		 * Process 0 is in no COMM record: named as perf names it, or
		 * PerfView would show it nameless.
		 */
		idx = usys_type(w, EHD_SYSTEM_EXISTING_PROCESS);
		if (idx < 0)
			return (int)idx;
		at = w->payloads.len;
		ehd__nt_put_var(&w->payloads, 0);
		put_cstring(w, "swapper", at, 2);
		put_cstring(w, "", at, 0);
		err = hold_made(w, ev, (uint32_t)idx, at);
		if (err)
			return err;
		w->idle_named = true;
	}
	if (ev->kind == EHD_EVENT_SAMPLE) {
		idx = sample_type(w, ev);
		if (idx < 0)
			return (int)idx;
		at = w->payloads.len;
		ehd__nt_put_var(&w->payloads, ev->value);
		if (w->payloads.err)
			return -ENOMEM;
		return hold_event(w, ev, (uint32_t)idx, at, false);
	}
	if (!sy || sy->kind < EHD_SYSTEM_EXISTING_PROCESS ||
	    sy->kind > EHD_SYSTEM_MAPPING)
		return -EINVAL;
	if (sy->kind == EHD_SYSTEM_MAPPING && sy->build_id &&
	    is_hex(sy->build_id))
		err = mapping_metadata(w, ev, sy, &meta_id);
	/* EHD_SYSTEM_* are the event ids. */
	idx = err ? err : usys_type(w, (unsigned int)sy->kind);
	if (idx < 0)
		return (int)idx;
	at = w->payloads.len;
	if (sy->kind == EHD_SYSTEM_PROCESS_CREATE && births(w, sy->pid, true) < 0)
		return -ENOMEM;
	switch (sy->kind) {
	case EHD_SYSTEM_EXISTING_PROCESS:
	case EHD_SYSTEM_PROCESS_CREATE:
		ehd__nt_put_var(&w->payloads, sy->ns_pid ? sy->ns_pid : sy->pid);
		/* (the namespace's name keeps up to half the room) */
		put_cstring(w, sy->name, at,
			    2 + strnlen(sy->ns_name ? sy->ns_name : "",
					EHD__NT_PAYLOAD_MAX / 2));
		put_cstring(w, sy->ns_name, at, 0);
		break;
	case EHD_SYSTEM_MAPPING:
		ehd__nt_put_var(&w->payloads, sy->mapping_id);
		ehd__nt_put_var(&w->payloads, sy->start);
		ehd__nt_put_var(&w->payloads, sy->end);
		ehd__nt_put_var(&w->payloads, sy->file_offset);
		put_cstring(w, sy->file_name, at, EHD__NT_VAR_MAX);
		ehd__nt_put_var(&w->payloads, meta_id);
		break;
	}
	return hold_made(w, ev, idx, at);
}

/*
 * What an event changes in what the output is to hold: kept before it, so
 * that an event that would take the output past its limit can be taken
 * back whole (before the window is written: nothing of it is out yet).
 * The tables it added to (types, threads, stacks, symbols) keep entries
 * whose rows are gone; no event comes after it to use them.
 */
struct undo {
	size_t nheld, payloads, rows, thread_rows, stack_data, label_data;
	uint32_t nstacks, nlabels;
	uint64_t last_ticks, order, min_ticks, row_bound, wmin, wmax;
	bool have_first;
	unsigned int first_context;
	struct ehd_writer_stats st;
};

static void undo_keep(const struct ehd__ntw *w, struct undo *u)
{
	u->nheld = w->nheld;
	u->payloads = w->payloads.len;
	u->rows = w->rows.len;
	u->thread_rows = w->thread_rows.len;
	u->stack_data = w->stack_data.len;
	u->label_data = w->label_data.len;
	u->nstacks = w->nstacks;
	u->nlabels = w->nlabels;
	u->last_ticks = w->last_ticks;
	u->order = w->order;
	u->min_ticks = w->min_ticks;
	u->row_bound = w->row_bound;
	u->wmin = w->wmin;
	u->wmax = w->wmax;
	u->have_first = w->have_first;
	u->first_context = w->first_context;
	u->st = w->st;
}

static void undo_apply(struct ehd__ntw *w, const struct undo *u)
{
	w->nheld = u->nheld;
	w->payloads.len = u->payloads;
	w->rows.len = u->rows;
	w->thread_rows.len = u->thread_rows;
	w->stack_data.len = u->stack_data;
	w->label_data.len = u->label_data;
	w->nstacks = u->nstacks;
	w->nlabels = u->nlabels;
	w->last_ticks = u->last_ticks;
	w->order = u->order;
	w->min_ticks = u->min_ticks;
	w->row_bound = u->row_bound;
	w->wmin = u->wmin;
	w->wmax = u->wmax;
	w->have_first = u->have_first;
	w->first_context = u->first_context;
	w->st = u->st;
}

/*
 * The most bytes the output would have if it were closed now: what is
 * written, and each block make_window() and ntw_close() would add at its
 * largest (a row header's fields at most as long as their values, its
 * time difference as the window's span, or the first's whole time, or a
 * sequence point's; strings made well-formed grow at most threefold).
 */
static uint64_t size_bound(const struct ehd__ntw *w)
{
	uint64_t n = w->st.bytes + w->out.len + 4;	/* + the end */

	if (!w->trace_written)
		n += 2048 + 3 * (w->info_strings.len +
				 (w->source ? strlen(w->source) : 0));
	if (w->rows.len)
		n += 6 + w->rows.len;
	n += 4 + 32 + w->thread_rows.len;
	if (w->nheld) {
		n += 12 + w->stack_data.len;
		n += 12 + w->label_data.len;
		uint64_t lo = w->have_sp && w->last_sp < w->wmin ?
			      w->last_sp : w->wmin;
		uint64_t hi = w->have_sp && w->last_sp > w->wmax ?
			      w->last_sp : w->wmax;

		n += 4 + 20 + w->row_bound + 16 +
		     w->nheld * (uint64_t)varuint_len(hi - lo) +
		     w->payloads.len;
		n += 4 + 16 + 2 * 5;			/* sequence point */
	}
	return n;
}

/*
 * The event just held would take the output past its limit: taken back,
 * and the writer takes no more.
 */
static int over_limit(struct ehd__ntw *w, const struct undo *u)
{
	if (!w->limit || size_bound(w) <= w->limit)
		return 0;
	undo_apply(w, u);
	w->full = true;
	return -EFBIG;
}

/* Whether the window's rows of a table are enough for it to be written. */
static inline bool tables_due(const struct ehd__ntw *w)
{
	return w->rows.len >= TABLE_BYTES_MAX ||
	       w->thread_rows.len >= TABLE_BYTES_MAX ||
	       w->stack_data.len >= TABLE_BYTES_MAX;
}

/* Write the window once it holds enough. */
static inline int window_check(struct ehd__ntw *w)
{
	int err = 0;

	if (w->payloads.len >= WINDOW_BYTES || w->nheld >= WINDOW_ROWS ||
	    tables_due(w))
		err = flush_window(w);
	if (!err && w->payloads.err)
		err = -ENOMEM;
	return err;
}

/*
 * EventHeader event @ev as the tracepoint record it is, in @classic: named
 * as its tracepoint ("user_events:MyProvider_L4K1"), as are all the
 * records of one tracepoint format (one type).
 */
static const struct ehd_event *as_record(const struct ehd_event *ev,
					 struct ehd_event *classic)
{
	const struct tep_event *tp = ev->tep_event;

	*classic = *ev;
	classic->kind = tp ? EHD_EVENT_TRACEFS : EHD_EVENT_RAW;
	if (tp && tp->system && tp->name) {
		classic->provider = tp->system;
		classic->provider_len = strlen(tp->system);
		classic->name = tp->name;
		classic->name_len = strlen(tp->name);
	}
	if (ev->record) {
		classic->data = ev->record;
		classic->size = ev->record_size;
	}
	return classic;
}

/*
 * Why EventHeader event @ev cannot be typed: the enumerator's reason,
 * found by walking its fields (it refuses them as the map did).
 */
static const char *refusal(const struct ehd_event *ev, struct ehd_enum *en,
			   uint64_t *where)
{
	const char *why;

	*where = 0;
	if (!ehd_event_fields(ev, en, 0))
		while (ehd_enum_next(en) > 0)
			;
	why = ehd_enum_error(en, where);
	return why ? why : "field declarations nettrace cannot hold";
}

/*
 * ntw_event() - add one event (with @en, a spare enumerator)
 * Return: 0; -EBADMSG for EventHeader data that do not fit their
 * declarations (written as the record's classic fields or bytes, with
 * *@why and *@where saying what was wrong); -E2BIG for an event nettrace
 * cannot hold (not written, counted); -ENOTSUP for an event read from
 * nettrace or a Heph trace (typed by their metadata: no bytes to map);
 * -ENOMEM or a write error.
 */
static int ntw_event(struct ehd__ntw *w, const struct ehd_event *ev,
		     struct ehd_enum *en, const char **why, uint64_t *where)
{
	struct ehd__ntm_result res;
	struct ehd_event classic;
	struct undo undo;
	size_t payload = 0, at;
	long idx = -1;
	int err, damage = 0;

	if (w->err)
		return w->err;
	if (w->full)
		return -EFBIG;
	if (w->limit)
		undo_keep(w, &undo);
	/*
	 * Events whose fields come from their input's own metadata (nettrace,
	 * Heph: a fields callback, whatever kind they are shown as) have no
	 * EventHeader or record bytes to map.
	 */
	if (ehd__event_own_fields(ev))
		return -ENOTSUP;
	err = take_stack(w, ev);
	if (err)
		return err;
	/*
	 * The functions of its stack, named before it (ProcessSymbol): once
	 * per process and stack in a window, the frames are looked up again
	 * only for a stack not seen (a 64-bit hash: a collision, left to
	 * chance, would leave a new stack's functions unnamed).
	 */
	if (w->nips && ehd__event_procs(ev)) {
		size_t pos = 0;
		uint64_t h;
		uint32_t v;

		/* Its frames (all of them: see symbols()) in its process. */
		h = w->nips > STACK_FRAMES_MAX ?
		    ehd__hash_words(w->ips, w->nips) : w->ips_hash;
		h = (h ^ ev->pid) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 32;
		if (!ehd__table_next(&w->named, h, &pos, &v)) {
			err = symbols(w, ev);
			if (!err)
				err = ehd__table_add(&w->named, h, 0);
			if (err)
				return err;
		}
	}
	at = w->payloads.len;
	if (ev->kind == EHD_EVENT_SAMPLE || ev->kind == EHD_EVENT_SYSTEM) {
		err = universal_event(w, ev);
		if (!err)
			err = over_limit(w, &undo);
		return err ? err : window_check(w);
	}
	if (ev->kind == EHD_EVENT_EVENTHEADER) {
		/* The reader's enumerator knows where the fields are. */
		const struct ehd_enum *ident = ehd__event_identified(ev);

		err = 0;
		if (!ident) {
			err = ehd_event_fields(ev, en, 0);
			ident = en;
		}
		idx = err ? err : eventheader_type(w, ev, ident, &payload);
		if (idx == -ENOMEM)
			return -ENOMEM;
		if (idx == -E2BIG) {
			/* More metadata than a row holds: the record's fields. */
			w->st.untyped++;
			ev = as_record(ev, &classic);
		} else if (idx < 0) {
			/* Declarations the enumerator refuses: the same. */
			damage = (int)idx;
			*why = refusal(ev, en, where);
			ev = as_record(ev, &classic);
		} else {
			err = ehd__ntm_convert(&w->metas[idx].map,
					       (const uint8_t *)ev->data + payload,
					       ev->size - payload, &w->payloads,
					       &res);
			if (err == -EBADMSG) {
				/* Damaged: written as what the record is. */
				damage = err;
				*why = res.why;
				*where = payload + res.where;
				ev = as_record(ev, &classic);
			} else if (err) {
				if (err == -E2BIG)
					w->st.skipped++;
				return err;
			} else if (res.extra) {
				w->st.trailing++;
			}
		}
	}
	if (ev->kind != EHD_EVENT_EVENTHEADER) {
		idx = classic_type(w, ev);
		if (idx == -E2BIG && ev->kind == EHD_EVENT_TRACEFS)
			w->st.untyped++;	/* a format too large: bytes */
		else if (idx < 0)
			return (int)idx;
		err = idx < 0 ? (int)idx :
		      ehd__ntm_convert(&w->metas[idx].map, ev->data, ev->size,
				       &w->payloads, &res);
		if (err == -EBADMSG || idx < 0) {
			/* A record shorter than its format (or a format too
			 * large to type): its bytes. */
			struct ehd_event raw = *ev;

			raw.kind = EHD_EVENT_RAW;
			raw.tep_event = NULL;
			if (!damage && idx >= 0) {
				damage = err;
				*why = res.why;
				*where = res.where;
			}
			idx = classic_type(w, &raw);
			if (idx < 0)
				return (int)idx;
			err = ehd__ntm_convert(&w->metas[idx].map, raw.data,
					       raw.size, &w->payloads, &res);
		}
		if (err) {
			if (err == -E2BIG)
				w->st.skipped++;
			return err;
		}
	}
	w->st.lossy += res.lossy;
	err = hold_event(w, ev, (uint32_t)idx, at, false);
	if (!err)
		err = over_limit(w, &undo);
	if (!err)
		err = window_check(w);
	return err ? err : damage;
}

/*
 * nettrace_rows() - add EventHeader events @rows (eh-row.h), @n of them in
 * order, each as ntw_event() would have added it, while their types and
 * threads are known without them
 * @taken: the rows put in the window
 *
 * A row is declined, with nothing changed, and those after it left, when
 * its type or thread is not known by its keys, when its payload does not
 * convert cleanly (its event's own path says why), or before the first
 * event. A row that would take the output past its size limit is taken
 * back and declined, the writer full: its event's own path then refuses
 * it, as all after it. The type and thread of the row before are kept in
 * locals: the rows of a batch are mostly of one type and few threads.
 *
 * Return: 0, or < 0 when the last row taken is in the window but writing
 * the window failed.
 */
static int nettrace_rows(struct ehd__out *o, const struct ehd__eh_row *rows,
			 size_t n, size_t *taken)
{
	struct ehd__ntw *w = o->state;
	const struct ehd__eh_row *row, *end = rows + n;
	const struct ehd__ntm *map = NULL;
	uint64_t key = 0, gen = 0;	/* of the row before; 0: none */
	uint32_t meta = 0, pid = 0, tid = 0, thread = 0;
	struct ehd__ntm_result res;
	struct undo undo;
	struct held *h;
	size_t at, k = 0;
	bool limit, tables;
	int err = 0;

	*taken = 0;
	if (w->err || w->full || !w->have_first || held_room(w, n))
		return 0;
	/* (what no row changes is looked at once) */
	limit = w->limit;
	tables = tables_due(w);
	for (row = rows; row < end; row++) {
		if (row->key != key) {
			const struct key_cache *kc =
				&w->key_cache[row->key % KEY_CACHE_SIZE];

			if (kc->key != row->key)
				break;
			key = row->key;
			meta = kc->meta;
			map = &w->metas[meta].map;
		}
		if (!(row->context & EHD_CTX_PID)) {
			thread = CAPTURE_THREAD;
			gen = 0;
		} else if (!gen || row->names_gen != gen || row->tid != tid ||
			   row->pid != pid) {
			if (!thread_known(w, row->context, row->pid, row->tid,
					  row->names_gen, &thread))
				break;
			gen = row->names_gen;
			pid = row->pid;
			tid = row->tid;
		}
		if (limit)
			undo_keep(w, &undo);
		at = w->payloads.len;
		/* (most types' steps, inline: no call) */
		if (ehd__ntm_convert_inline(map, row->payload,
					    row->payload_size, &w->payloads,
					    &res))
			break;
		if (res.extra)
			w->st.trailing++;
		if (res.lossy)
			w->st.lossy += res.lossy;
		h = held_begin(w, row->context, row->time, row->cpu, meta, at);
		h->thread = thread;
		h->stack = h->labels = 0;
		held_end(w, h, row->context);
		if (limit && over_limit(w, &undo))
			break;	/* taken back, w->full */
		k++;
		if (tables || w->payloads.len >= WINDOW_BYTES ||
		    w->nheld >= WINDOW_ROWS || w->payloads.err) {
			err = window_check(w);
			if (err == -EFBIG && w->st.no_room)
				err = 0;	/* (not written: w->full) */
			if (err || w->full)
				break;
			tables = tables_due(w);
		}
	}
	*taken = k;
	return err;
}

/* Write what is held, the last sequence point and the end of stream. */
static int ntw_close(struct ehd__ntw *w)
{
	int err;

	if (w->err)
		return w->err;
	w->closing = true;
	make_window(w);
	err = patch_counts(w);
	/* The last window on its own: it may find no room (end_early()). */
	if (!err)
		err = write_out(w);
	if (err && !w->st.no_room)
		return err;
	w->ending = true;
	ehd__nt_put_le(&w->out, (uint64_t)EHD__NT_END << 24, 4);
	err = w->st.no_room ? patch_counts(w) : 0;	/* the file's */
	if (!err)
		err = write_out(w);
	if (err)
		w->st.no_room = 0;	/* not ended after all */
	return err ? err : -w->st.no_room;
}

/*
 * EHD_WRITER_RESERVE: the memory a full window uses, made and its pages
 * written now: its rows (HELD_RESERVE, all it holds), its payloads, and
 * its blocks (the payloads and each row's header at its largest). A
 * recording's windows then take no page fault, and are not moved, as it
 * goes.
 */
static int ntw_reserve(struct ehd__ntw *w)
{
	size_t payloads = WINDOW_BYTES + EHD__NT_PAYLOAD_MAX;
	size_t blocks = payloads + (size_t)HELD_RESERVE * ROW_HEADER_MAX;

	if (held_room(w, HELD_RESERVE) ||
	    ehd__buf_reserve(&w->payloads, payloads) ||
	    ehd__buf_reserve(&w->out, blocks))
		return -ENOMEM;
	ehd__touch_pages(w->held, w->held_cap * sizeof(*w->held));
	ehd__touch_pages(w->payloads.p, payloads);
	ehd__touch_pages(w->out.p, blocks);
	return 0;
}

static int nettrace_create(struct ehd__out *o)
{
	struct ehd__ntw *w = NULL;
	int err = ntw_new(&w, o->fd);

	if (!err && (o->flags & EHD_WRITER_RESERVE))
		err = ntw_reserve(w);
	if (!err)
		o->state = w;
	else
		ntw_free(w);
	return err;
}

static void nettrace_destroy(struct ehd__out *o)
{
	ntw_free(o->state);
}

static int nettrace_begin(struct ehd__out *o, const char *name,
			  const struct ehd_trace_info *info)
{
	return ntw_begin(o->state, name, info);
}

static int nettrace_event(struct ehd__out *o, const struct ehd_event *ev,
			  struct ehd_enum *en, const char **why,
			  uint64_t *where)
{
	return ntw_event(o->state, ev, en, why, where);
}

/*
 * A file gets whole windows, when they are full and at the close; a pipe
 * or a terminal, which someone may be reading live, gets what is held at
 * each flush.
 */
static int nettrace_flush(struct ehd__out *o)
{
	struct ehd__ntw *w = o->state;

	if (w->start >= 0 || !w->payloads.len)
		return 0;
	return flush_window(w);
}

static int nettrace_close(struct ehd__out *o,
			  const struct ehd_writer_stats *st)
{
	return ntw_close(o->state);
}

static void nettrace_stats(const struct ehd__out *o,
			   struct ehd_writer_stats *st)
{
	const struct ehd__ntw *w = o->state;

	*st = w->st;
}

static int nettrace_set_limit(struct ehd__out *o, uint64_t bytes)
{
	struct ehd__ntw *w = o->state;

	if (w->st.events || w->st.bytes || w->out.len)
		return -EBUSY;
	if (bytes < size_bound(w))
		return -EINVAL;
	w->limit = bytes;
	return 0;
}

/* Counted as the trace key "ehd:EventsLost". */
static void nettrace_add_lost(struct ehd__out *o, uint64_t n)
{
	struct ehd__ntw *w = o->state;

	w->st.lost += n;
}

const struct ehd__output_ops ehd__nettrace_output = {
	.name = "nettrace", .format = EHD_OUT_NETTRACE, .caps = EHD__OUT_OWN_IO,
	.props = EHD_FORMAT_BINARY | EHD_FORMAT_RECORDS_ONLY,
	.create = nettrace_create, .destroy = nettrace_destroy,
	.begin = nettrace_begin, .event = nettrace_event, .rows = nettrace_rows,
	.flush = nettrace_flush, .close = nettrace_close,
	.stats = nettrace_stats, .add_lost = nettrace_add_lost,
	.set_limit = nettrace_set_limit,
};
