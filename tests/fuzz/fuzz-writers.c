// SPDX-License-Identifier: MIT
/*
 * fuzz-writers.c - libFuzzer target: the writers that convert events to
 * other formats (Chrome trace JSON, Heph, nettrace, CSV and the JSON
 * document), fed with what the public reader decodes from arbitrary
 * bytes read from a memfd as a file (any input kind, as fuzz-reader.c
 * reads them). The input may be read twice, as two sources of the same
 * output. Errors are fine; crashes, memory errors and undefined
 * behaviour are not.
 *
 * What the writers wrote must also hold together, a property and not
 * only "no crash" (a failure is reported with __builtin_trap()):
 *  - the Chrome and JSON outputs are each one JSON document (their syntax
 *    is checked); Chrome's, and JSON's when EHD_WRITER_UTF8_STRICT is
 *    chosen, is well-formed UTF-8 (the default JSON renders values byte
 *    for byte as the reference decoder does);
 *  - the nettrace and Heph outputs read back without an error, giving as
 *    many events as the writer says it wrote;
 *  - converted to nettrace by ehd_reader_pass(), which writes some events
 *    without an ehd_event, the input gives the same bytes as by
 *    ehd_reader_next() and ehd_writer_event();
 *  - under a file size limit (RLIMIT_FSIZE, for some inputs) an output
 *    that says it was cut short for want of room (no_room) is as
 *    complete as one that was not: one JSON document, a nettrace stream
 *    or Heph trace of the events it says it holds.
 *
 * The options come from a checksum of the input (see fuzz_sel()): time
 * sorting and system events for the reader, the second source, the
 * writers' flags and meta.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create(), when built without config.h */
#endif
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ehdecode/event.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "core/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz-touch.h"

/* ---- a JSON syntax check ---- */

/* Deeper than any output nests: EHD_STRUCT_DEPTH_MAX and a few levels. */
#define JSON_DEPTH_MAX 64

struct json {
	const uint8_t *p;
	const uint8_t *end;
};

static void json_space(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool json_lit(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static bool json_digits(struct json *j)
{
	const uint8_t *at = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > at;
}

static bool json_number(struct json *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (j->p == j->end || *j->p < '1' || *j->p > '9' ||
		 !json_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return false;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

static bool json_string(struct json *j)
{
	int hex;

	if (j->p == j->end || *j->p != '"')
		return false;
	for (j->p++; j->p < j->end; j->p++) {
		if (*j->p == '"') {
			j->p++;
			return true;
		}
		if (*j->p < 0x20)
			return false;
		if (*j->p != '\\')
			continue;
		if (++j->p == j->end)
			return false;
		if (*j->p != 'u') {
			if (!memchr("\"\\/bfnrt", *j->p, 8))
				return false;
			continue;
		}
		for (hex = 0; hex < 4; hex++)
			if (++j->p == j->end || !memchr("0123456789abcdefABCDEF",
							*j->p, 22))
				return false;
	}
	return false;
}

static bool json_value(struct json *j, int depth);

/* An object (@close '}') or an array (']'), its opening bracket read. */
static bool json_members(struct json *j, uint8_t close, int depth)
{
	json_space(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		if (close == '}') {
			if (!json_string(j))
				return false;
			json_space(j);
			if (j->p == j->end || *j->p++ != ':')
				return false;
		}
		if (!json_value(j, depth + 1))
			return false;
		json_space(j);
		if (j->p == j->end)
			return false;
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
		json_space(j);
	}
}

static bool json_value(struct json *j, int depth)
{
	json_space(j);
	if (j->p == j->end || depth > JSON_DEPTH_MAX)
		return false;
	switch (*j->p) {
	case '{':
	case '[':
		return json_members(j, *j->p++ == '{' ? '}' : ']', depth);
	case '"':
		return json_string(j);
	case 't':
		return json_lit(j, "true");
	case 'f':
		return json_lit(j, "false");
	case 'n':
		return json_lit(j, "null");
	default:
		return json_number(j);
	}
}

/* Is @p one JSON document (after a UTF-8 BOM, if any)? */
static bool json_document(const uint8_t *p, size_t n)
{
	struct json j = { p, p + n };

	if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		j.p += 3;
	if (!json_value(&j, 0))
		return false;
	json_space(&j);
	return j.p == j.end;
}

/* ---- the target ---- */

/*
 * What the memfd @fd holds is one JSON document, well-formed UTF-8 when
 * @utf8, or traps.
 */
static void check_json(int fd, bool utf8)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) || !st.st_size)
		__builtin_trap();
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return;
	if (!json_document(p, (size_t)st.st_size))
		__builtin_trap();
	if (utf8 && ehd__utf8_well_formed(p, (size_t)st.st_size) !=
		    (size_t)st.st_size)
		__builtin_trap();
	munmap(p, (size_t)st.st_size);
}

/* The output in @fd reads whole as @kind, @written events, or traps. */
static void check_readback(int fd, int kind, uint64_t written)
{
	struct ehd_reader *r = ehd_reader_new(0);
	const struct ehd_event *ev;
	uint64_t n = 0;
	int err;

	if (!r)
		return;
	err = ehd_reader_open_fd(r, fd, "fuzz-out");
	while (!err && (err = ehd_reader_next(r, &ev)) > 0) {
		touch_event(ev);
		n++;
		err = 0;
	}
	if (err < 0 || ehd_reader_kind(r) != kind || n != written)
		__builtin_trap();
	ehd_reader_free(r);
}

/* One source: the input in @fd, read with @rflags, to every writer. */
static void one_source(int fd, struct ehd_writer **w, size_t nw,
		       unsigned int rflags, const char *name)
{
	const struct ehd_event *ev;
	struct ehd_reader *r;
	uint64_t off;
	size_t i;
	int err, n = 0;

	r = ehd_reader_new(rflags);
	if (!r)
		return;
	err = ehd_reader_open_fd(r, fd, name);
	for (i = 0; i < nw; i++)
		ehd_writer_begin_trace(w[i], name, ehd_reader_trace_info(r));
	while (!err && n++ < MAX_EVENTS && (err = ehd_reader_next(r, &ev)) > 0) {
		touch_event(ev);
		for (i = 0; i < nw; i++)
			touch_write(w[i], ev);
		err = 0;
	}
	if (err < 0)
		touch_str(ehd_reader_error(r, &off));
	/* The writers end the source before the reader goes: events point
	 * into it. */
	for (i = 0; i < nw; i++)
		ehd_writer_end(w[i]);
	ehd_reader_free(r);
}

/*
 * The input in @fd to nettrace, time-sorted, by ehd_reader_pass() (@pass)
 * or not: the output's bytes in a memfd (-1 when it failed, or when the
 * input has more than MAX_EVENTS events: the two ways stop apart).
 */
static int to_nettrace(int fd, bool pass)
{
	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
	int out = memfd_create("fuzz-pass", MFD_CLOEXEC), err = -EINVAL;
	struct ehd_writer *w = out >= 0 ?
			       ehd_writer_new(EHD_OUT_NETTRACE, out, 0, 0) :
			       NULL;
	const struct ehd_event *ev;
	uint64_t n = 0, passed = 0;
	bool ok = r && w;

	if (ok)
		err = ehd_reader_open_fd(r, fd, "fuzz");
	if (!err)
		err = ehd_writer_begin_trace(w, "fuzz",
					     ehd_reader_trace_info(r));
	while (!err && n < MAX_EVENTS) {
		err = pass ? ehd_reader_pass(r, w, &ev, &passed) :
			     ehd_reader_next(r, &ev);
		n += passed;
		if (err <= 0)
			break;
		if (ev) {
			touch_write(w, ev);
			n++;
		}
		err = 0;
	}
	if (n >= MAX_EVENTS || (w && (ehd_writer_end(w) ||
				      ehd_writer_close(w))))
		ok = false;
	ehd_writer_free(w);
	ehd_reader_free(r);
	if (!ok && out >= 0) {
		close(out);
		out = -1;
	}
	return out;
}

/* The same bytes both ways (to_nettrace()), or it traps. */
static void check_pass(int fd)
{
	int a = to_nettrace(fd, false), b = to_nettrace(fd, true);
	struct stat sa, sb;
	void *pa, *pb;

	if (a >= 0 && b >= 0 && !fstat(a, &sa) && !fstat(b, &sb)) {
		if (sa.st_size != sb.st_size)
			__builtin_trap();
		if (sa.st_size) {
			pa = mmap(NULL, (size_t)sa.st_size, PROT_READ,
				  MAP_PRIVATE, a, 0);
			pb = mmap(NULL, (size_t)sb.st_size, PROT_READ,
				  MAP_PRIVATE, b, 0);
			if (pa != MAP_FAILED && pb != MAP_FAILED &&
			    memcmp(pa, pb, (size_t)sa.st_size))
				__builtin_trap();
			if (pa != MAP_FAILED)
				munmap(pa, (size_t)sa.st_size);
			if (pb != MAP_FAILED)
				munmap(pb, (size_t)sb.st_size);
		}
	}
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
}

/*
 * The input in @fd written by the five writers: the Chrome, JSON,
 * nettrace and Heph outputs to memfds, checked once complete (read back:
 * nettrace and Heph); CSV to @devnull.
 */
static void write_all(int fd, int devnull, uint32_t sel)
{
	enum { CHROME, JSON, NETTRACE, HEPH, CSV, N };
	struct ehd_writer_stats st[N];
	struct ehd_writer *w[N];
	struct rlimit old, lim;
	int out[N], err[N], i;
	bool ok = true, room = sel >> 11 & 1;

	for (i = 0; i <= HEPH; i++)
		out[i] = memfd_create("fuzz-writers", MFD_CLOEXEC);
	out[CSV] = devnull;
	w[CHROME] = ehd_writer_new(EHD_OUT_CHROME, out[CHROME],
				   sel >> 3 & EHD_WRITER_FIELD_TAGS,
				   sel >> 10 & 1 ? EHD_META_ALL : EHD_META_DEFAULT);
	w[JSON] = ehd_writer_new(EHD_OUT_JSON, out[JSON],
				 sel >> 5 & (EHD_WRITER_SPACE |
					     EHD_WRITER_FIELD_TAGS |
					     EHD_WRITER_BOM |
					     EHD_WRITER_UTF8_STRICT),
				 sel >> 9 & 1 ? EHD_META_ALL : EHD_META_DEFAULT);
	w[NETTRACE] = ehd_writer_new(EHD_OUT_NETTRACE, out[NETTRACE], 0, 0);
	w[HEPH] = ehd_writer_new(EHD_OUT_HEPH, out[HEPH], 0, 0);
	w[CSV] = ehd_writer_new(EHD_OUT_CSV, out[CSV], 0, 0);
	for (i = 0; i < N; i++)
		ok = ok && out[i] >= 0 && w[i];
	/* Some inputs: files of 16 to 1,039 bytes at most. */
	if (room && !getrlimit(RLIMIT_FSIZE, &old)) {
		signal(SIGXFSZ, SIG_IGN);
		lim = old;
		lim.rlim_cur = 16 + (sel >> 16 & 0x3ff);
		room = !setrlimit(RLIMIT_FSIZE, &lim);
	} else {
		room = false;
	}
	if (ok) {
		one_source(fd, w, N, (sel & 1 ? EHD_READER_SORT_TIME : 0) |
			   (sel >> 1 & 1 ? EHD_READER_SYSTEM : 0), "fuzz");
		if (sel >> 2 & 1)
			one_source(fd, w, N, EHD_READER_SORT_TIME, "again");
	}
	for (i = 0; i < N; i++) {
		memset(&st[i], 0, sizeof(st[i]));
		err[i] = fuzz_end_writer(w[i], &st[i]);
		/* Cut short, it is complete with what fit. */
		if (err[i] && st[i].no_room)
			err[i] = 0;
	}
	if (room)
		setrlimit(RLIMIT_FSIZE, &old);
	/* Only complete outputs: a failed write is not the writer's doing. */
	if (ok && !err[CHROME])
		check_json(out[CHROME], true);
	if (ok && !err[JSON])
		check_json(out[JSON], sel >> 5 & EHD_WRITER_UTF8_STRICT);
	if (ok && !err[NETTRACE])
		check_readback(out[NETTRACE], EHD_INPUT_NETTRACE,
			       st[NETTRACE].events);
	/* (a Heph trace of no events may be empty: no file to read) */
	if (ok && !err[HEPH] && st[HEPH].events)
		check_readback(out[HEPH], EHD_INPUT_HEPH, st[HEPH].events);
	for (i = 0; i <= HEPH; i++)
		if (out[i] >= 0)
			close(out[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int devnull = fuzz_devnull(), fd;

	if (devnull < 0)
		return 0;
	fd = fuzz_input(NULL, 0, data, size);
	if (fd < 0)
		return 0;
	write_all(fd, devnull, fuzz_sel(data, size));
	check_pass(fd);
	close(fd);
	return 0;
}
