// SPDX-License-Identifier: MIT
/*
 * test-perf-file - the perf.data reader (decode/perf-file.c)
 *
 * On the corpus (shared/conformance/eventheader/perf.data, normal mode,
 * and pipe.data, pipe mode): sample counts per event, the time, cpu, pid
 * and tid of every sample against the "meta" of the expected JSON, event
 * names, session info and the EventHeader offset. Then the same samples
 * through a pipe, from a byte-swapped (big-endian) copy of perf.data and
 * from a copy of pipe.data whose records are zstd-compressed; truncated
 * and damaged copies must fail cleanly; and a small hand-made file in
 * both byte orders covers the sample fields the corpus does not use.
 * Exits 77 (skipped) without the corpus.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <event-parse.h>
#include <zstd.h>

#include "perf-build.h"
#include "formats/perf/perf-file.h"

#define SKIP 77

static struct blob perf_data, pipe_data, perf_json, pipe_json;

/*
 * Under LeakSanitizer: libtraceevent 1.7 leaks parts of the format files
 * that it fails to parse, which the damaged copies below make.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* ---- helpers ------------------------------------------------------------- */

static int load(const char *dir, const char *name, struct blob *b)
{
	char path[PATH_MAX];
	struct stat st;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/conformance/eventheader/%s", dir, name);
	fp = fopen(path, "rb");
	if (!fp)
		return -1;
	if (fstat(fileno(fp), &st) || !(b->p = malloc((size_t)st.st_size + 1)) ||
	    fread(b->p, 1, (size_t)st.st_size, fp) != (size_t)st.st_size) {
		fclose(fp);
		return -1;
	}
	b->len = (size_t)st.st_size;
	b->p[b->len] = 0;
	fclose(fp);
	return 0;
}

/* A temporary file with @len bytes of @p; returns an fd open for reading. */
static int temp_file(const void *p, size_t len, char *path)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, PATH_MAX, "%s/test-perf-file.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, len), (ssize_t)len);
	return fd;
}

static void format_utc(uint64_t ns, char *buf, size_t size)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;

	gmtime_r(&sec, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (unsigned int)(ns % 1000000000u));
}

static uint32_t fnv(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/* ---- reading a whole file ------------------------------------------------ */

struct smp {
	uint64_t fields, time, utc, id, ip, period;
	uint32_t cpu, pid, tid, raw_size, raw_hash;
	char name[300];
	int eh_offset;
	uint8_t eh_flags, eh_level;
};

struct run {
	int err;
	char reason[256];
	uint64_t err_off;
	size_t nrec, nsamples, cap, rounds, decompressed;
	size_t sched, provc, provcpp, longname, nodesc;
	uint32_t types[128];	/* record type sequence hash input */
	uint32_t type_hash;
	struct smp *s;
	bool big_endian, pipe_mode;
};

static void run_free(struct run *r)
{
	free(r->s);
	memset(r, 0, sizeof(*r));
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void collect(struct ehd__perf_file *f, struct run *out)
{
	const struct ehd__perf_record *rec;
	const char *why;
	int r;

	out->type_hash = 2166136261u;
	while ((r = ehd__perf_next(f, &rec)) > 0) {
		const struct ehd__perf_sample *s = &rec->sample;
		struct smp *m;

		out->nrec++;
		out->type_hash = (out->type_hash ^ rec->type) * 16777619u;
		if (rec->flags & EHD__PERF_REC_DECOMPRESSED)
			out->decompressed++;
		if (rec->type == EHD__PERF_RECORD_FINISHED_ROUND)
			out->rounds++;
		if (rec->type != PERF_RECORD_SAMPLE)
			continue;
		assert_true(rec->has_sample);
		if (out->nsamples == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 256;
			out->s = realloc(out->s, out->cap * sizeof(*out->s));
			assert_non_null(out->s);
		}
		m = &out->s[out->nsamples++];
		memset(m, 0, sizeof(*m));
		m->fields = s->fields;
		m->time = s->time;
		m->utc = ehd__perf_time_to_utc(f, s->time);
		m->id = s->id;
		m->ip = s->ip;
		m->period = s->period;
		m->cpu = s->cpu;
		m->pid = s->pid;
		m->tid = s->tid;
		m->raw_size = s->raw_size;
		m->raw_hash = fnv(s->raw, s->raw_size);
		m->eh_offset = -1;
		if (!s->desc) {
			out->nodesc++;
			continue;
		}
		snprintf(m->name, sizeof(m->name), "%s", s->desc->name);
		m->eh_offset = s->desc->eh_offset;
		if (m->eh_offset >= 0 &&
		    (uint32_t)m->eh_offset + 8 <= s->raw_size) {
			m->eh_flags = ((const uint8_t *)s->raw)[m->eh_offset];
			m->eh_level = ((const uint8_t *)s->raw)[m->eh_offset + 7];
		}
		if (!strcmp(m->name, "sched:sched_switch"))
			out->sched++;
		else if (starts(m->name, "user_events:TestProviderC_"))
			out->provc++;
		else if (starts(m->name, "user_events:TestProviderCpp_"))
			out->provcpp++;
		else if (starts(m->name, "user_events:Long_Provider_Name_"))
			out->longname++;
	}
	out->err = r;
	why = ehd__perf_error(f, &out->err_off);
	if (r < 0) {
		/* A failure always has a reason. */
		assert_non_null(why);
		assert_true(why[0] != 0);
		snprintf(out->reason, sizeof(out->reason), "%s", why);
	} else {
		assert_null(why);
	}
	out->big_endian = ehd__perf_session(f)->big_endian;
	out->pipe_mode = ehd__perf_session(f)->pipe_mode;
}

static void run_fd(int fd, struct run *out)
{
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	int r;

	memset(out, 0, sizeof(*out));
	assert_int_equal(ehd__perf_new(&f), 0);
	r = ehd__perf_open_fd(f, fd, "test");
	if (r < 0) {
		const char *why = ehd__perf_error(f, &out->err_off);

		assert_non_null(why);
		snprintf(out->reason, sizeof(out->reason), "%s", why);
		out->err = r;
		/* Reading on after a failed open fails the same way. */
		assert_int_equal(ehd__perf_next(f, &rec), r);
	} else {
		collect(f, out);
	}
	ehd__perf_free(f);
}

static void run_mem(const void *p, size_t len, struct run *out)
{
	char path[PATH_MAX];
	int fd = temp_file(p, len, path);

	unlink(path);
	run_fd(fd, out);
	close(fd);
}

static void same_samples(const struct run *a, const struct run *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct smp *x = &a->s[i], *y = &b->s[i];

		assert_int_equal(x->time, y->time);
		assert_int_equal(x->utc, y->utc);
		assert_int_equal(x->id, y->id);
		assert_int_equal(x->ip, y->ip);
		assert_int_equal(x->period, y->period);
		assert_int_equal(x->cpu, y->cpu);
		assert_int_equal(x->pid, y->pid);
		assert_int_equal(x->tid, y->tid);
		assert_int_equal(x->raw_size, y->raw_size);
		assert_int_equal(x->raw_hash, y->raw_hash);
		assert_int_equal(x->fields, y->fields);
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->eh_offset, y->eh_offset);
	}
}

/* Each sample's time/cpu/pid/tid against the "meta" objects of the JSON. */
static void check_meta(const struct run *r, const struct blob *json)
{
	const char *p = (const char *)json->p;
	size_t i = 0;

	while ((p = strstr(p, "\"meta\":{"))) {
		char want[64], got[64];
		unsigned int cpu, pid, tid;

		assert_int_equal(sscanf(p, "\"meta\":{\"time\":\"%63[^\"]\",\"cpu\":%u,\"pid\":%u,\"tid\":%u}",
					want, &cpu, &pid, &tid), 4);
		assert_true(i < r->nsamples);
		format_utc(r->s[i].utc, got, sizeof(got));
		assert_string_equal(got, want);
		assert_int_equal(r->s[i].cpu, cpu);
		assert_int_equal(r->s[i].pid, pid);
		assert_int_equal(r->s[i].tid, tid);
		i++;
		p++;
	}
	assert_int_equal(i, r->nsamples);
}

/* The EventHeader bytes at eh_offset: known flags, level of the name. */
static void check_eventheader(const struct run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsamples; i++) {
		const struct smp *m = &r->s[i];
		const char *lv;

		if (!starts(m->name, "user_events:")) {
			assert_int_equal(m->eh_offset, -1);
			continue;
		}
		/* common_type, common_flags, common_preempt_count, common_pid */
		assert_int_equal(m->eh_offset, 8);
		assert_int_equal(m->eh_flags & ~0x07, 0);
		lv = strrchr(m->name, '_');
		assert_non_null(lv);
		assert_int_equal(lv[1], 'L');
		assert_int_equal(m->eh_level, lv[2] - '0');
		n++;
	}
	assert_int_equal(n, r->provc + r->provcpp + r->longname);
}

/* ---- the corpus files ---------------------------------------------------- */

static struct run perf_run, pipe_run;

static void check_descs(struct ehd__perf_file *f, bool pipe)
{
	const struct ehd__perf_event_desc *d;
	size_t i, n = ehd__perf_desc_count(f), tp = 0;

	assert_int_equal(n, 11);
	for (i = 0; i < n; i++) {
		d = ehd__perf_desc(f, i);
		assert_non_null(d);
		assert_int_equal(d->ids_count, 24);
		assert_ptr_equal(ehd__perf_find_desc(f, d->ids[5]), d);
		assert_int_equal(d->attr_size, 136);
		assert_true(d->attr.sample_id_all);
		assert_true(d->attr.use_clockid);
		assert_int_equal(d->attr.clockid, 1);
		if (d->attr.type != PERF_TYPE_TRACEPOINT) {
			assert_string_equal(d->name, "dummy:HG");
			assert_null(d->tep_event);
			assert_null(d->tp_name);
			continue;
		}
		tp++;
		assert_int_equal(d->attr.sample_type, 0x10587);
		assert_non_null(d->tep_event);
		assert_int_equal(d->tep_event->id, (int)d->attr.config);
		assert_non_null(d->tp_name);
		assert_true(strlen(d->name) > strlen(d->tp_name));
		assert_string_equal(d->name + strlen(d->name) - strlen(d->tp_name),
				    d->tp_name);
		if (starts(d->name, "user_events:")) {
			assert_string_equal(d->tp_name, d->name + 12);
			assert_int_equal(d->eh_offset, 8);
		} else {
			assert_string_equal(d->name, "sched:sched_switch");
			assert_string_equal(d->tp_name, "sched_switch");
			assert_int_equal(d->eh_offset, -1);
		}
	}
	assert_int_equal(tp, 10);
	assert_null(ehd__perf_find_desc(f, 12345678));
	(void)pipe;
}

static void check_session(struct ehd__perf_file *f, bool pipe)
{
	const struct ehd__perf_session *s = ehd__perf_session(f);
	const void *data;
	size_t size;

	assert_false(s->big_endian);
	assert_int_equal(s->pipe_mode, pipe);
	assert_string_equal(s->hostname, "dcook2");
	assert_string_equal(s->osrelease, "6.3.0-rc7-microsoft-standard-WSL2+");
	assert_string_equal(s->version, "6.6.13");
	assert_string_equal(s->arch, "x86_64");
	assert_string_equal(s->cpudesc, "12th Gen Intel(R) Core(TM) i9-12900K");
	assert_int_equal(s->nr_cpus_avail, 24);
	assert_int_equal(s->nr_cpus_online, 24);
	assert_non_null(s->cmdline);
	assert_true(starts(s->cmdline, pipe ?
		"/usr/bin/perf record -o - -k monotonic -e user_events:Long_Provider_Name_" :
		"/usr/bin/perf record -k monotonic -e user_events:Long_Provider_Name_"));
	assert_non_null(strstr(s->cmdline, ",sched:sched_switch"));
	assert_int_equal(s->clockid, 1);
	assert_true(s->has_clock_offset);
	assert_string_equal(s->tracing_version, "0.6");
	assert_false(s->tracing_big_endian);
	assert_int_equal(s->tracing_long_size, 8);
	assert_int_equal(s->tracing_page_size, 4096);
	assert_true(s->header_page_size > 0);
	assert_true(s->format_count >= 10);
	assert_non_null(ehd__perf_tep(f));
	assert_non_null(tep_find_event_by_name(ehd__perf_tep(f), "sched",
					       "sched_switch"));
	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_HOSTNAME, &data,
					   &size), 0);
	assert_true(size >= 8);
	assert_int_equal(ehd__perf_feature(f, EHD__PERF_FEAT_BUILD_ID, &data,
					   &size), pipe ? -ENOENT : 0);
	assert_int_equal(ehd__perf_feature(f, 255, &data, &size), -ENOENT);
}

static void read_corpus(const struct blob *b, struct run *out, bool pipe)
{
	char path[PATH_MAX];
	struct ehd__perf_file *f;
	int fd = temp_file(b->p, b->len, path);

	close(fd);
	memset(out, 0, sizeof(*out));
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open(f, path), 0);
	assert_int_equal(ehd__perf_open(f, path), -EBUSY);
	if (!pipe) {
		/* Normal mode: all is known before the first record. */
		check_session(f, pipe);
		check_descs(f, pipe);
	}
	collect(f, out);
	check_session(f, pipe);
	check_descs(f, pipe);
	ehd__perf_free(f);
	unlink(path);
}

static void test_perf_data(void **state)
{
	struct run *r = &perf_run;

	read_corpus(&perf_data, r, false);
	assert_int_equal(r->err, 0);
	assert_false(r->pipe_mode);
	assert_int_equal(r->nsamples, 539);
	assert_int_equal(r->sched, 285);
	assert_int_equal(r->provc, 113);
	assert_int_equal(r->provcpp, 140);
	assert_int_equal(r->longname, 1);
	assert_int_equal(r->nodesc, 0);
	assert_int_equal(r->rounds, 2);
	/* ID_INDEX .. EXIT of reference §6.1: 1003 records. */
	assert_int_equal(r->nrec, 1003);
	check_meta(r, &perf_json);
	check_eventheader(r);
}

/* By default libtraceevent gets no print fmt; with the option it does. */
static void test_print_fmt(void **state)
{
	struct ehd__perf_file *f;
	struct tep_event *ev;
	char path[PATH_MAX];
	int fd = temp_file(perf_data.p, perf_data.len, path), pass;

	close(fd);
	for (pass = 0; pass < 2; pass++) {
		assert_int_equal(ehd__perf_new(&f), 0);
		assert_int_equal(ehd__perf_set_options(f, 0x100), -EINVAL);
		if (pass)
			assert_int_equal(ehd__perf_set_options(f,
					 EHD__PERF_OPT_PRINT_FMT), 0);
		assert_int_equal(ehd__perf_open(f, path), 0);
		assert_int_equal(ehd__perf_set_options(f, 0), -EBUSY);
		assert_int_equal(ehd__perf_session(f)->format_errors, 0);
		ev = tep_find_event_by_name(ehd__perf_tep(f), "sched",
					    "sched_switch");
		assert_non_null(ev);
		assert_int_equal(ev->format.nr_fields, 7);
		assert_non_null(ev->print_fmt.format);
		if (pass)
			assert_non_null(strstr(ev->print_fmt.format,
					       "prev_comm=%s"));
		else
			assert_string_equal(ev->print_fmt.format, "");
		ehd__perf_free(f);
	}
	unlink(path);
}

static void test_pipe_data(void **state)
{
	struct run *r = &pipe_run;

	read_corpus(&pipe_data, r, true);
	assert_int_equal(r->err, 0);
	assert_true(r->pipe_mode);
	assert_int_equal(r->nsamples, 551);
	assert_int_equal(r->sched, 297);
	assert_int_equal(r->provc, 113);
	assert_int_equal(r->provcpp, 140);
	assert_int_equal(r->longname, 1);
	assert_int_equal(r->nodesc, 0);
	assert_int_equal(r->rounds, 2);
	assert_int_equal(r->nrec, 1003 + 12 + 11 + 20 + 1 + 11);
	check_meta(r, &pipe_json);
	check_eventheader(r);
}

/* ---- through a pipe ------------------------------------------------------ */

static pid_t writer(const struct blob *b, int *rfd)
{
	int fds[2];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		size_t o = 0;

		close(fds[0]);
		/* Odd pieces, so that records arrive split. */
		while (o < b->len) {
			size_t c = b->len - o < 777 ? b->len - o : 777;
			ssize_t w = write(fds[1], b->p + o, c);

			if (w <= 0)
				_exit(1);
			o += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	*rfd = fds[0];
	return pid;
}

static void test_pipe(void **state)
{
	struct ehd__perf_file *f;
	struct run r;
	int fd, status, saved;
	pid_t pid;

	pid = writer(&pipe_data, &fd);
	run_fd(fd, &r);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.nsamples, 551);
	assert_int_equal(r.nrec, pipe_run.nrec);
	assert_int_equal(r.type_hash, pipe_run.type_hash);
	same_samples(&r, &pipe_run, r.nsamples);
	run_free(&r);

	/* "-" is standard input. */
	pid = writer(&pipe_data, &fd);
	saved = dup(STDIN_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fd, STDIN_FILENO) == STDIN_FILENO);
	close(fd);
	memset(&r, 0, sizeof(r));
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open(f, "-"), 0);
	collect(f, &r);
	ehd__perf_free(f);
	assert_true(dup2(saved, STDIN_FILENO) == STDIN_FILENO);
	close(saved);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.nsamples, 551);
	same_samples(&r, &pipe_run, r.nsamples);
	run_free(&r);

	/* A normal-mode file cannot come through a pipe. */
	pid = writer(&perf_data, &fd);
	run_fd(fd, &r);
	close(fd);
	waitpid(pid, &status, 0);
	assert_int_equal(r.err, -ENOTSUP);
	run_free(&r);
}

/* ---- a big-endian copy of perf.data -------------------------------------- */

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void rev(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = t;
	}
}

/* An attr from little- to big-endian (as perf on a big-endian host writes it). */
static void swap_attr(uint8_t *a)
{
	static const uint8_t fields[][2] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 },
		{ 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 },
		{ 110, 2 }, { 112, 4 }, { 116, 4 }, { 120, 8 }, { 128, 8 },
	};
	uint32_t size = le32(a + 4);
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i][0] + fields[i][1] <= size)
			rev(a + fields[i][0], fields[i][1]);
	for (i = 40; i < 48; i++)
		a[i] = rev8(a[i]);
}

struct sid {
	uint64_t id;
	uint64_t sample_type;
	bool all;
};

static const struct sid *find_sid(const struct sid *t, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].id == id)
			return &t[i];
	return NULL;
}

/* perf.data (normal mode, IDENTIFIER samples) from little- to big-endian. */
static void make_big_endian(const struct blob *in, struct blob *out)
{
	uint8_t *b = malloc(in->len);
	uint64_t attr_size, attrs_off, attrs_size, data_off, data_size, o;
	uint64_t flags[4];
	struct sid *sids = NULL;
	size_t nsids = 0, i, k = 0;
	unsigned int bit;

	assert_non_null(b);
	memcpy(b, in->p, in->len);
	attr_size = le64(b + 16);
	attrs_off = le64(b + 24);
	attrs_size = le64(b + 32);
	data_off = le64(b + 40);
	data_size = le64(b + 48);
	for (i = 0; i < 4; i++)
		flags[i] = le64(b + 72 + 8 * i);
	for (i = 0; i < 104; i += 8)
		rev(b + i, 8);

	for (o = attrs_off; o < attrs_off + attrs_size; o += attr_size) {
		uint8_t *a = b + o;
		uint64_t ids_off = le64(a + attr_size - 16);
		uint64_t ids_size = le64(a + attr_size - 8), j;

		for (j = 0; j < ids_size; j += 8) {
			sids = realloc(sids, (nsids + 1) * sizeof(*sids));
			sids[nsids].id = le64(b + ids_off + j);
			sids[nsids].sample_type = le64(a + 24);
			sids[nsids].all = le64(a + 40) >> 18 & 1;
			nsids++;
			rev(b + ids_off + j, 8);
		}
		swap_attr(a);
		rev(a + attr_size - 16, 8);
		rev(a + attr_size - 8, 8);
	}

	for (bit = 0; bit < 256; bit++) {
		uint8_t *sec = b + data_off + data_size + 16 * k;
		uint64_t so, n;
		uint8_t *p;

		if (!(flags[bit / 64] >> (bit % 64) & 1))
			continue;
		k++;
		so = le64(sec);
		rev(sec, 8);
		rev(sec + 8, 8);
		p = b + so;
		switch (bit) {
		case EHD__PERF_FEAT_HOSTNAME:
		case EHD__PERF_FEAT_OSRELEASE:
		case EHD__PERF_FEAT_VERSION:
		case EHD__PERF_FEAT_ARCH:
		case EHD__PERF_FEAT_CPUDESC:
			rev(p, 4);
			break;
		case EHD__PERF_FEAT_NRCPUS:
			rev(p, 4);
			rev(p + 4, 4);
			break;
		case EHD__PERF_FEAT_CMDLINE:
			n = le32(p);
			rev(p, 4);
			p += 4;
			while (n--) {
				uint32_t l = le32(p);

				rev(p, 4);
				p += 4 + l;
			}
			break;
		case EHD__PERF_FEAT_EVENT_DESC: {
			uint32_t nr = le32(p), asz = le32(p + 4);

			rev(p, 4);
			rev(p + 4, 4);
			p += 8;
			while (nr--) {
				uint32_t nids, l;

				swap_attr(p);
				p += asz;
				nids = le32(p);
				rev(p, 4);
				l = le32(p + 4);
				rev(p + 4, 4);
				p += 8 + l;
				while (nids--) {
					rev(p, 8);
					p += 8;
				}
			}
			break;
		}
		case EHD__PERF_FEAT_CLOCKID:
			rev(p, 8);
			break;
		case EHD__PERF_FEAT_CLOCK_DATA:
			rev(p, 4);
			rev(p + 4, 4);
			rev(p + 8, 8);
			rev(p + 16, 8);
			break;
		default:
			/* TRACING_DATA says its own byte order. */
			break;
		}
	}

	for (o = data_off; o < data_off + data_size;) {
		uint8_t *r = b + o, *p = r + 8;
		uint32_t type = le32(r);
		uint16_t size = (uint16_t)(r[6] | r[7] << 8);
		size_t n = size - 8u;
		const struct sid *s;

		if (type == PERF_RECORD_SAMPLE) {
			uint64_t st;

			s = find_sid(sids, nsids, le64(p));
			assert_non_null(s);
			st = s->sample_type;
			assert_int_equal(st & ~(uint64_t)(PERF_SAMPLE_IDENTIFIER |
				PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW), 0);
			for (i = 0; i < 6; i++) {
				static const uint64_t order[] = {
					PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP,
					PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
					PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
				};

				if (!(st & order[i]))
					continue;
				if (order[i] == PERF_SAMPLE_TID ||
				    order[i] == PERF_SAMPLE_CPU) {
					rev(p, 4);
					rev(p + 4, 4);
				} else {
					rev(p, 8);
				}
				p += 8;
			}
			if (st & PERF_SAMPLE_RAW)
				rev(p, 4);	/* the data stay as they are */
		} else if (type < 64 && n >= 8 &&
			   (s = find_sid(sids, nsids, le64(p + n - 8))) &&
			   s->all) {
			uint64_t st = s->sample_type & (PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				PERF_SAMPLE_IDENTIFIER);
			uint8_t *q = p + n - 8 * (size_t)__builtin_popcountll(st);

			for (; q < p + n; q += 8) {
				if (st & PERF_SAMPLE_TID) {
					st &= ~(uint64_t)PERF_SAMPLE_TID;
					rev(q, 4);
					rev(q + 4, 4);
					continue;
				}
				if (st & PERF_SAMPLE_TIME) {
					st &= ~(uint64_t)PERF_SAMPLE_TIME;
				} else if (st & PERF_SAMPLE_ID) {
					st &= ~(uint64_t)PERF_SAMPLE_ID;
				} else if (st & PERF_SAMPLE_STREAM_ID) {
					st &= ~(uint64_t)PERF_SAMPLE_STREAM_ID;
				} else if (st & PERF_SAMPLE_CPU) {
					st &= ~(uint64_t)PERF_SAMPLE_CPU;
					rev(q, 4);
					rev(q + 4, 4);
					continue;
				}
				rev(q, 8);
			}
		}
		rev(r, 4);
		rev(r + 4, 2);
		rev(r + 6, 2);
		o += size;
	}
	free(sids);
	out->p = b;
	out->len = in->len;
}

static void test_big_endian(void **state)
{
	struct blob be = { 0 };
	struct ehd__perf_file *f;
	struct run r;
	char path[PATH_MAX];
	int fd;

	make_big_endian(&perf_data, &be);
	assert_int_equal(memcmp(be.p, "2ELIFREP", 8), 0);
	fd = temp_file(be.p, be.len, path);
	close(fd);
	memset(&r, 0, sizeof(r));
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open(f, path), 0);
	assert_true(ehd__perf_session(f)->big_endian);
	assert_string_equal(ehd__perf_session(f)->hostname, "dcook2");
	assert_int_equal(ehd__perf_session(f)->nr_cpus_avail, 24);
	assert_int_equal(ehd__perf_session(f)->clock_offset,
			 1711586712588060000ull - 12782502283276ull);
	collect(f, &r);
	ehd__perf_free(f);
	unlink(path);
	assert_int_equal(r.err, 0);
	assert_true(r.big_endian);
	assert_int_equal(r.nsamples, 539);
	assert_int_equal(r.nrec, perf_run.nrec);
	assert_int_equal(r.type_hash, perf_run.type_hash);
	same_samples(&r, &perf_run, r.nsamples);
	check_meta(&r, &perf_json);
	run_free(&r);
	free(be.p);
}

/* ---- damaged copies ------------------------------------------------------ */

static void truncated(const struct blob *b, const struct run *full)
{
	char path[PATH_MAX];
	size_t cut, errors = 0;
	int fd = temp_file(b->p, b->len, path);

	unlink(path);
	for (cut = 0; cut < b->len; cut += 997) {
		struct run r;

		assert_int_equal(pwrite(fd, b->p, b->len, 0), (ssize_t)b->len);
		assert_int_equal(ftruncate(fd, (off_t)cut), 0);
		run_fd(fd, &r);
		if (r.err < 0) {
			errors++;
			assert_true(r.err_off <= b->len);
		}
		assert_true(r.err < 0 || r.nsamples < full->nsamples);
		assert_true(r.nsamples <= full->nsamples);
		same_samples(&r, full, r.nsamples);
		run_free(&r);
	}
	assert_true(errors > 0);
	close(fd);
}

static void test_truncated(void **state)
{
	truncated(&perf_data, &perf_run);
	truncated(&pipe_data, &pipe_run);
}

static void damaged(const struct blob *b, unsigned int seed)
{
	uint8_t *copy = malloc(b->len);
	unsigned int i, j;

	assert_non_null(copy);
	for (i = 0; i < 300; i++) {
		struct run r;

		memcpy(copy, b->p, b->len);
		for (j = 0; j < 1 + i % 4; j++) {
			size_t at = (size_t)rand_r(&seed) % b->len;

			copy[at] = (uint8_t)rand_r(&seed);
			/* Often hit a record header or the file header. */
			if (i % 3 == 0)
				copy[(size_t)rand_r(&seed) % 128] ^= 0xFF;
		}
		run_mem(copy, b->len, &r);
		run_free(&r);
	}
	free(copy);
}

static void make_compressed(const struct blob *in, struct blob *out);

static void test_damaged(void **state)
{
	struct blob z = { 0 };
	size_t cut;

	damaged(&perf_data, 1);
	damaged(&pipe_data, 2);
	make_compressed(&pipe_data, &z);
	damaged(&z, 3);
	for (cut = 0; cut < z.len; cut += 97) {
		struct run r;

		run_mem(z.p, cut, &r);
		assert_true(r.err < 0 || r.nsamples < pipe_run.nsamples);
		same_samples(&r, &pipe_run, r.nsamples);
		run_free(&r);
	}
	free(z.p);
}

/* ---- zstd-compressed records --------------------------------------------- */

static size_t record_end(const uint8_t *p, size_t o)
{
	uint32_t type = le32(p + o);
	size_t size = (size_t)(p[o + 6] | p[o + 7] << 8);

	if (type == EHD__PERF_RECORD_HEADER_TRACING_DATA)
		size += le32(p + o + 8);
	return o + size;
}

/* Compresses @n bytes as one or more COMPRESSED/COMPRESSED2 records. */
static void emit_compressed(struct blob *out, ZSTD_CCtx *cc, const uint8_t *p,
			    size_t n, bool end_frame, unsigned int *serial)
{
	struct blob z = { 0 };
	size_t o = 0, piece;

	/* Feed in odd pieces, flushing each, so output goes out early. */
	while (o < n) {
		size_t c = n - o < 5003 ? n - o : 5003;
		ZSTD_inBuffer in = { p + o, c, 0 };
		bool last = o + c == n;
		size_t rem;

		do {
			uint8_t tmp[4096];
			ZSTD_outBuffer ob = { tmp, sizeof(tmp), 0 };

			rem = ZSTD_compressStream2(cc, &ob, &in,
					last && end_frame ? ZSTD_e_end : ZSTD_e_flush);
			assert_false(ZSTD_isError(rem));
			put(&z, tmp, ob.pos);
		} while (rem || in.pos < in.size);
		o += c;
	}
	/* Cut the compressed stream anywhere: records go on in the next one. */
	for (o = 0; o < z.len; o += piece) {
		uint8_t h[16] = { 0 }, pad[8] = { 0 };
		uint32_t type;
		uint16_t size;

		piece = 100 + (*serial * 1237) % 1500;
		if (piece > z.len - o)
			piece = z.len - o;
		type = (*serial)++ % 2 ? EHD__PERF_RECORD_COMPRESSED2 :
					  EHD__PERF_RECORD_COMPRESSED;
		memcpy(h, &type, 4);
		if (type == EHD__PERF_RECORD_COMPRESSED) {
			size = (uint16_t)(8 + piece);
			memcpy(h + 6, &size, 2);
			put(out, h, 8);
			put(out, z.p + o, piece);
		} else {
			uint64_t dsize = piece;

			size = (uint16_t)((16 + piece + 7) & ~(size_t)7);
			memcpy(h + 6, &size, 2);
			memcpy(h + 8, &dsize, 8);
			put(out, h, 16);
			put(out, z.p + o, piece);
			put(out, pad, size - 16 - piece);
		}
	}
	free(z.p);
}

/*
 * pipe.data with its records compressed; FINISHED_ROUND records stay
 * plain between the compressed ones (as perf writes them), and the zstd
 * frame goes on across one of them.
 */
static void make_compressed(const struct blob *in, struct blob *out)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t o = 16, seg = 16, segments = 0;
	unsigned int serial = 0;

	assert_non_null(cc);
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(cc,
				ZSTD_c_compressionLevel, 3)));
	put(out, in->p, 16);
	while (o < in->len) {
		size_t end = record_end(in->p, o);

		if (le32(in->p + o) == EHD__PERF_RECORD_FINISHED_ROUND) {
			emit_compressed(out, cc, in->p + seg, o - seg,
					segments++ % 2 == 1, &serial);
			put(out, in->p + o, end - o);
			seg = end;
		}
		o = end;
	}
	emit_compressed(out, cc, in->p + seg, o - seg, true, &serial);
	assert_true(serial > 15);
	ZSTD_freeCCtx(cc);
}

static void test_compressed(void **state)
{
	struct blob z = { 0 };
	struct run r;
	int fd, status;
	pid_t pid;

	make_compressed(&pipe_data, &z);
	run_mem(z.p, z.len, &r);
	if (r.err)
		fail_msg("compressed: %d %s at %llu", r.err, r.reason,
			 (unsigned long long)r.err_off);
	assert_int_equal(r.nsamples, 551);
	assert_int_equal(r.nrec, pipe_run.nrec);
	assert_int_equal(r.type_hash, pipe_run.type_hash);
	assert_int_equal(r.decompressed, r.nrec - r.rounds);
	same_samples(&r, &pipe_run, r.nsamples);
	run_free(&r);

	/* The same through a pipe. */
	pid = writer(&z, &fd);
	run_fd(fd, &r);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.nsamples, 551);
	same_samples(&r, &pipe_run, r.nsamples);
	run_free(&r);

	/* Damaged compressed data fail cleanly. */
	z.p[16 + 100] ^= 0x55;
	z.p[16 + 2000] ^= 0x55;
	run_mem(z.p, z.len, &r);
	assert_true(r.err < 0 || r.nsamples <= 551);
	run_free(&r);
	/* So does the stream cut in the middle of the compressed data. */
	run_mem(z.p, z.len / 2, &r);
	assert_true(r.err < 0 || r.nsamples < 551);
	run_free(&r);
	free(z.p);
}

/* ---- the lean way ------------------------------------------------------- */

/* The next record the usual way, a sample counted in *@n: false at the end. */
static bool next_usual(struct ehd__perf_file *f, size_t *n)
{
	const struct ehd__perf_record *rec;
	int r = ehd__perf_next(f, &rec);

	assert_true(r >= 0);
	if (r > 0 && rec->type == PERF_RECORD_SAMPLE)
		(*n)++;
	return r > 0;
}

/*
 * Read @b taking the records the lean way where they are given, in runs
 * of up to 5 and 4 KiB (each then parsed again the usual way, to
 * compare), and the usual way otherwise: the samples read the lean way,
 * and all samples in @nsamples. A run's records are one after the other
 * (a reader copies them at once).
 */
static size_t lean_read(const struct blob *b, size_t *nsamples)
{
	struct ehd__perf_place pl[5];
	struct ehd__perf_lean l;
	struct ehd__perf_sample s;
	struct ehd__perf_file *f;
	char path[PATH_MAX];
	size_t lean = 0, n, k, bytes;
	int fd = temp_file(b->p, b->len, path);

	unlink(path);
	*nsamples = 0;
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, "lean"), 0);
	for (;;) {
		n = ehd__perf_next_places(f, pl, sizeof(pl[0]), 5, 4096);
		assert_true(n <= 5);
		for (k = 0, bytes = 0; k < n; k++) {
			const uint8_t *raw;

			bytes += pl[k].size;
			assert_false(pl[k].borrowed);
			if (k)
				assert_ptr_equal(pl[k].data, pl[k - 1].data +
						 pl[k - 1].size);
			assert_int_equal(le32(pl[k].data), PERF_RECORD_SAMPLE);
			assert_int_equal(pl[k].size, pl[k].data[6] |
					 pl[k].data[7] << 8);
			assert_int_equal(ehd__perf_parse_sample(f, pl[k].data,
						pl[k].offset, &s), 0);
			l.data = pl[k].data;
			l.desc = pl[k].desc;
			ehd__perf_lean_fields(&l);
			raw = s.raw;
			assert_ptr_equal(pl[k].desc, s.desc);
			assert_int_equal(l.fields, s.desc->attr.sample_type);
			assert_int_equal(pl[k].time, s.time);
			assert_int_equal(l.cpu, s.cpu);
			assert_int_equal(l.pid, s.pid);
			assert_int_equal(l.tid, s.tid);
			assert_int_equal(l.raw_size, s.raw_size);
			assert_ptr_equal(l.data + l.raw_off, raw);
			assert_null(s.callchain);
		}
		assert_true(bytes <= 4096);
		lean += n;
		*nsamples += n;
		if (!n && !next_usual(f, nsamples))
			break;
	}
	ehd__perf_free(f);
	close(fd);
	return lean;
}

/*
 * The lean way gives the samples of the host's byte order as the usual
 * way does, and leaves the others to it: swapped or compressed files.
 */
static void test_lean(void **state)
{
	struct blob other = { 0 };
	size_t n, lean;

	lean = lean_read(&perf_data, &n);
	assert_int_equal(n, 539);
	/* All but those the buffer holds only a part of, at its ends. */
	assert_true(lean > 500);
	lean = lean_read(&pipe_data, &n);
	assert_int_equal(n, 551);
	assert_true(lean > 500);
	make_big_endian(&perf_data, &other);
	assert_int_equal(lean_read(&other, &n), 0);
	assert_int_equal(n, 539);
	free(other.p);
	memset(&other, 0, sizeof(other));
	make_compressed(&pipe_data, &other);
	assert_int_equal(lean_read(&other, &n), 0);
	assert_int_equal(n, 551);
	free(other.p);
}

/*
 * The first sample @b's lean way gives: its offset in @b, and in @raw_at
 * that of its raw data's size.
 */
static void first_lean(const struct blob *b, size_t *rec, size_t *raw_at)
{
	struct ehd__perf_place pl;
	struct ehd__perf_file *f;
	char path[PATH_MAX];
	int fd = temp_file(b->p, b->len, path);
	size_t n = 0;

	unlink(path);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, "lean"), 0);
	while (!ehd__perf_next_places(f, &pl, sizeof(pl), 1, 4096))
		assert_true(next_usual(f, &n));
	*rec = (size_t)pl.offset;
	*raw_at = (size_t)pl.offset + 8 + pl.desc->lay.fixed;
	ehd__perf_free(f);
	close(fd);
}

/*
 * Read @b the lean way, and the usual way where the lean way gives
 * nothing, up to the record at @rec: the lean way gives none at or past
 * it, and stops there.
 */
static void lean_stops_at(const struct blob *b, size_t rec, size_t *samples)
{
	struct ehd__perf_place pl[4];
	struct ehd__perf_file *f;
	char path[PATH_MAX];
	int fd = temp_file(b->p, b->len, path);
	size_t n;

	unlink(path);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, "lean"), 0);
	for (;;) {
		n = ehd__perf_next_places(f, pl, sizeof(pl[0]), 4, 4096);
		if (n) {
			assert_true(pl[0].offset < rec);
			assert_true(pl[n - 1].offset < rec);
			continue;
		}
		/* the damaged sample is the usual way's */
		if (ehd__perf_position(f) == rec)
			break;
		assert_true(next_usual(f, samples));
	}
	ehd__perf_free(f);
	close(fd);
}

/*
 * A sample whose raw data's size says more than its record holds is not
 * read the lean way: the records before it are, and it is left where it
 * is for the usual way (which says what is wrong with it). Nor is one
 * too short to hold the size at all (the size's place is then the next
 * record's first bytes).
 */
static void test_lean_damaged(void **state)
{
	struct blob bad = { 0 };
	size_t rec, raw, k, samples = 0;
	uint16_t short_size;

	(void)state;
	first_lean(&perf_data, &rec, &raw);
	bad.len = perf_data.len;
	bad.p = malloc(bad.len + 1);
	assert_non_null(bad.p);
	memcpy(bad.p, perf_data.p, bad.len);
	/* Each size from the record's own size to the most. */
	for (k = 0; k < 3; k++) {
		uint32_t sz = k == 0 ? (uint32_t)(bad.p[rec + 6] |
						 bad.p[rec + 7] << 8) :
			      k == 1 ? 0x10000u : 0xffffffffu;

		memcpy(bad.p + raw, &sz, 4);
		lean_stops_at(&bad, rec, &samples);
	}
	/* The record ends where its raw data's size would start. */
	memcpy(bad.p, perf_data.p, bad.len);
	short_size = (uint16_t)(raw - rec);
	assert_int_equal(short_size & 7, 0);
	memcpy(bad.p + rec + 6, &short_size, 2);
	lean_stops_at(&bad, rec, &samples);
	free(bad.p);
}

/* A view source: the whole blob at once, where it is. */
struct whole_view {
	const struct blob *b;
	bool given;
};

static int whole_view(void *ctx, const void **p, size_t *n)
{
	struct whole_view *v = ctx;

	if (v->given)
		return 0;
	v->given = true;
	*p = v->b->p;
	*n = v->b->len;
	return 1;
}

static ssize_t no_source(void *ctx, void *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return -EIO;
}

/* A caller's own entry around a place, as a reader holding them has. */
struct placed {
	uint64_t before;
	struct ehd__perf_place pl;
	uint64_t after;
};

/*
 * Samples read where a view has them, in runs of up to 7 at a time: each
 * place is the sample the usual way reads (its time, event, offset and
 * bytes), the caller's entries around it untouched, and every sample read
 * once, whichever way.
 */
static void test_places(void **state)
{
	struct whole_view v = { .b = &pipe_data };
	struct ehd__perf_sample s;
	struct ehd__perf_file *f;
	struct placed e[7];
	size_t placed = 0, samples = 0, n, k;

	(void)state;
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_view(f, whole_view, no_source, &v,
					     "view"), 0);
	for (;;) {
		memset(e, 0xa5, sizeof(e));
		n = ehd__perf_next_places(f, &e[0].pl, sizeof(e[0]), 7,
					  SIZE_MAX);
		assert_true(n <= 7);
		for (k = 0; k < n; k++) {
			assert_int_equal(e[k].before, 0xa5a5a5a5a5a5a5a5ull);
			assert_int_equal(e[k].after, 0xa5a5a5a5a5a5a5a5ull);
			assert_true(e[k].pl.borrowed);
			assert_int_equal(le32(e[k].pl.data),
					 PERF_RECORD_SAMPLE);
			assert_int_equal(e[k].pl.size, e[k].pl.data[6] |
					 e[k].pl.data[7] << 8);
			/* in the view, where the stream offset says */
			assert_ptr_equal(e[k].pl.data,
					 pipe_data.p + e[k].pl.offset);
			assert_int_equal(ehd__perf_parse_sample(f,
						e[k].pl.data, e[k].pl.offset,
						&s), 0);
			assert_ptr_equal(e[k].pl.desc, s.desc);
			assert_int_equal(e[k].pl.time, s.time);
		}
		if (n < 7)
			assert_int_equal(e[n].before, 0xa5a5a5a5a5a5a5a5ull);
		placed += n;
		samples += n;
		if (!n && !next_usual(f, &samples))
			break;
	}
	assert_int_equal(samples, 551);
	assert_true(placed > 500);
	ehd__perf_free(f);
}

/* ---- a hand-made file in both byte orders -------------------------------- */

#define HM_ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	       PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | \
	       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
#define HM_RF (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID | \
	       PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

static void hm_attr(struct wr *x, uint32_t type, uint64_t config,
		    uint64_t st, const uint64_t *ids, size_t nids)
{
	size_t at = rec_begin(x, EHD__PERF_RECORD_HEADER_ATTR), i;
	uint64_t bits = 1 | 1ull << 18;	/* disabled, sample_id_all */
	uint8_t fb[8];

	w4(x, type);
	w4(x, PERF_ATTR_SIZE_VER7);
	w8(x, config);
	w8(x, 1);		/* sample_period */
	w8(x, st);
	w8(x, HM_RF);
	for (i = 0; i < 8; i++)
		fb[i] = x->be ? rev8((uint8_t)(bits >> 8 * i)) :
				(uint8_t)(bits >> 8 * i);
	wbytes(x, fb, 8);
	for (i = 48; i < PERF_ATTR_SIZE_VER7; i += 8)
		w8(x, 0);
	for (i = 0; i < nids; i++)
		w8(x, ids[i]);
	rec_end(x, at);
}

static void hm_sample(struct wr *x, uint64_t id, uint64_t k)
{
	size_t at = rec_begin(x, PERF_RECORD_SAMPLE);
	static const char raw[11] = "raw-bytes!";

	w8(x, 0x1122334455667788ull + k);	/* ip */
	w4(x, 10 + k);				/* pid */
	w4(x, 11 + k);				/* tid */
	w8(x, 1000 + k);			/* time */
	w8(x, 0xdead0000 + k);			/* addr */
	w8(x, id);				/* id */
	w8(x, 7);				/* stream_id */
	w4(x, 3);				/* cpu */
	w4(x, 0);
	w8(x, 99);				/* period */
	w8(x, 2);				/* read: nr */
	w8(x, 5);				/* time_enabled */
	w8(x, 100); w8(x, 1001); w8(x, 0);	/* value, id, lost */
	w8(x, 200); w8(x, 1002); w8(x, 1);
	w8(x, 3);				/* callchain */
	w8(x, 0xfffffffffffffe00ull);
	w8(x, 0x401000);
	w8(x, 0x401234);
	w4(x, sizeof(raw));			/* raw */
	wbytes(x, raw, sizeof(raw));
	wbytes(x, "\0\0\0\0\0\0\0\0", 8 - (4 + sizeof(raw)) % 8);
	rec_end(x, at);
}

static void hm_feature_string(struct wr *x, unsigned int feat, const char *s)
{
	size_t at = rec_begin(x, EHD__PERF_RECORD_HEADER_FEATURE);
	uint8_t pad[64] = { 0 };

	w8(x, feat);
	w4(x, 64);
	wbytes(x, s, strlen(s));
	wbytes(x, pad, 64 - strlen(s));
	rec_end(x, at);
}

static void make_handmade(struct wr *x)
{
	static const uint64_t ids1[] = { 100, 101 }, ids2[] = { 200 };
	size_t at;

	wbytes(x, x->be ? "2ELIFREP" : "PERFILE2", 8);
	w8(x, 16);
	hm_attr(x, PERF_TYPE_HARDWARE, 0, HM_ST, ids1, 2);
	hm_attr(x, PERF_TYPE_HARDWARE, 1, HM_ST, ids2, 1);
	hm_feature_string(x, EHD__PERF_FEAT_HOSTNAME, "handmade");
	at = rec_begin(x, EHD__PERF_RECORD_HEADER_FEATURE);
	w8(x, EHD__PERF_FEAT_CLOCK_DATA);
	w4(x, 1);
	w4(x, 1);
	w8(x, 5000000000ull);	/* wall clock */
	w8(x, 1000);		/* clock */
	rec_end(x, at);
	at = rec_begin(x, EHD__PERF_RECORD_HEADER_FEATURE);
	w8(x, EHD__PERF_FEAT_LAST);
	rec_end(x, at);
	at = rec_begin(x, EHD__PERF_RECORD_EVENT_UPDATE);
	w8(x, 2);
	w8(x, 101);
	wbytes(x, "cycles:u\0\0\0\0\0\0\0\0", 16);
	rec_end(x, at);
	hm_sample(x, 100, 0);
	/* AUXTRACE with 24 bytes of data after it. */
	at = rec_begin(x, EHD__PERF_RECORD_AUXTRACE);
	w8(x, 24);
	w8(x, 0);
	w8(x, 0);
	w4(x, 0); w4(x, 0); w4(x, 0); w4(x, 0);
	rec_end(x, at);
	wbytes(x, "aux data aux data aux da", 24);
	/* COMM with sample_id: tid, time, id, stream_id, cpu. */
	at = rec_begin(x, PERF_RECORD_COMM);
	w4(x, 42);
	w4(x, 43);
	wbytes(x, "abc\0\0\0\0\0", 8);
	w4(x, 42); w4(x, 43);
	w8(x, 4242);
	w8(x, 200);
	w8(x, 8);
	w4(x, 5); w4(x, 0);
	rec_end(x, at);
	hm_sample(x, 200, 1);
	at = rec_begin(x, EHD__PERF_RECORD_FINISHED_ROUND);
	rec_end(x, at);
	hm_sample(x, 999, 2);	/* no such id */
}

static void check_handmade(bool be)
{
	struct wr x = { { 0 }, be };
	const struct ehd__perf_record *rec;
	const struct ehd__perf_sample *s;
	struct ehd__perf_file *f;
	char path[PATH_MAX];
	int fd, i, n = 0;

	make_handmade(&x);
	fd = temp_file(x.b.p, x.b.len, path);
	unlink(path);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, "handmade"), 0);
	assert_int_equal(ehd__perf_session(f)->big_endian, be);
	for (;;) {
		int r = ehd__perf_next(f, &rec);

		if (r < 0)
			fail_msg("handmade: %s", ehd__perf_error(f, NULL));
		if (!r)
			break;
		n++;
		s = &rec->sample;
		if (rec->type == PERF_RECORD_COMM) {
			assert_true(rec->has_sample);
			assert_int_equal(s->fields, PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU);
			assert_int_equal(s->pid, 42);
			assert_int_equal(s->tid, 43);
			assert_int_equal(s->time, 4242);
			assert_int_equal(s->id, 200);
			assert_int_equal(s->stream_id, 8);
			assert_int_equal(s->cpu, 5);
			assert_ptr_equal(s->desc, ehd__perf_desc(f, 1));
			continue;
		}
		if (rec->type != PERF_RECORD_SAMPLE) {
			assert_false(rec->has_sample);
			continue;
		}
		assert_true(rec->has_sample);
		if (s->id == 999) {
			assert_null(s->desc);
			continue;
		}
		i = s->id == 100 ? 0 : 1;
		assert_non_null(s->desc);
		assert_ptr_equal(s->desc, ehd__perf_desc(f, (size_t)i));
		assert_string_equal(s->desc->name, i ? "" : "cycles:u");
		assert_int_equal(s->desc->attr.sample_type, HM_ST);
		assert_int_equal(s->desc->attr.read_format, HM_RF);
		assert_true(s->desc->attr.disabled);
		assert_true(s->desc->attr.sample_id_all);
		assert_false(s->desc->attr.inherit);
		assert_int_equal(s->desc->attr.config, (uint64_t)i);
		assert_int_equal(s->fields, HM_ST);
		assert_int_equal(s->ip, 0x1122334455667788ull + (uint64_t)i);
		assert_int_equal(s->pid, 10 + i);
		assert_int_equal(s->tid, 11 + i);
		assert_int_equal(s->time, 1000 + i);
		assert_int_equal(ehd__perf_time_to_utc(f, s->time),
				 5000000000ull + (uint64_t)i);
		assert_int_equal(s->addr, 0xdead0000 + (uint64_t)i);
		assert_int_equal(s->stream_id, 7);
		assert_int_equal(s->cpu, 3);
		assert_int_equal(s->period, 99);
		assert_int_equal(s->read_count, 8);
		assert_int_equal(s->read[0], 2);
		assert_int_equal(s->read[1], 5);
		assert_int_equal(s->read[2], 100);
		assert_int_equal(s->read[3], 1001);
		assert_int_equal(s->read[5], 200);
		assert_int_equal(s->read[7], 1);
		assert_int_equal(s->callchain_count, 3);
		assert_int_equal(s->callchain[0], 0xfffffffffffffe00ull);
		assert_int_equal(s->callchain[2], 0x401234);
		assert_int_equal(s->raw_size, 11);
		assert_memory_equal(s->raw, "raw-bytes!", 11);
	}
	assert_int_equal(n, 12);
	assert_string_equal(ehd__perf_session(f)->hostname, "handmade");
	assert_int_equal(ehd__perf_session(f)->clock_offset,
			 5000000000ull - 1000);
	assert_ptr_equal(ehd__perf_find_desc(f, 101), ehd__perf_desc(f, 0));
	ehd__perf_free(f);
	close(fd);

	/* Every cut of it fails or ends at a record boundary, without a crash. */
	for (i = 0; i < (int)x.b.len; i++) {
		struct run r;

		run_mem(x.b.p, (size_t)i, &r);
		run_free(&r);
	}
	free(x.b.p);
}

static void test_handmade(void **state)
{
	check_handmade(false);
	check_handmade(true);
}

/* One event, no id in its samples: every sample is that event's. */
static void test_single_attr(void **state)
{
	struct wr x = { { 0 }, false };
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	char path[PATH_MAX];
	size_t at;
	int fd;

	wbytes(&x, "PERFILE2", 8);
	w8(&x, 16);
	hm_attr(&x, PERF_TYPE_SOFTWARE, 9, PERF_SAMPLE_TIME, NULL, 0);
	at = rec_begin(&x, PERF_RECORD_SAMPLE);
	w8(&x, 77);
	rec_end(&x, at);
	fd = temp_file(x.b.p, x.b.len, path);
	unlink(path);
	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open_fd(f, fd, NULL), 0);
	assert_int_equal(ehd__perf_next(f, &rec), 1);
	assert_int_equal(rec->type, EHD__PERF_RECORD_HEADER_ATTR);
	assert_int_equal(ehd__perf_next(f, &rec), 1);
	assert_int_equal(rec->type, PERF_RECORD_SAMPLE);
	assert_int_equal(rec->sample.time, 77);
	assert_int_equal(rec->sample.fields, PERF_SAMPLE_TIME);
	assert_ptr_equal(rec->sample.desc, ehd__perf_desc(f, 0));
	/* No CLOCK_DATA: times stay as they are. */
	assert_int_equal(ehd__perf_time_to_utc(f, 77), 77);
	assert_int_equal(ehd__perf_next(f, &rec), 0);
	assert_int_equal(ehd__perf_next(f, &rec), 0);
	assert_null(ehd__perf_error(f, NULL));
	ehd__perf_free(f);
	close(fd);
	free(x.b.p);
}

static void test_errors(void **state)
{
	struct ehd__perf_file *f;
	const char *why;
	uint64_t off = 99;
	struct run r;
	uint8_t junk[64];

	assert_int_equal(ehd__perf_new(&f), 0);
	assert_int_equal(ehd__perf_open(f, "/nonexistent/perf.data"), -ENOENT);
	why = ehd__perf_error(f, &off);
	assert_non_null(why);
	assert_non_null(strstr(why, "/nonexistent/perf.data"));
	assert_int_equal(off, 0);
	ehd__perf_free(f);
	ehd__perf_free(NULL);

	run_mem("", 0, &r);
	assert_int_equal(r.err, -EBADMSG);
	run_free(&r);

	memset(junk, 'x', sizeof(junk));
	run_mem(junk, sizeof(junk), &r);
	assert_int_equal(r.err, -EBADMSG);
	assert_non_null(strstr(r.reason, "magic"));
	assert_int_equal(r.err_off, 0);
	run_free(&r);

	/* A header size that is neither 16 nor a file header. */
	memcpy(junk, "PERFILE2", 8);
	memset(junk + 8, 0, 8);
	junk[8] = 40;
	run_mem(junk, sizeof(junk), &r);
	assert_int_equal(r.err, -EBADMSG);
	assert_int_equal(r.err_off, 8);
	run_free(&r);

	/* A record shorter than its header. */
	memset(junk + 8, 0, 56);
	junk[8] = 16;
	junk[16] = 3;
	junk[22] = 4;
	run_mem(junk, 24, &r);
	assert_int_equal(r.err, -EBADMSG);
	assert_int_equal(r.err_off, 16);
	run_free(&r);

	/* A feature section larger than the file. */
	{
		struct blob b = { 0 };
		uint64_t big = 1ull << 40;
		size_t table = (size_t)(le64(perf_data.p + 40) +
					le64(perf_data.p + 48));

		put(&b, perf_data.p, perf_data.len);
		memcpy(b.p + table + 8, &big, 8);
		run_mem(b.p, b.len, &r);
		assert_int_equal(r.err, -EFBIG);
		assert_int_equal(r.err_off, table);
		run_free(&r);
		free(b.p);
	}

	/*
	 * A recording that did not end: perf record writes the data size
	 * and the feature sections when it ends, so the data section's
	 * records are where the feature table is looked for; and (the second
	 * time) a recorder killed before it set any feature bit: its records
	 * are not read as nothing. With no byte after the header, the file
	 * is empty.
	 */
	{
		struct blob b = { 0 };
		int bits;

		put(&b, perf_data.p, perf_data.len);
		memset(b.p + 48, 0, 8);
		b.len = (size_t)(le64(perf_data.p + 40) +
				 le64(perf_data.p + 48));
		for (bits = 1; bits >= 0; bits--) {
			if (!bits)
				memset(b.p + 72, 0, 32);
			run_mem(b.p, b.len, &r);
			assert_int_equal(r.err, -EBADMSG);
			assert_int_equal(r.err_off, 48);
			assert_non_null(strstr(r.reason, "did not end"));
			run_free(&r);
		}
		b.len = (size_t)le64(perf_data.p + 40);
		run_mem(b.p, b.len, &r);
		assert_int_equal(r.err, 0);
		assert_int_equal(r.nrec, 0);
		run_free(&r);
		free(b.p);
	}

	/*
	 * A recording that did end with no data: its feature table right
	 * at the data offset, the sections moved up with it. Read, empty.
	 */
	{
		struct blob b = { 0 };
		size_t data = (size_t)le64(perf_data.p + 40);
		uint64_t gap = le64(perf_data.p + 48), at, zero = 0;
		size_t k, nfeat = 0;

		for (k = 0; k < 32; k++)
			nfeat += (size_t)__builtin_popcount(perf_data.p[72 + k]);
		put(&b, perf_data.p, data);
		put(&b, perf_data.p + data + gap,
		    perf_data.len - data - (size_t)gap);
		memcpy(b.p + 48, &zero, 8);
		for (k = 0; k < nfeat; k++) {
			at = le64(b.p + data + 16 * k) - gap;
			memcpy(b.p + data + 16 * k, &at, 8);
		}
		run_mem(b.p, b.len, &r);
		assert_int_equal(r.err, 0);
		assert_int_equal(r.nsamples, 0);
		run_free(&r);
		free(b.p);
	}
}

int main(void)
{
	const char *dir = getenv("EH_SHARED_DIR");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_data),
		cmocka_unit_test(test_pipe_data),
		cmocka_unit_test(test_print_fmt),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_lean),
		cmocka_unit_test(test_lean_damaged),
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_handmade),
		cmocka_unit_test(test_single_attr),
		cmocka_unit_test(test_errors),
	};
	int r;

	if (!dir || !*dir || load(dir, "perf.data", &perf_data) ||
	    load(dir, "pipe.data", &pipe_data) ||
	    load(dir, "perf.data.linux.json", &perf_json) ||
	    load(dir, "pipe.data.linux.json", &pipe_json)) {
		printf("SKIP: no perf.data corpus under EH_SHARED_DIR=%s\n",
		       dir ? dir : "(unset)");
		return SKIP;
	}
	signal(SIGPIPE, SIG_IGN);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	run_free(&perf_run);
	run_free(&pipe_run);
	free(perf_data.p);
	free(pipe_data.p);
	free(perf_json.p);
	free(pipe_json.p);
	return r ? 1 : 0;
}
