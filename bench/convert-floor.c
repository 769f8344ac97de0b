// SPDX-License-Identifier: MIT
/*
 * convert-floor - the least a perf.data to nettrace conversion of
 * bench/producer's events can cost, against what libehdecode's costs
 *
 *	convert-floor [-r REPEATS] [-o MODE] PERF_DATA
 *
 * PERF_DATA is a normal-mode perf.data of bench/producer's "Bench" events
 * (ehrecord -F perf -e EhBench_L4K1). It is read into memory once; then,
 * REPEATS times each (default 5), the process's CPU time per sample of:
 *
 *   touch    each sample record copied once to an output buffer (the bytes
 *            moved, nothing looked at): what any conversion pays at least
 *   floor    the conversion stripped to what it cannot do without: the
 *            sample's fields at the offsets its sample_type gives, its
 *            EventHeader header and metadata compared with the last
 *            event's (one type), and a nettrace row written: a flags byte,
 *            thread, CPU and time delta as varuints, then the payload with
 *            its string widened to UTF-16. No time order across CPUs, no
 *            thread table, no blocks, no checks beyond the sizes; the
 *            layout of the Bench event is taken as known once its
 *            metadata has been seen (it is checked there). Nothing real
 *            can be cheaper
 *   general  ehd_reader_next() and ehd_writer_event() to a nettrace on
 *            /dev/null: every event made an ehd_event
 *   library  the same with ehd_reader_pass(), which writes the events
 *            of a type already written without an ehd_event: what
 *            ehrecord does
 *   read     the file read() through in the perf reader's 64-KiB blocks,
 *            nothing looked at: what general and library pay that a live
 *            recording does not (its converter reads the records where
 *            the drain thread put them). Under QEMU's TCG the kernel's
 *            byte-at-a-time copy makes it most of library's cost
 *
 * (-o MODE: that one alone, for a profiler to look at) and prints
 * "name ns_per_sample" lines, the best of the repeats, with the library's
 * cost over the floor's, the general path's over it, and the library's
 * less read's over the floor's.
 * bench/run-live.sh runs it in the test VM on a file it recorded, so that
 * the floor is in the VM's units: a converter's cost per event while
 * recording is at least the floor's.
 *
 * Exit status: 0, 1 on error, 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "core/ehd-bytes.h"

#define PERF_RECORD_SAMPLE	9
#define PERF_TYPE_TRACEPOINT	2

#define SAMPLE_IP		(1u << 0)
#define SAMPLE_TID		(1u << 1)
#define SAMPLE_TIME		(1u << 2)
#define SAMPLE_ADDR		(1u << 3)
#define SAMPLE_ID		(1u << 6)
#define SAMPLE_CPU		(1u << 7)
#define SAMPLE_PERIOD		(1u << 8)
#define SAMPLE_STREAM_ID	(1u << 9)
#define SAMPLE_RAW		(1u << 10)
#define SAMPLE_IDENTIFIER	(1u << 16)

#define OUT_BYTES		(1u << 20)
#define READ_BLOCK		(64u << 10)	/* perf-file.c's RBUF_SIZE */
#define COMMON_BYTES		8	/* a tracepoint record's common fields */
#define BENCH_FIXED		20	/* count, square, ratio: before the string */
#define BENCH_TAIL		4	/* mixed: after it */

struct trace {
	const uint8_t *data;	/* the data section */
	size_t size;
	uint64_t sample_type;	/* of the tracepoint's attr */
	size_t samples;		/* its sample records */
};

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint8_t *put_varuint(uint8_t *d, uint64_t v)
{
	while (v >= 0x80) {
		*d++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*d++ = (uint8_t)v;
	return d;
}

/* The file in memory, its data section and the tracepoint's sample_type. */
static int load(const char *path, uint8_t **buf, struct trace *t)
{
	uint64_t attr_size, attrs, nattrs, i;
	struct stat st;
	size_t size;
	uint8_t *b;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < 104) {
		fprintf(stderr, "convert-floor: %s: %s\n", path,
			fd < 0 ? strerror(errno) : "not a perf.data");
		return -1;
	}
	b = malloc((size_t)st.st_size);
	if (!b || read(fd, b, (size_t)st.st_size) != st.st_size) {
		fprintf(stderr, "convert-floor: %s: cannot read it\n", path);
		close(fd);
		return -1;
	}
	close(fd);
	*buf = b;
	attr_size = ehd__get64(b + 16);
	attrs = ehd__get64(b + 24);
	nattrs = attr_size ? ehd__get64(b + 32) / attr_size : 0;
	if (memcmp(b, "PERFILE2", 8) || ehd__get64(b + 40) + ehd__get64(b + 48) >
	    (uint64_t)st.st_size || attrs + nattrs * attr_size >
	    (uint64_t)st.st_size) {
		fprintf(stderr, "convert-floor: %s: not a normal-mode perf.data\n",
			path);
		return -1;
	}
	t->data = b + ehd__get64(b + 40);
	t->size = ehd__get64(b + 48);
	for (i = 0; i < nattrs; i++)
		if (ehd__get32(b + attrs + i * attr_size) == PERF_TYPE_TRACEPOINT)
			t->sample_type = ehd__get64(b + attrs + i * attr_size + 24);
	if (!(t->sample_type & SAMPLE_RAW)) {
		fprintf(stderr, "convert-floor: %s: no tracepoint samples\n",
			path);
		return -1;
	}
	for (i = 0; i + 8 <= t->size; i += size) {
		size = t->data[i + 6] | (size_t)t->data[i + 7] << 8;
		if (size < 8 || i + size > t->size)	/* (as touch() stops) */
			break;
		t->samples += ehd__get32(t->data + i) == PERF_RECORD_SAMPLE;
	}
	return 0;
}

/* Each sample record copied once: the samples. */
static size_t touch(const struct trace *t, uint8_t *out)
{
	size_t pos = 0, len = 0, n = 0, size;

	while (pos + 8 <= t->size) {
		size = t->data[pos + 6] | (size_t)t->data[pos + 7] << 8;
		if (size < 8 || pos + size > t->size)
			break;
		if (ehd__get32(t->data + pos) == PERF_RECORD_SAMPLE) {
			if (len + size > OUT_BYTES)
				len = 0;
			ehd__copy_span(out + len, t->data + pos, size);
			len += size;
			n++;
		}
		pos += size;
	}
	__asm__ volatile("" : : "r"(out) : "memory");
	return n;
}

/*
 * The Bench event's EventHeader (header, metadata extension) at @eh, of
 * @n bytes: the length of what precedes its payload, or 0.
 */
static size_t bench_prefix(const uint8_t *eh, size_t n)
{
	size_t meta;

	if (n < 12 || !(eh[0] & 4) || (eh[10] | eh[11] << 8) != 1)
		return 0;
	meta = eh[8] | (size_t)eh[9] << 8;
	if (12 + meta + BENCH_FIXED + 2 + BENCH_TAIL > n ||
	    memcmp(eh + 12, "Bench", 6))
		return 0;
	return 12 + meta;
}

/* The stripped conversion: the samples converted, or 0 on bad input. */
static size_t floor_run(const struct trace *t, uint8_t *out)
{
	const uint64_t st = t->sample_type;
	uint8_t ident[512], *d = out;
	size_t pos = 0, n = 0, ident_len = 0, size;
	uint64_t last_time = 0;

	while (pos + 8 <= t->size) {
		const uint8_t *p = t->data + pos, *q, *eh, *pl;
		uint32_t tid = 0, cpu = 0, raw_size, k;
		uint64_t time = 0;

		size = p[6] | (size_t)p[7] << 8;
		if (size < 8 || pos + size > t->size)
			return 0;
		pos += size;
		if (ehd__get32(p) != PERF_RECORD_SAMPLE)
			continue;
		q = p + 8;
		q += st & SAMPLE_IDENTIFIER ? 8 : 0;
		q += st & SAMPLE_IP ? 8 : 0;
		if (st & SAMPLE_TID) {
			tid = ehd__get32(q + 4);
			q += 8;
		}
		if (st & SAMPLE_TIME) {
			time = ehd__get64(q);
			q += 8;
		}
		q += st & SAMPLE_ADDR ? 8 : 0;
		q += st & SAMPLE_ID ? 8 : 0;
		q += st & SAMPLE_STREAM_ID ? 8 : 0;
		if (st & SAMPLE_CPU) {
			cpu = ehd__get32(q);
			q += 8;
		}
		q += st & SAMPLE_PERIOD ? 8 : 0;
		raw_size = ehd__get32(q);
		if ((size_t)(q + 4 - p) + raw_size > size ||
		    raw_size < COMMON_BYTES)
			return 0;
		eh = q + 4 + COMMON_BYTES;
		raw_size -= COMMON_BYTES;
		/* One type: the same header and metadata as the last. */
		if (!ident_len || ident_len > raw_size ||
		    memcmp(eh, ident, ident_len)) {
			ident_len = bench_prefix(eh, raw_size);
			if (!ident_len || ident_len > sizeof(ident))
				return 0;
			memcpy(ident, eh, ident_len);
		}
		if (d + 64 + 2 * raw_size > out + OUT_BYTES)
			d = out;
		pl = eh + ident_len;
		*d++ = 0x1f;			/* flags */
		d = put_varuint(d, tid);
		d = put_varuint(d, cpu);
		d = put_varuint(d, time - last_time);
		last_time = time;
		memcpy(d, pl, BENCH_FIXED);
		d += BENCH_FIXED;
		for (k = BENCH_FIXED; k < raw_size - ident_len && pl[k]; k++) {
			*d++ = pl[k];		/* ASCII to UTF-16 */
			*d++ = 0;
		}
		*d++ = 0;
		*d++ = 0;
		if (k + 1 + BENCH_TAIL > raw_size - ident_len)
			return 0;
		memcpy(d, pl + k + 1, BENCH_TAIL);
		d += BENCH_TAIL;
		n++;
	}
	__asm__ volatile("" : : "r"(out) : "memory");
	return n;
}

/*
 * The library's conversion to nettrace on /dev/null, by ehd_reader_pass()
 * (@pass) or ehd_reader_next(): the events, or 0.
 */
static size_t library_run(const char *path, bool pass)
{
	const struct ehd_event *ev;
	struct ehd_writer *w = NULL;
	struct ehd_reader *r;
	uint64_t passed = 0;
	size_t n = 0;
	int fd, err;

	r = ehd_reader_new(EHD_READER_SORT_TIME);
	fd = open("/dev/null", O_WRONLY);
	if (r && fd >= 0 && !ehd_reader_open(r, path))
		w = ehd_writer_new(ehd_writer_format("nettrace", NULL), fd, 0,
				   0);
	err = w ? ehd_writer_begin_trace(w, path, ehd_reader_trace_info(r)) :
		  -1;
	while (!err) {
		err = pass ? ehd_reader_pass(r, w, &ev, &passed) :
			     ehd_reader_next(r, &ev);
		n += passed;	/* (whatever it returned) */
		if (err <= 0)
			break;
		err = ev ? ehd_writer_event(w, ev) : 0;
		n += !!ev;
	}
	if (!err && w)
		err = ehd_writer_close(w);
	if (err < 0)
		fprintf(stderr, "convert-floor: library: %s\n",
			w && ehd_writer_error(w, NULL) ?
			ehd_writer_error(w, NULL) :
			r ? ehd_reader_error(r, NULL) : "out of memory");
	ehd_writer_free(w);
	ehd_reader_free(r);
	if (fd >= 0)
		close(fd);
	return err < 0 ? 0 : n;
}

/* PERF_DATA read() through as the library reads it: its samples, or 0. */
static size_t read_run(const char *path, const struct trace *t,
		       uint8_t *out)
{
	ssize_t got;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	while ((got = read(fd, out, READ_BLOCK)) > 0)
		;
	close(fd);
	__asm__ volatile("" : : "r"(out) : "memory");
	return got ? 0 : t->samples;
}

#define NMODES 5

static const char *const names[NMODES] = { "touch", "floor", "general",
					   "library", "read" };

static int usage(void)
{
	fprintf(stderr, "usage: convert-floor [-r REPEATS] [-o touch|floor|general|library|read] PERF_DATA\n");
	return 2;
}

int main(int argc, char **argv)
{
	double best[NMODES] = { 0 }, t;
	size_t n[NMODES] = { 0 };
	struct trace tr = { 0 };
	uint8_t *buf = NULL, *out;
	long reps = 5, rep;
	int opt, k, only = -1;

	while ((opt = getopt(argc, argv, "r:o:")) != -1) {
		if (opt == 'r' && (reps = strtol(optarg, NULL, 10)) > 0)
			continue;
		for (k = 0; opt == 'o' && k < NMODES && strcmp(optarg, names[k]); k++)
			;
		if (opt == 'o' && k < NMODES) {
			only = k;
			continue;
		}
		return usage();
	}
	if (optind != argc - 1)
		return usage();
	out = malloc(OUT_BYTES + 4096);
	if (!out || load(argv[optind], &buf, &tr))
		return 1;
	for (rep = 0; rep < reps; rep++) {
		for (k = 0; k < NMODES; k++) {
			if (only >= 0 && k != only)
				continue;
			t = cpu_now();
			n[k] = k == 0 ? touch(&tr, out) :
			       k == 1 ? floor_run(&tr, out) :
			       k == 4 ? read_run(argv[optind], &tr, out) :
			       library_run(argv[optind], k == 3);
			t = cpu_now() - t;
			if (!n[k]) {
				fprintf(stderr, "convert-floor: %s: no samples converted\n",
					names[k]);
				return 1;
			}
			t = t / (double)n[k] * 1e9;
			if (!rep || t < best[k])
				best[k] = t;
		}
	}
	for (k = 0; k < NMODES; k++)
		if (only < 0 || k == only)
			printf("%-8s %8.1f ns per sample (%zu samples)\n",
			       names[k], best[k], n[k]);
	if (only < 0) {
		printf("library / floor: %.1fx\n", best[3] / best[1]);
		printf("general / library: %.2fx\n", best[2] / best[3]);
		printf("library less read / floor: %.1fx\n",
		       (best[3] - best[4]) / best[1]);
	}
	free(buf);
	free(out);
	return 0;
}
