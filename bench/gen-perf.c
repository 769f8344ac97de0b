// SPDX-License-Identifier: MIT
/*
 * gen-perf - a perf.data of N samples, for the decoder benchmark
 *
 *	gen-perf [-c] [-r ROUND] [-s INDEX] N IN OUT
 *
 * IN is a normal-mode, little-endian perf.data (the conformance corpus's
 * perf.data). OUT gets IN's file header, attrs and feature sections as
 * they are and a new data section: the records of IN's data section that
 * are not PERF_RECORD_SAMPLE once, in their order, then IN's samples
 * repeated until there are N of them, with a PERF_RECORD_FINISHED_ROUND
 * after every ROUND samples (default 1000) and one at the end. Each
 * repetition moves the samples' PERF_SAMPLE_TIME on by the time span of
 * IN's samples plus 1 ns, so the rounds of OUT follow each other in time
 * as perf's do. The feature section table that follows the data section
 * is rewritten for the data section's new end.
 *
 *	-c	write the attrs as PERF_ATTR_SIZE_VER7 (128 bytes) when the
 *		bytes after those are zero, so that perf before 6.3 (which
 *		refuses a larger attr) can read OUT too; the attrs section
 *		stays where it is, with zeroes after it up to the ids/data.
 *	-s INDEX  repeat IN's sample INDEX (0 for the first in the file)
 *		alone, 1 ns apart: one kind of event, as most recordings
 *		are.
 *
 * Exit status: 0, 1 on error, 2 for a usage error, 77 when IN does not
 * exist (the shared folder is not there).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PERF_HEADER_SIZE	104	/* magic..features[4] */
#define PERF_ATTR_SIZE_VER7	128

#define PERF_RECORD_SAMPLE		9
#define PERF_RECORD_FINISHED_ROUND	68

#define PERF_SAMPLE_IP		(1u << 0)
#define PERF_SAMPLE_TID		(1u << 1)
#define PERF_SAMPLE_TIME	(1u << 2)
#define PERF_SAMPLE_IDENTIFIER	(1u << 16)

#define MAX_ATTRS 4096

static const char *prog = "gen-perf";

struct section {
	uint64_t offset, size;
};

struct attr_info {
	uint64_t sample_type;
	size_t time_off;	/* of TIME in a sample record, from its start */
	struct section ids;
};

static const unsigned char *in;	/* the whole input */
static size_t in_size;

static uint16_t get16(size_t off)
{
	uint16_t v;

	memcpy(&v, in + off, sizeof(v));
	return v;
}

static uint32_t get32(size_t off)
{
	uint32_t v;

	memcpy(&v, in + off, sizeof(v));
	return v;
}

static uint64_t get64(size_t off)
{
	uint64_t v;

	memcpy(&v, in + off, sizeof(v));
	return v;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static int fail(const char *what)
{
	fprintf(stderr, "%s: %s\n", prog, what);
	return 1;
}

static struct section get_section(size_t off)
{
	struct section s = { get64(off), get64(off + 8) };

	return s;
}

/* Does [s.offset, s.offset+s.size) lie in the input? */
static int section_ok(struct section s)
{
	return s.offset <= in_size && s.size <= in_size - s.offset;
}

static int read_input(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	unsigned char *buf;

	if (!f || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf || fread(buf, 1, st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "%s: %s: cannot read\n", prog, path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	in = buf;
	in_size = st.st_size;
	return 0;
}

static FILE *out;
static const char *out_path;
static int out_error;

static void emit(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, out) != n)
		out_error = 1;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [-c] [-r ROUND] [-s INDEX] N IN OUT\n", prog);
}

int main(int argc, char **argv)
{
	static struct attr_info attrs[MAX_ATTRS];
	static const unsigned char zeroes[4096];
	unsigned long long n_out;
	unsigned long round = 1000;
	long long only = -1;	/* -s */
	int compat = 0, opt;
	char *end;
	uint64_t attr_size, new_attr_size, n_attrs, flags_bits;
	struct section attr_sec, data, event_types;
	size_t *samples = NULL, n_samples = 0, cap = 0;
	size_t off, data_end, time_off;
	int same_time_off = 1;
	uint64_t t_min = UINT64_MAX, t_max = 0, shift;
	unsigned char hdr[PERF_HEADER_SIZE];
	unsigned char rec[65536];
	uint64_t written;
	int n_feat;

	while ((opt = getopt(argc, argv, "cr:s:h")) != -1) {
		switch (opt) {
		case 'c':
			compat = 1;
			break;
		case 'r':
			errno = 0;
			round = strtoul(optarg, &end, 10);
			if (errno || *end || !round) {
				usage(stderr);
				return 2;
			}
			break;
		case 's':
			errno = 0;
			only = strtoll(optarg, &end, 10);
			if (errno || *end || only < 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 3) {
		usage(stderr);
		return 2;
	}
	errno = 0;
	n_out = strtoull(argv[optind], &end, 10);
	if (errno || *end || argv[optind][0] == '-') {
		usage(stderr);
		return 2;
	}
	if (access(argv[optind + 1], F_OK) != 0) {
		printf("SKIP: %s: no %s (set EH_SHARED_DIR to the shared folder)\n",
			prog, argv[optind + 1]);
		return 77;
	}
	if (read_input(argv[optind + 1]))
		return 1;
	out_path = argv[optind + 2];

	/* ---- file header, attrs ---- */
	if (in_size < PERF_HEADER_SIZE || memcmp(in, "PERFILE2", 8) != 0)
		return fail("input is not a little-endian normal-mode perf.data");
	if (get64(8) < PERF_HEADER_SIZE || get64(8) > in_size)
		return fail("bad file header size");
	attr_size = get64(16);
	attr_sec = get_section(24);
	data = get_section(40);
	event_types = get_section(56);
	if (!section_ok(attr_sec) || !section_ok(data) || !section_ok(event_types))
		return fail("a section lies outside the file");
	if (attr_size < 64 + 16 || attr_sec.size % attr_size)
		return fail("bad attr size");
	n_attrs = attr_sec.size / attr_size;
	if (n_attrs == 0 || n_attrs > MAX_ATTRS)
		return fail("no attrs, or too many");
	if (attr_sec.offset + attr_sec.size > data.offset)
		return fail("attrs after the data section: not supported");
	for (uint64_t i = 0; i < n_attrs; i++) {
		size_t a = attr_sec.offset + i * attr_size;
		uint64_t st = get64(a + 24);
		struct attr_info *ai = &attrs[i];

		if (!(st & PERF_SAMPLE_TIME))
			return fail("an attr without PERF_SAMPLE_TIME");
		ai->sample_type = st;
		ai->time_off = 8 + (st & PERF_SAMPLE_IDENTIFIER ? 8 : 0) +
			(st & PERF_SAMPLE_IP ? 8 : 0) + (st & PERF_SAMPLE_TID ? 8 : 0);
		ai->ids = get_section(a + attr_size - 16);
		if (!section_ok(ai->ids) || ai->ids.size % 8)
			return fail("bad attr ids section");
		if (ai->time_off != attrs[0].time_off)
			same_time_off = 0;
	}
	if (!same_time_off) {
		/* Where TIME is depends on the attr: find it by the sample id. */
		for (uint64_t i = 0; i < n_attrs; i++)
			if (!(attrs[i].sample_type & PERF_SAMPLE_IDENTIFIER))
				return fail("attrs differ in where TIME is and have no PERF_SAMPLE_IDENTIFIER");
	}

	/* ---- the data section's samples ---- */
	data_end = data.offset + data.size;
	for (off = data.offset; off < data_end;) {
		uint32_t type;
		uint16_t size;

		if (data_end - off < 8)
			return fail("truncated record in the data section");
		type = get32(off);
		size = get16(off + 6);
		if (size < 8 || size > data_end - off)
			return fail("bad record size in the data section");
		if (type == PERF_RECORD_SAMPLE) {
			uint64_t t;

			time_off = attrs[0].time_off;
			if (!same_time_off) {
				uint64_t id = get64(off + 8);
				uint64_t i, k;

				for (i = 0; i < n_attrs; i++) {
					for (k = 0; k < attrs[i].ids.size / 8; k++)
						if (get64(attrs[i].ids.offset + k * 8) == id)
							break;
					if (k < attrs[i].ids.size / 8)
						break;
				}
				if (i == n_attrs)
					return fail("a sample with an unknown id");
				time_off = attrs[i].time_off;
			}
			if (size < time_off + 8)
				return fail("a sample too short for its TIME");
			t = get64(off + time_off);
			if (t < t_min)
				t_min = t;
			if (t > t_max)
				t_max = t;
			if (n_samples == cap) {
				cap = cap ? 2 * cap : 1024;
				samples = realloc(samples, cap * 2 * sizeof(*samples));
				if (!samples)
					return fail("out of memory");
			}
			samples[2 * n_samples] = off;
			samples[2 * n_samples + 1] = time_off;
			n_samples++;
		}
		off += size;
	}
	if (!n_samples)
		return fail("the data section has no samples");
	shift = t_max - t_min + 1;
	if (only >= 0) {
		if ((unsigned long long)only >= n_samples)
			return fail("-s: the data section has fewer samples");
		samples[0] = samples[2 * only];
		samples[1] = samples[2 * only + 1];
		n_samples = 1;
		shift = 1;
	}

	/* ---- write: header and what lies before the data section ---- */
	out = fopen(out_path, "wb");
	if (!out) {
		fprintf(stderr, "%s: %s: %s\n", prog, out_path, strerror(errno));
		return 1;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	memcpy(hdr, in, sizeof(hdr));
	new_attr_size = attr_size;
	if (compat && attr_size > PERF_ATTR_SIZE_VER7 + 16) {
		int zero = 1;

		for (uint64_t i = 0; i < n_attrs && zero; i++) {
			size_t a = attr_sec.offset + i * attr_size;

			for (size_t b = PERF_ATTR_SIZE_VER7; b < attr_size - 16; b++)
				if (in[a + b]) {
					zero = 0;
					break;
				}
		}
		if (zero)
			new_attr_size = PERF_ATTR_SIZE_VER7 + 16;
		else
			fprintf(stderr, "%s: -c: attrs use fields past PERF_ATTR_SIZE_VER7, written as they are\n",
				prog);
	}
	put64(hdr + 16, new_attr_size);
	put64(hdr + 32, n_attrs * new_attr_size);
	/* data.size: patched below when it is known */
	emit(hdr, sizeof(hdr));
	if (new_attr_size == attr_size) {
		emit(in + sizeof(hdr), data.offset - sizeof(hdr));
	} else {
		unsigned char a[PERF_ATTR_SIZE_VER7 + 16];

		emit(in + sizeof(hdr), attr_sec.offset - sizeof(hdr));
		for (uint64_t i = 0; i < n_attrs; i++) {
			size_t ao = attr_sec.offset + i * attr_size;

			memcpy(a, in + ao, PERF_ATTR_SIZE_VER7);
			put32(a + 4, PERF_ATTR_SIZE_VER7);
			memcpy(a + PERF_ATTR_SIZE_VER7, in + ao + attr_size - 16, 16);
			emit(a, sizeof(a));
		}
		for (uint64_t gap = n_attrs * (attr_size - new_attr_size); gap;) {
			size_t k = gap < sizeof(zeroes) ? gap : sizeof(zeroes);

			emit(zeroes, k);
			gap -= k;
		}
		emit(in + attr_sec.offset + attr_sec.size,
			data.offset - (attr_sec.offset + attr_sec.size));
	}

	/* ---- the new data section ---- */
	written = 0;
	for (off = data.offset; off < data_end; off += get16(off + 6)) {
		if (get32(off) != PERF_RECORD_SAMPLE) {
			emit(in + off, get16(off + 6));
			written += get16(off + 6);
		}
	}
	{
		static const unsigned char fin[8] = {
			PERF_RECORD_FINISHED_ROUND, 0, 0, 0, 0, 0, 8, 0
		};
		unsigned long long i;
		unsigned long in_round = 0;

		for (i = 0; i < n_out; i++) {
			size_t k = i % n_samples;
			uint64_t rep = i / n_samples;
			size_t so = samples[2 * k], to = samples[2 * k + 1];
			uint16_t size = get16(so + 6);

			memcpy(rec, in + so, size);
			put64(rec + to, get64(so + to) + rep * shift);
			emit(rec, size);
			written += size;
			if (++in_round == round) {
				emit(fin, sizeof(fin));
				written += sizeof(fin);
				in_round = 0;
			}
		}
		if (in_round) {
			emit(fin, sizeof(fin));
			written += sizeof(fin);
		}
	}

	/* ---- what followed the data section: feature table and sections ---- */
	{
		size_t tail = in_size - data_end;
		unsigned char *t = malloc(tail ? tail : 1);
		uint64_t new_end = data.offset + written;
		int64_t delta = (int64_t)(new_end - data_end);

		if (!t)
			return fail("out of memory");
		memcpy(t, in + data_end, tail);
		flags_bits = 0;
		n_feat = 0;
		for (int w = 0; w < 4; w++) {
			flags_bits = get64(72 + 8 * w);
			n_feat += __builtin_popcountll(flags_bits);
		}
		if ((size_t)n_feat * 16 > tail)
			return fail("the feature section table lies outside the file");
		for (int f = 0; f < n_feat; f++) {
			struct section s = get_section(data_end + 16 * f);

			if (!section_ok(s))
				return fail("a feature section lies outside the file");
			if (s.offset >= data_end)
				put64(t + 16 * f, s.offset + delta);
			else if (s.offset + s.size > data.offset)
				return fail("a feature section overlaps the data section");
		}
		emit(t, tail);
		free(t);
		if (event_types.size && event_types.offset >= data_end) {
			put64(hdr + 56, event_types.offset + delta);
		}
		put64(hdr + 48, written);
	}
	if (fflush(out) != 0 || fseek(out, 0, SEEK_SET) != 0)
		out_error = 1;
	emit(hdr, sizeof(hdr));
	if (fclose(out) != 0 || out_error) {
		fprintf(stderr, "%s: %s: write error\n", prog, out_path);
		return 1;
	}
	free(samples);
	free((void *)in);
	return 0;
}
