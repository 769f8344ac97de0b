// SPDX-License-Identifier: MIT
/*
 * test-perf-stream - the pipe-mode records of a live session
 * (decode/perf-stream.c)
 *
 * Builds a stream with every function for two tracepoints of this
 * machine, sched:sched_process_exec and sched:sched_process_fork, with
 * two hand-made samples of sched_process_fork (their raw data laid out
 * by the format's field offsets), and reads it back three ways: with the
 * perf.data reader (perf-file.c), record by record; with the public
 * reader, as events with fields; and with "perf script" when perf is
 * installed. Then the failures: a tracepoint that does not exist and a
 * record too large for its u16 size. Exits 77 (skipped) when tracefs or
 * those tracepoints cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <event-parse.h>
#include <tracefs.h>

#include <ehdecode/reader.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "formats/perf/perf-file.h"
#include "formats/perf/perf-stream.h"

#define SKIP 77
#define NSAMPLES 2
#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		     PERF_SAMPLE_RAW)
#define SID_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | \
		  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

static const struct ehd__ps_tracepoint tps[] = {
	{ "sched", "sched_process_exec" },
	{ "sched", "sched_process_fork" },
};
static const char *const names[] = {
	"sched:sched_process_exec",
	"sched:sched_process_fork",
};
static const char *const cmdline[] = { "ehrecord", "-e", "sched:*", NULL };

/* The stream and what went into it. */
static struct {
	struct ehd_buf b;
	char path[PATH_MAX];
	struct ehd__ps_machine m;
	struct ehd__ps_sample_id sid;
	uint64_t ids[2][2];		/* exec, fork; two "CPUs" each */
	int tp_id[2];			/* the tracefs IDs */
	size_t nthreads;
	uint32_t pid, tid;
	char comm[16];
	uint64_t res_ns;		/* clock_getres(CLOCK_MONOTONIC) */
	struct {
		uint64_t time;
		uint32_t cpu;
		uint32_t child_pid;
		char child_comm[16];
		uint8_t raw[256];
		uint32_t raw_size;	/* in the record, padding included */
	} s[NSAMPLES];
} st;

/* ---- helpers ------------------------------------------------------------- */

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put(struct ehd_buf *b, const void *p, size_t n)
{
	ehd__buf_put(b, p, n);
}

/* A tracepoint's format, parsed by libtraceevent into @tep. */
static struct tep_event *load_format(struct tep_handle *tep,
				     const struct ehd__ps_tracepoint *tp)
{
	struct tep_event *ev = NULL;
	char *text;
	int size = 0;

	text = tracefs_event_file_read(NULL, tp->system, tp->event, "format",
				       &size);
	if (!text)
		return NULL;
	if (tep_parse_format(tep, &ev, text, (unsigned long)size, tp->system))
		ev = NULL;
	free(text);
	return ev;
}

/* Sets field @name of the record being built in @rec (@len bytes so far). */
static void set_field(struct tep_event *ev, uint8_t *rec, size_t *len,
		      const char *name, const void *val, size_t size)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	uint32_t loc;

	assert_non_null(f);
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: u32 (length << 16 | offset), data at the end */
		assert_int_equal(f->size, 4);
		loc = (uint32_t)(size << 16 | *len);
		memcpy(rec + f->offset, &loc, 4);
		memcpy(rec + *len, val, size);
		*len += size;
	} else {
		assert_true(size <= (size_t)f->size);
		memset(rec + f->offset, 0, (size_t)f->size);
		memcpy(rec + f->offset, val, size);
	}
}

/* Where the fixed part of a record of @ev ends. */
static size_t fixed_size(const struct tep_event *ev)
{
	const struct tep_format_field *f;
	size_t end = 0;

	for (f = ev->format.common_fields; f; f = f->next)
		if ((size_t)(f->offset + f->size) > end)
			end = (size_t)(f->offset + f->size);
	for (f = ev->format.fields; f; f = f->next)
		if ((size_t)(f->offset + f->size) > end)
			end = (size_t)(f->offset + f->size);
	return end;
}

/* Sample @i: a sched_process_fork record as the kernel would write it. */
static void make_fork_raw(struct tep_event *ev, int i)
{
	uint8_t *rec = st.s[i].raw;
	size_t len = fixed_size(ev);
	uint16_t type = (uint16_t)ev->id;
	int32_t pid = (int32_t)st.pid, child = (int32_t)st.s[i].child_pid;

	assert_true(len + 64 <= sizeof(st.s[i].raw));
	memset(rec, 0, sizeof(st.s[i].raw));
	memcpy(rec, &type, 2);			/* common_type */
	memcpy(rec + 4, &pid, 4);		/* common_pid */
	set_field(ev, rec, &len, "parent_comm", st.comm, strlen(st.comm) + 1);
	set_field(ev, rec, &len, "parent_pid", &pid, 4);
	set_field(ev, rec, &len, "child_comm", st.s[i].child_comm,
		  strlen(st.s[i].child_comm) + 1);
	set_field(ev, rec, &len, "child_pid", &child, 4);
	/* The kernel pads u32 size + data to 8 bytes. */
	st.s[i].raw_size = (uint32_t)(((len + 4 + 7) & ~(size_t)7) - 4);
}

static void put_sample(struct ehd_buf *b, int i)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_SAMPLE,
		.misc = PERF_RECORD_MISC_KERNEL,
		.size = (uint16_t)(8 + 5 * 8 + 4 + st.s[i].raw_size),
	};
	uint32_t two[2];
	uint64_t period = 1;

	put(b, &h, sizeof(h));
	put(b, &st.ids[1][i], 8);			/* IDENTIFIER */
	two[0] = st.pid;
	two[1] = st.tid;
	put(b, two, 8);					/* TID */
	put(b, &st.s[i].time, 8);			/* TIME */
	two[0] = st.s[i].cpu;
	two[1] = 0;
	put(b, two, 8);					/* CPU */
	put(b, &period, 8);				/* PERIOD */
	put(b, &st.s[i].raw_size, 4);			/* RAW */
	put(b, st.s[i].raw, st.s[i].raw_size);
}

static void read_self_comm(char *comm, size_t size)
{
	FILE *fp = fopen("/proc/self/comm", "r");

	assert_non_null(fp);
	assert_non_null(fgets(comm, (int)size, fp));
	fclose(fp);
	comm[strcspn(comm, "\n")] = 0;
}

/* /proc/cpuinfo has a "model name" line. */
static bool have_model_name(void)
{
	char line[512];
	bool found = false;
	FILE *fp = fopen("/proc/cpuinfo", "r");

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp))
		found = !strncmp(line, "model name", 10);
	fclose(fp);
	return found;
}

/* ---- the stream ---------------------------------------------------------- */

static int build_stream(void **state)
{
	struct perf_event_attr attr;
	struct tep_handle *tep;
	struct tep_event *ev[2];
	struct timespec res;
	char why[256] = "";
	const char *dir;
	size_t len;
	int fd, i, j;

	(void)state;
	st.pid = (uint32_t)getpid();
	st.tid = (uint32_t)syscall(SYS_gettid);
	read_self_comm(st.comm, sizeof(st.comm));
	assert_int_equal(clock_getres(CLOCK_MONOTONIC, &res), 0);
	st.res_ns = (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;

	tep = tep_alloc();
	assert_non_null(tep);
	for (i = 0; i < 2; i++) {
		ev[i] = load_format(tep, &tps[i]);
		assert_non_null(ev[i]);
		st.tp_id[i] = ev[i]->id;
		for (j = 0; j < 2; j++)
			st.ids[i][j] = 1000u * (unsigned int)(i + 1) +
				       (unsigned int)j;
	}

	st.m.cmdline = cmdline;
	st.m.clockid = CLOCK_MONOTONIC;
	st.m.clock_ns = now_ns(CLOCK_MONOTONIC);
	st.m.wall_ns = now_ns(CLOCK_REALTIME);
	st.m.version = "ehrecord 0.1";
	st.sid.sample_type = SID_TYPE;
	st.sid.id = st.ids[0][0];
	st.sid.time = st.m.clock_ns;
	for (i = 0; i < NSAMPLES; i++) {
		st.s[i].time = st.m.clock_ns + 1000u * (unsigned int)(i + 1);
		st.s[i].cpu = (uint32_t)i;
		st.s[i].child_pid = 40000u + (uint32_t)i;
		snprintf(st.s[i].child_comm, sizeof(st.s[i].child_comm),
			 "child%u", (unsigned int)i);
		make_fork_raw(ev[1], i);
	}
	tep_free(tep);

	ehd__ps_pipe_header(&st.b);
	for (i = 0; i < 2; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.size = sizeof(attr);
		attr.config = (uint64_t)st.tp_id[i];
		attr.sample_period = 1;
		attr.sample_type = SAMPLE_TYPE;
		attr.sample_id_all = 1;
		attr.use_clockid = 1;
		attr.clockid = CLOCK_MONOTONIC;
		ehd__ps_attr(&st.b, &attr, st.ids[i], 2);
		ehd__ps_event_name(&st.b, st.ids[i][0], names[i]);
	}
	len = st.b.len;
	assert_int_equal(ehd__ps_tracing_data(&st.b, tps, 2, why, sizeof(why)),
			 0);
	assert_string_equal(why, "");
	assert_true(st.b.len > len);
	ehd__ps_features(&st.b, &st.m);
	st.nthreads = ehd__ps_threads(&st.b, &st.sid, false, NULL, 0);
	for (i = 0; i < NSAMPLES; i++)
		put_sample(&st.b, i);
	ehd__ps_finished_round(&st.b);
	assert_int_equal(st.b.err, 0);
	/* This process and its thread at least. */
	assert_true(st.nthreads >= 1);

	dir = getenv("TMPDIR");
	snprintf(st.path, sizeof(st.path), "%s/test-perf-stream.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(st.path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, st.b.p, st.b.len), (ssize_t)st.b.len);
	assert_int_equal(close(fd), 0);
	return 0;
}

static int drop_stream(void **state)
{
	(void)state;
	if (st.path[0])
		unlink(st.path);
	ehd__buf_free(&st.b);
	return 0;
}

/* ---- (1) record by record with perf-file.c ------------------------------- */

static void check_comm(const struct ehd__perf_record *rec, size_t *ours)
{
	const uint8_t *p = rec->data;
	const struct ehd__perf_sample *s = &rec->sample;
	uint32_t pid = ehd__get32(p + 8), tid = ehd__get32(p + 12);
	const char *comm = (const char *)p + 16;

	assert_true(rec->has_sample);
	assert_int_equal(s->fields, SID_TYPE);
	assert_int_equal(s->pid, pid);
	assert_int_equal(s->tid, tid);
	assert_int_equal(s->time, st.sid.time);
	assert_int_equal(s->id, st.sid.id);
	assert_int_equal(s->cpu, 0);
	assert_non_null(s->desc);
	assert_int_equal(s->desc->index, 0);
	/* NUL-terminated within 16 bytes, the sample_id after it. */
	assert_true(strnlen(comm, 16) < 16);
	assert_int_equal(rec->size, 16 + (strlen(comm) + 8) / 8 * 8 + 32);
	if (pid == st.pid && tid == st.tid) {
		assert_string_equal(comm, st.comm);
		(*ours)++;
	}
}

static void check_sample(const struct ehd__perf_record *rec, int i)
{
	const struct ehd__perf_sample *s = &rec->sample;

	assert_true(rec->has_sample);
	assert_int_equal(s->fields, SAMPLE_TYPE);
	assert_int_equal(s->id, st.ids[1][i]);
	assert_int_equal(s->pid, st.pid);
	assert_int_equal(s->tid, st.tid);
	assert_int_equal(s->time, st.s[i].time);
	assert_int_equal(s->cpu, st.s[i].cpu);
	assert_int_equal(s->period, 1);
	assert_int_equal(s->raw_size, st.s[i].raw_size);
	assert_memory_equal(s->raw, st.s[i].raw, st.s[i].raw_size);
	assert_non_null(s->desc);
	assert_string_equal(s->desc->name, names[1]);
}

static void check_descs(struct ehd__perf_file *f)
{
	const struct ehd__perf_event_desc *d;
	size_t i;

	assert_int_equal(ehd__perf_desc_count(f), 2);
	for (i = 0; i < 2; i++) {
		d = ehd__perf_desc(f, i);
		assert_non_null(d);
		assert_int_equal(d->attr.type, PERF_TYPE_TRACEPOINT);
		assert_int_equal(d->attr.config, (uint64_t)st.tp_id[i]);
		assert_int_equal(d->attr.sample_type, SAMPLE_TYPE);
		assert_int_equal(d->attr_size, sizeof(struct perf_event_attr));
		assert_true(d->attr.sample_id_all);
		assert_true(d->attr.use_clockid);
		assert_int_equal(d->ids_count, 2);
		assert_int_equal(d->ids[0], st.ids[i][0]);
		assert_int_equal(d->ids[1], st.ids[i][1]);
		assert_string_equal(d->name, names[i]);
		assert_non_null(d->tep_event);
		assert_int_equal(d->tep_event->id, st.tp_id[i]);
		assert_string_equal(d->tp_name, tps[i].event);
		assert_int_equal(d->eh_offset, -1);
		assert_ptr_equal(ehd__perf_find_desc(f, st.ids[i][1]), d);
	}
}

static void check_session(struct ehd__perf_file *f)
{
	const struct ehd__perf_session *s = ehd__perf_session(f);
	char host[256] = "";
	struct utsname u;

	assert_int_equal(gethostname(host, sizeof(host) - 1), 0);
	assert_int_equal(uname(&u), 0);
	assert_true(s->pipe_mode);
	assert_int_equal(s->big_endian, __BYTE_ORDER == __BIG_ENDIAN);
	assert_string_equal(s->hostname, host);
	assert_string_equal(s->osrelease, u.release);
	assert_string_equal(s->arch, u.machine);
	assert_string_equal(s->version, "ehrecord 0.1");
	assert_int_equal(s->nr_cpus_avail, sysconf(_SC_NPROCESSORS_CONF));
	assert_int_equal(s->nr_cpus_online, sysconf(_SC_NPROCESSORS_ONLN));
	assert_string_equal(s->cmdline, "ehrecord -e sched:*");
	if (have_model_name())
		assert_non_null(s->cpudesc);
	else
		assert_null(s->cpudesc);
	/*
	 * perf-file.c takes the clockid from the CLOCKID feature, which
	 * is the clock's resolution (1 ns = 1 = CLOCK_MONOTONIC here); it
	 * is CLOCK_DATA's clockid that says the clock. Both agree when the
	 * resolution is 1 ns.
	 */
	if (st.res_ns == 1)
		assert_int_equal(s->clockid, CLOCK_MONOTONIC);
	assert_true(s->has_clock_offset);
	assert_int_equal(s->clock_offset, st.m.wall_ns - st.m.clock_ns);
	assert_int_equal(ehd__perf_time_to_utc(f, st.s[0].time),
			 st.s[0].time + st.m.wall_ns - st.m.clock_ns);

	assert_string_equal(s->tracing_version, "0.6");
	assert_int_equal(s->tracing_big_endian, __BYTE_ORDER == __BIG_ENDIAN);
	assert_int_equal(s->tracing_long_size, sizeof(long));
	assert_int_equal(s->tracing_page_size, sysconf(_SC_PAGESIZE));
	assert_non_null(s->header_page);
	assert_true(s->header_page_size > 0);
	assert_non_null(s->header_event);
	assert_true(s->header_event_size > 0);
	assert_int_equal(s->ftrace_count, 0);
	assert_int_equal(s->format_count, 2);
	assert_int_equal(s->format_errors, 0);
	assert_int_equal(s->kallsyms_size, 0);
	assert_int_equal(s->printk_size, 0);
}

/* The feature bodies, byte for byte as perf lays them out. */
static void check_features(struct ehd__perf_file *f)
{
	const uint8_t *p;
	const void *v;
	size_t n;

	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_HOSTNAME, &v, &n),
			 0);
	p = v;
	/* u32 length: NUL included, a multiple of 64 */
	assert_int_equal(ehd__get32(p) % 64, 0);
	assert_true(ehd__get32(p) > strlen((const char *)p + 4));
	assert_true(4 + ehd__get32(p) <= n);

	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_NRCPUS, &v, &n),
			 0);
	assert_true(n >= 8);

	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_CMDLINE, &v, &n),
			 0);
	p = v;
	assert_int_equal(ehd__get32(p), 3);
	assert_int_equal(ehd__get32(p + 4), 64);
	assert_string_equal((const char *)p + 8, "ehrecord");

	/* CLOCKID: u64 resolution in ns (perf's clockid_res_ns) */
	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_CLOCKID, &v, &n),
			 0);
	assert_true(n >= 8);
	assert_int_equal(ehd__get64(v), st.res_ns);

	/* CLOCK_DATA: u32 1, u32 clockid, u64 wall, u64 clock */
	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_CLOCK_DATA, &v,
					   &n), 0);
	p = v;
	assert_true(n >= 24);
	assert_int_equal(ehd__get32(p), 1);
	assert_int_equal(ehd__get32(p + 4), CLOCK_MONOTONIC);
	assert_int_equal(ehd__get64(p + 8), st.m.wall_ns);
	assert_int_equal(ehd__get64(p + 16), st.m.clock_ns);
}

static void test_perf_file(void **state)
{
	static const unsigned int feats[] = {
		EHD__PERF_FEAT_HOSTNAME, EHD__PERF_FEAT_OSRELEASE,
		EHD__PERF_FEAT_VERSION, EHD__PERF_FEAT_ARCH,
		EHD__PERF_FEAT_NRCPUS, EHD__PERF_FEAT_CPUDESC,
		EHD__PERF_FEAT_CMDLINE, EHD__PERF_FEAT_CLOCKID,
		EHD__PERF_FEAT_CLOCK_DATA, EHD__PERF_FEAT_LAST,
	};
	const size_t nfeats = sizeof(feats) / sizeof(feats[0]);
	const struct ehd__perf_record *rec;
	const uint8_t *data;
	struct ehd__perf_file *f;
	size_t nfeat = 0, ncomm = 0, ours = 0, nsample = 0, nround = 0, k;
	size_t nattr = 0, nupdate = 0, ntracing = 0;
	uint64_t next_off = 16, tracing_end = 0;
	int fd, r;

	(void)state;
	fd = open(st.path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, st.path), 0);
	while ((r = ehd__perf_next(f, &rec)) > 0) {
		/* Records follow each other, 8-byte aligned. */
		if (tracing_end) {
			assert_int_equal(rec->offset, tracing_end);
			tracing_end = 0;
		} else {
			assert_int_equal(rec->offset, next_off);
		}
		assert_int_equal(rec->offset % 8, 0);
		assert_int_equal(rec->size % 8, 0);
		next_off = rec->offset + rec->size;
		data = rec->data;

		switch (rec->type) {
		case EHD__PERF_RECORD_HEADER_ATTR:
			assert_int_equal(nfeat + ntracing, 0);
			nattr++;
			break;
		case EHD__PERF_RECORD_EVENT_UPDATE:
			assert_int_equal(nupdate, nattr - 1);
			nupdate++;
			break;
		case EHD__PERF_RECORD_HEADER_TRACING_DATA:
			/* {header, u32 size, u32 pad}; size counts padding */
			assert_int_equal(rec->size, 16);
			assert_int_equal(ehd__get32(data + 8) % 8, 0);
			assert_int_equal(ehd__get32(data + 12), 0);
			tracing_end = rec->offset + 16 + ehd__get32(data + 8);
			ntracing++;
			break;
		case EHD__PERF_RECORD_HEADER_FEATURE:
			assert_true(ntracing == 1);
			k = (size_t)ehd__get64(data + 8);
			/* CPUDESC only with a "model name" */
			if (feats[nfeat] == EHD__PERF_FEAT_CPUDESC &&
			    !have_model_name())
				nfeat++;
			assert_true(nfeat < nfeats);
			assert_int_equal(k, feats[nfeat]);
			nfeat++;
			break;
		case PERF_RECORD_COMM:
			assert_int_equal(nfeat, nfeats);
			check_comm(rec, &ours);
			ncomm++;
			break;
		case PERF_RECORD_SAMPLE:
			assert_int_equal(ncomm, st.nthreads);
			check_sample(rec, (int)nsample);
			nsample++;
			break;
		case EHD__PERF_RECORD_FINISHED_ROUND:
			assert_int_equal(rec->size, 8);
			nround++;
			break;
		default:
			fail_msg("unexpected record type %u", rec->type);
		}
	}
	if (r < 0)
		fail_msg("%s", ehd__perf_error(f, NULL));
	assert_int_equal(r, 0);
	assert_int_equal(next_off, st.b.len);
	assert_int_equal(nattr, 2);
	assert_int_equal(nupdate, 2);
	assert_int_equal(ntracing, 1);
	assert_int_equal(nfeat, nfeats);
	assert_int_equal(ncomm, st.nthreads);
	assert_int_equal(ours, 1);
	assert_int_equal(nsample, NSAMPLES);
	assert_int_equal(nround, 1);
	check_descs(f);
	check_session(f);
	check_features(f);
	ehd__perf_free(f);
	close(fd);
}

/* ---- (2) events through the public reader -------------------------------- */

static void check_field(struct ehd_enum *en, const char *name,
			const void *value, size_t size)
{
	const struct ehd_item *it;

	assert_int_equal(ehd_enum_next(en), EHD_STATE_VALUE);
	it = ehd_enum_item(en);
	assert_string_equal(it->name, name);
	assert_int_equal(it->value_size, size);
	assert_memory_equal(it->value, value, size);
}

static void test_reader(void **state)
{
	const struct ehd_trace_info *ti;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_enum *en;
	char host[256] = "", name[64];
	int i;

	(void)state;
	assert_int_equal(gethostname(host, sizeof(host) - 1), 0);
	r = ehd_reader_new(EHD_READER_SORT_TIME);
	en = ehd_enum_new();
	assert_non_null(r);
	assert_non_null(en);
	assert_int_equal(ehd_reader_open(r, st.path), 0);
	assert_int_equal(ehd_reader_kind(r), EHD_INPUT_PERF_PIPE);
	for (i = 0; i < NSAMPLES; i++) {
		assert_int_equal(ehd_reader_next(r, &ev), 1);
		assert_int_equal(ev->kind, EHD_EVENT_TRACEFS);
		snprintf(name, sizeof(name), "%.*s:%.*s",
			 (int)ev->provider_len, ev->provider,
			 (int)ev->name_len, ev->name);
		assert_string_equal(name, names[1]);
		assert_non_null(ev->tep_event);
		assert_true(ev->context & EHD_CTX_PID);
		assert_int_equal(ev->pid, st.pid);
		assert_int_equal(ev->tid, st.tid);
		assert_true(ev->context & EHD_CTX_CPU);
		assert_int_equal(ev->cpu, st.s[i].cpu);
		assert_true(ev->context & EHD_CTX_TIME);
		if (ev->context & EHD_CTX_TIME_UTC)
			assert_int_equal(ev->time, st.s[i].time +
					 st.m.wall_ns - st.m.clock_ns);
		else
			assert_int_equal(ev->time, st.s[i].time);

		assert_int_equal(ehd_event_fields(ev, en, 0), 0);
		check_field(en, "parent_comm", st.comm, strlen(st.comm));
		check_field(en, "parent_pid", &st.pid, 4);
		check_field(en, "child_comm", st.s[i].child_comm,
			    strlen(st.s[i].child_comm));
		check_field(en, "child_pid", &st.s[i].child_pid, 4);
		assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);
	}
	assert_int_equal(ehd_reader_next(r, &ev), 0);
	assert_null(ehd_reader_error(r, NULL));

	ti = ehd_reader_trace_info(r);
	assert_string_equal(ti->hostname, host);
	assert_string_equal(ti->perf_version, "ehrecord 0.1");
	assert_string_equal(ti->cmdline, "ehrecord -e sched:*");
	assert_true(ti->has_clock_offset);
	assert_int_equal(ti->clock_offset, st.m.wall_ns - st.m.clock_ns);
	assert_int_equal(ti->long_size, sizeof(long));
	ehd_enum_free(en);
	ehd_reader_free(r);
}

/* ---- (3) perf script ----------------------------------------------------- */

/* Shows what perf wrote on its standard error. */
static void show_errors(const char *path)
{
	char line[1024];
	FILE *fp = fopen(path, "r");

	while (fp && fgets(line, sizeof(line), fp))
		print_message("perf script (stderr): %s", line);
	if (fp)
		fclose(fp);
}

static void test_perf_script(void **state)
{
	char cmd[3 * PATH_MAX], err[PATH_MAX + 8], line[1024], want[128];
	char comm[16], event[64];
	bool seen[NSAMPLES] = { false };
	unsigned int pid, tid, cpu;
	int status, i, lines = 0;
	FILE *fp;

	(void)state;
	if (system("perf version >/dev/null 2>&1") != 0) {
		print_message("perf is not installed: perf script not tried\n");
		skip();
	}
	snprintf(err, sizeof(err), "%s.err", st.path);
	snprintf(cmd, sizeof(cmd), "perf script -F %s -i '%s' 2>'%s'",
		 "trace:comm,pid,tid,cpu,event,trace", st.path, err);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		const char *p = line + strspn(line, " ");

		print_message("perf script: %s", line);
		lines++;
		for (i = 0; i < NSAMPLES; i++) {
			snprintf(want, sizeof(want), "child_pid=%u\n",
				 st.s[i].child_pid);
			if (!strstr(p, want))
				continue;
			/* "comm pid/tid [cpu] event: fields" */
			assert_int_equal(sscanf(p, "%15s %u/%u [%u] %63s", comm,
						&pid, &tid, &cpu, event), 5);
			assert_string_equal(comm, st.comm);
			assert_int_equal(pid, st.pid);
			assert_int_equal(tid, st.tid);
			assert_int_equal(cpu, st.s[i].cpu);
			assert_string_equal(event, "sched:sched_process_fork:");
			snprintf(want, sizeof(want), "comm=%s pid=%u ",
				 st.comm, st.pid);
			assert_non_null(strstr(p, want));
			snprintf(want, sizeof(want), "child_comm=%s ",
				 st.s[i].child_comm);
			assert_non_null(strstr(p, want));
			seen[i] = true;
		}
	}
	status = pclose(fp);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		show_errors(err);
	unlink(err);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(lines, NSAMPLES);
	for (i = 0; i < NSAMPLES; i++)
		assert_true(seen[i]);
}

/* ---- (4) failures -------------------------------------------------------- */

static void test_missing_tracepoint(void **state)
{
	static const struct ehd__ps_tracepoint bad[] = {
		{ "sched", "sched_process_exec" },
		{ "sched", "no_such_tracepoint_ehd" },
	};
	static const struct ehd__ps_tracepoint dotdot = { "sched", "../sched" };
	struct ehd_buf b = EHD_BUF_INIT;
	char why[256] = "", *copy;
	size_t len;

	(void)state;
	ehd__ps_pipe_header(&b);
	ehd__ps_finished_round(&b);
	len = b.len;
	copy = malloc(len);
	assert_non_null(copy);
	memcpy(copy, b.p, len);

	assert_int_equal(ehd__ps_tracing_data(&b, bad, 2, why, sizeof(why)),
			 -ENOENT);
	assert_string_equal(why,
			    "cannot read tracefs events/sched/no_such_tracepoint_ehd/format: No such file or directory");
	assert_int_equal(b.len, len);
	assert_int_equal(b.err, 0);
	assert_memory_equal(b.p, copy, len);

	/* Names that are not one path component are refused. */
	assert_int_equal(ehd__ps_tracing_data(&b, &dotdot, 1, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "bad tracepoint name sched:../sched");
	assert_int_equal(b.len, len);
	free(copy);
	ehd__buf_free(&b);
}

static void test_too_large(void **state)
{
	struct ehd_buf b = EHD_BUF_INIT;
	size_t len;
	char *name;

	(void)state;
	ehd__ps_pipe_header(&b);
	len = b.len;
	name = malloc(70000);
	assert_non_null(name);
	memset(name, 'x', 69999);
	name[69999] = 0;
	ehd__ps_event_name(&b, 1, name);
	assert_int_equal(b.err, -E2BIG);
	assert_int_equal(b.len, len);	/* no partial record */
	free(name);
	ehd__buf_free(&b);
}

/*
 * Repeated tracepoints are written once; the "ftrace" system goes in the
 * ftrace part, without its name, as perf writes it. Attrs without a
 * size (0: the first version) are written with 64 bytes.
 */
static void test_tracing_parts(void **state)
{
	static const struct ehd__ps_tracepoint some[] = {
		{ "sched", "sched_process_fork" },
		{ "ftrace", "print" },
		{ "sched", "sched_process_fork" },
		{ "sched", "sched_process_exec" },
	};
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT };
	const struct ehd__perf_session *s;
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	struct ehd_buf b = EHD_BUF_INIT;
	uint64_t id = 7;
	char why[256], path[PATH_MAX];
	const char *dir;
	int fd, n = 0;

	(void)state;
	ehd__ps_pipe_header(&b);
	ehd__ps_attr(&b, &attr, &id, 1);
	assert_int_equal(b.len, 16 + 8 + PERF_ATTR_SIZE_VER0 + 8);
	assert_int_equal(ehd__get32(b.p + 16 + 8 + 4), PERF_ATTR_SIZE_VER0);
	if (ehd__ps_tracing_data(&b, some, 4, why, sizeof(why))) {
		print_message("%s: ftrace part not tried\n", why);
		ehd__buf_free(&b);
		skip();
	}
	assert_int_equal(b.err, 0);

	dir = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/test-perf-stream.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, "parts"), 0);
	while (ehd__perf_next(f, &rec) > 0)
		n++;
	assert_null(ehd__perf_error(f, NULL));
	assert_int_equal(n, 2);
	s = ehd__perf_session(f);
	assert_int_equal(s->ftrace_count, 1);
	assert_int_equal(s->format_count, 3);
	assert_non_null(tep_find_event_by_name(ehd__perf_tep(f), "ftrace",
					       "print"));
	assert_non_null(tep_find_event_by_name(ehd__perf_tep(f), "sched",
					       "sched_process_exec"));
	assert_int_equal(ehd__perf_desc(f, 0)->attr_size, PERF_ATTR_SIZE_VER0);
	assert_int_equal(ehd__perf_desc(f, 0)->ids_count, 1);
	ehd__perf_free(f);
	close(fd);
	ehd__buf_free(&b);
}

/*
 * A session that finds a tracepoint while it records describes it late:
 * its attr and name, then a second tracing data record with all the
 * formats. libehdecode's reader adds the new format. (perf script stops
 * at such a record: see ehd__ps_tracing_data().)
 */
static void test_second_tracing_data(void **state)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
	};
	const struct ehd__perf_event_desc *d;
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	struct ehd_buf b = EHD_BUF_INIT;
	char why[256] = "", path[PATH_MAX];
	const char *dir;
	int fd, i, nsample = 0;

	(void)state;
	ehd__ps_pipe_header(&b);
	attr.config = (uint64_t)st.tp_id[0];
	ehd__ps_attr(&b, &attr, st.ids[0], 2);
	assert_int_equal(ehd__ps_tracing_data(&b, tps, 1, why, sizeof(why)), 0);
	ehd__ps_finished_round(&b);
	attr.config = (uint64_t)st.tp_id[1];
	ehd__ps_attr(&b, &attr, st.ids[1], 2);
	ehd__ps_event_name(&b, st.ids[1][0], names[1]);
	assert_int_equal(ehd__ps_tracing_data(&b, tps, 2, why, sizeof(why)), 0);
	for (i = 0; i < NSAMPLES; i++)
		put_sample(&b, i);
	ehd__ps_finished_round(&b);
	assert_int_equal(b.err, 0);

	dir = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/test-perf-stream.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, "late"), 0);
	while (ehd__perf_next(f, &rec) > 0) {
		if (rec->type != PERF_RECORD_SAMPLE)
			continue;
		d = rec->sample.desc;
		assert_non_null(d);
		assert_int_equal(d->index, 1);
		assert_non_null(d->tep_event);
		assert_int_equal(d->tep_event->id, st.tp_id[1]);
		assert_int_equal(rec->sample.raw_size, st.s[nsample].raw_size);
		nsample++;
	}
	assert_null(ehd__perf_error(f, NULL));
	assert_int_equal(nsample, NSAMPLES);
	assert_int_equal(ehd__perf_session(f)->format_count, 2);
	assert_string_equal(ehd__perf_desc(f, 1)->name, names[1]);
	ehd__perf_free(f);
	close(fd);
	ehd__buf_free(&b);
}

/*
 * With maps, each process's executable mappings follow its COMMs, and the
 * reader (EHD_READER_SYSTEM) makes them ExistingProcess and ProcessMapping
 * events: this process is there, with a mapping of its own executable
 * that holds this function. Asked for this process only (an aimed
 * session), no other one is.
 */
static void test_maps(void **state)
{
	struct ehd__ps_sample_id sid = { SID_TYPE, 77, 1000 };
	uint64_t here = (uint64_t)(uintptr_t)&test_maps, id = 77;
	pid_t self = getpid();
	const struct ehd_event *ev;
	struct perf_event_attr attr;
	struct ehd_buf b = { 0 };
	struct ehd_reader *r;
	char exe[PATH_MAX], path[PATH_MAX];
	const char *dir = getenv("TMPDIR");
	bool named = false, mapped = false;
	ssize_t n;
	int fd;

	(void)state;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_type = SID_TYPE;
	attr.sample_id_all = 1;
	ehd__ps_pipe_header(&b);
	ehd__ps_attr(&b, &attr, &id, 1);
	assert_true(ehd__ps_threads(&b, &sid, true, &self, 1) >= 1);
	assert_int_equal(b.err, 0);

	snprintf(path, sizeof(path), "%s/test-perf-stream-maps.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	assert_int_equal(close(fd), 0);
	r = ehd_reader_new(EHD_READER_SYSTEM);
	assert_non_null(r);
	assert_int_equal(ehd_reader_open(r, path), 0);
	while (ehd_reader_next(r, &ev) > 0) {
		const struct ehd_system *sy = ev->system;

		assert_int_equal(ev->kind, EHD_EVENT_SYSTEM);
		assert_non_null(sy);
		assert_int_equal(sy->pid, (uint32_t)self);
		if (sy->kind == EHD_SYSTEM_EXISTING_PROCESS)
			named = !strcmp(sy->name, st.comm);
		if (sy->kind == EHD_SYSTEM_MAPPING && sy->start <= here &&
		    here < sy->end) {
			assert_string_equal(sy->file_name, exe);
			assert_true(sy->mapping_id > 0);
			mapped = true;
		}
	}
	ehd_reader_free(r);
	unlink(path);
	ehd__buf_free(&b);
	assert_true(named);
	assert_true(mapped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_file),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_perf_script),
		cmocka_unit_test(test_missing_tracepoint),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_tracing_parts),
		cmocka_unit_test(test_second_tracing_data),
		cmocka_unit_test(test_maps),
	};
	size_t i;
	char *text;
	int size;

	for (i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
		errno = 0;
		text = tracefs_event_file_read(NULL, tps[i].system,
					       tps[i].event, "format", &size);
		if (!text) {
			printf("SKIP: cannot read tracefs events/%s/%s/format: %s\n",
			       tps[i].system, tps[i].event,
			       errno ? strerror(errno) : "empty");
			return SKIP;
		}
		free(text);
	}
	return cmocka_run_group_tests(tests, build_stream, drop_stream) ? 1 : 0;
}
