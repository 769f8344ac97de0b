// SPDX-License-Identifier: MIT
/*
 * test-heph.c - Heph traces: the writer's mapping read back by the
 * reader, the two examples of the format's specification decoded to the
 * values it states, and damaged packets refused with their offset and
 * reason.
 *
 * The events of the round trip come from the producer through the
 * interceptor; their context (time, pid, tid) is set here. The spec's
 * packets are written out byte by byte as the spec's tables give them.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <eventheader/eh-provider.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "core/ehd-bytes.h"

EH_DEFINE_PROVIDER(heph_provider, "HephTest");

static char dat_path[64];

static const uint8_t aid_req[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
				     9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t aid_query[16] = { 0x21, 2, 3, 4, 5, 6, 7, 8,
				       9, 10, 11, 12, 13, 14, 15, 0x22 };
static const uint8_t aid_orphan[16] = { 0x31, 2, 3, 4, 5, 6, 7, 8,
					9, 10, 11, 12, 13, 14, 15, 0x32 };

static const uint64_t ua[3] = { 0, 1, UINT64_MAX };
static const int32_t ia[3] = { -1, 0, 7 };
static const double fa[2] = { 1.5, -1e300 };

/*
 * The capture: Request starts, Query (inside it) starts, a plain event
 * of every kind of value, Query stops, Request stops, Orphan starts and
 * never stops, Last (no fields).
 */
static int make_capture(void **state)
{
	int fd;

	(void)state;
	strcpy(dat_path, "/tmp/test-heph.XXXXXX");
	fd = mkstemp(dat_path);
	if (fd < 0)
		return -1;
	close(fd);
	setenv("EH_INTERCEPTOR_FILE", dat_path, 1);
	EH_REGISTER(heph_provider);
	EH_WRITE_ACTIVITY(heph_provider, "Request", aid_req, NULL, EH_LEVEL(4),
			  EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_STRING_UTF8("path", "/index"),
			  EH_UINT32("port", 8080));
	EH_WRITE_ACTIVITY(heph_provider, "Query", aid_query, aid_req,
			  EH_LEVEL(4), EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_STRING_UTF8("sql", "select 1"));
	EH_WRITE(heph_provider, "Values", EH_LEVEL(4),
		 EH_UINT64("u", UINT64_MAX - 5),
		 EH_INT64("i", INT64_MIN + 7),
		 EH_FLOAT64("f", -2.5e-300),
		 EH_FLOAT32("f32", 0.5f),
		 EH_STRING_UTF8("s", "h\xc3\xa9llo \"q\"\n"),
		 EH_HEXUINT32("h", 0xbeef),
		 EH_INT8("i8", -3),
		 EH_UINT64_ARRAY("ua", ua, 3),
		 EH_INT32_ARRAY("ia", ia, 3),
		 EH_FLOAT64_ARRAY("fa", fa, 2),
		 EH_BOOL8("b", 1),
		 EH_STRUCT("st", 2), EH_UINT8("x", 3),
		 EH_STRING_UTF8("y", "in"));
	EH_WRITE_ACTIVITY(heph_provider, "Query", aid_query, NULL, EH_LEVEL(4),
			  EH_OPCODE(EH_OPCODE_ACTIVITY_STOP),
			  EH_UINT32("rows", 1));
	EH_WRITE_ACTIVITY(heph_provider, "Request", aid_req, NULL, EH_LEVEL(4),
			  EH_OPCODE(EH_OPCODE_ACTIVITY_STOP),
			  EH_UINT32("status", 200));
	EH_WRITE_ACTIVITY(heph_provider, "Orphan", aid_orphan, NULL,
			  EH_LEVEL(4), EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_UINT8("n", 9));
	EH_WRITE(heph_provider, "Last", EH_LEVEL(4));
	EH_UNREGISTER(heph_provider);
	return 0;
}

static int remove_capture(void **state)
{
	(void)state;
	unlink(dat_path);
	return 0;
}

#define NEVENTS 7	/* events in the capture */
#define T0 UINT64_C(1700000000123456789)

/* The context given to event @k of the capture. */
static uint64_t time_of(int k)
{
	return T0 + 1000 * (uint64_t)(k + 1) + (uint64_t)k;
}

static uint32_t pid_of(int k)
{
	return k == 2 ? 200 : 100;
}

static uint32_t tid_of(int k)
{
	return 1000 + (uint32_t)k;
}

/* ---- helpers ---- */

/* All of a memfd. */
static uint8_t *slurp(int fd, size_t *len)
{
	off_t n = lseek(fd, 0, SEEK_END);
	uint8_t *p = malloc((size_t)n + 1);

	assert_non_null(p);
	assert_int_equal(pread(fd, p, (size_t)n, 0), n);
	*len = (size_t)n;
	return p;
}

static int memfd_of(const uint8_t *p, size_t n)
{
	int fd = memfd_create("heph", 0);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	return fd;
}

static uint64_t be64(const uint8_t *p)
{
	return ehd__load_uint(p, 8, 1);
}

/* The 8 bytes of a VALUE64 item as a number. */
static uint64_t bits_of(const struct ehd_item *it)
{
	assert_int_equal(it->encoding, EH_ENC_VALUE64);
	assert_int_equal(it->value_size, 8);
	return ehd__load_uint(it->value, 8, ehd__host_big() ^ !!it->swap);
}

static double f64_of(const struct ehd_item *it)
{
	uint64_t b = bits_of(it);
	double d;

	assert_int_equal(it->format, EH_FMT_FLOAT);
	memcpy(&d, &b, 8);
	return d;
}

/*
 * The top-level field @name of @ev: its item (an array's ARRAY_BEGIN),
 * an array's elements copied to @elems (*@n of them, at most @max).
 */
static struct ehd_item field(const struct ehd_event *ev, const char *name,
			     struct ehd_item *elems, size_t max, size_t *n)
{
	struct ehd_enum *en = ehd_enum_new();
	struct ehd_item found;
	bool in = false, done = false;
	int st, depth = 0;

	memset(&found, 0, sizeof(found));
	if (n)
		*n = 0;
	assert_int_equal(ehd_event_fields(ev, en, 0), 0);
	while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
		const struct ehd_item *it = ehd_enum_item(en);

		if (in && st == EHD_STATE_VALUE && depth == 1) {
			assert_true(*n < max);
			elems[(*n)++] = *it;
		}
		if (st == EHD_STATE_ARRAY_END || st == EHD_STATE_STRUCT_END) {
			depth--;
			if (in && !depth)
				in = false, done = true;
			continue;
		}
		if (!depth && !done && !strcmp(it->name, name)) {
			found = *it;
			if (st == EHD_STATE_ARRAY_BEGIN) {
				assert_non_null(elems);
				in = true;
			} else {
				done = true;
			}
		}
		if (st == EHD_STATE_ARRAY_BEGIN || st == EHD_STATE_STRUCT_BEGIN)
			depth++;
	}
	assert_int_equal(st, EHD_STATE_AFTER_LAST);
	ehd_enum_free(en);
	if (!done)
		fail_msg("no field \"%s\"", name);
	/* The values point into the reader's packet: still valid. */
	return found;
}

static void assert_u64(const struct ehd_event *ev, const char *name,
		       uint64_t want)
{
	struct ehd_item it = field(ev, name, NULL, 0, NULL);

	assert_int_equal(it.format, EH_FMT_UNSIGNED_INT);
	assert_true(bits_of(&it) == want);
}

static void assert_i64(const struct ehd_event *ev, const char *name,
		       int64_t want)
{
	struct ehd_item it = field(ev, name, NULL, 0, NULL);

	assert_int_equal(it.format, EH_FMT_SIGNED_INT);
	assert_true((int64_t)bits_of(&it) == want);
}

static void assert_str(const struct ehd_event *ev, const char *name,
		       const char *want)
{
	struct ehd_item it = field(ev, name, NULL, 0, NULL);

	assert_int_equal(it.encoding, EH_ENC_STRING_LENGTH16_CHAR8);
	assert_int_equal(it.value_size, strlen(want));
	assert_memory_equal(it.value, want, strlen(want));
}

static bool has_field(const struct ehd_event *ev, const char *name)
{
	struct ehd_enum *en = ehd_enum_new();
	bool found = false;
	int st;

	assert_int_equal(ehd_event_fields(ev, en, 0), 0);
	while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST)
		found |= !strcmp(ehd_enum_item(en)->name, name);
	ehd_enum_free(en);
	return found;
}

static void assert_name(const struct ehd_event *ev, const char *provider,
			const char *name)
{
	assert_int_equal(ev->kind, EHD_EVENT_HEPH);
	assert_int_equal(ev->provider_len, strlen(provider));
	assert_memory_equal(ev->provider, provider, strlen(provider));
	assert_int_equal(ev->name_len, strlen(name));
	assert_memory_equal(ev->name, name, strlen(name));
}

/* ---- the round trip ---- */

/*
 * Write the capture's events as a Heph trace (context set as time_of(),
 * pid_of(), tid_of() say, or none with @untimed) into a memfd.
 */
static int write_capture(struct ehd_writer_stats *st, bool untimed)
{
	int fd = memfd_create("heph", 0), k, err;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_writer *w;

	assert_true(fd >= 0);
	w = ehd_writer_new(EHD_OUT_HEPH, fd, 0, 0);
	assert_non_null(w);
	assert_int_equal(ehd_writer_begin(w, "capture"), 0);
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	for (k = 0; (err = ehd_reader_next(r, &ev)) > 0; k++) {
		struct ehd_event e = *ev;

		if (!untimed) {
			e.context = EHD_CTX_TIME | EHD_CTX_TIME_UTC |
				    EHD_CTX_PID;
			e.time = time_of(k);
			e.pid = pid_of(k);
			e.tid = tid_of(k);
		}
		assert_int_equal(ehd_writer_event(w, &e), 0);
	}
	assert_int_equal(err, 0);
	assert_int_equal(k, NEVENTS);
	ehd_reader_free(r);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_stats(w, st);
	ehd_writer_free(w);
	return fd;
}

/* The packets, in the order written, and the capture events they hold. */
static const struct {
	const char *name;
	int start, end;		/* capture event indexes */
	uint32_t counter;	/* of its stream */
} packets[] = {
	{ "Values", 2, 2, 0 },		/* stream 200 */
	{ "Query", 1, 3, 0 },		/* inner activity: stops first */
	{ "Request", 0, 4, 1 },
	{ "Last", 6, 6, 2 },
	{ "Orphan", 5, 5, 3 },		/* never stopped: at the end */
};

static void test_round_trip(void **state)
{
	struct ehd_writer_stats st;
	const struct ehd_event *ev;
	struct ehd_item elems[8], it;
	struct ehd_reader *r;
	uint8_t *f;
	size_t len, n, i;
	int fd, err;

	(void)state;
	fd = write_capture(&st, false);
	assert_int_equal(st.events, 5);
	assert_int_equal(st.unfinished, 1);
	assert_int_equal(st.untimed, 0);
	assert_int_equal(st.reordered, 0);

	/* The epoch packet first: the first event's time. */
	f = slurp(fd, &len);
	assert_true(len > 23);
	assert_memory_equal(f, "\x75\xd1\x1d\x4d\0\0\0\x17\0\x05" "epoch", 15);
	assert_true(be64(f + 15) == time_of(0));
	assert_int_equal(st.bytes, len);

	r = ehd_reader_new(EHD_READER_SORT_TIME);
	assert_int_equal(ehd_reader_open_fd(r, fd, "heph"), 0);
	assert_int_equal(ehd_reader_kind(r), EHD_INPUT_HEPH);
	for (i = 0; (err = ehd_reader_next(r, &ev)) > 0; i++) {
		int s = packets[i].start, e = packets[i].end;
		const uint8_t *p = ev->data;

		assert_true(i < sizeof(packets) / sizeof(packets[0]));
		assert_name(ev, "HephTest", packets[i].name);
		assert_int_equal(ev->context, EHD_CTX_TIME | EHD_CTX_TIME_UTC |
					      EHD_CTX_PID);
		assert_true(ev->time == time_of(s));
		assert_int_equal(ev->pid, pid_of(s));
		assert_int_equal(ev->tid, tid_of(s));
		assert_i64(ev, "duration_ns", (int64_t)(time_of(e) - time_of(s)));
		assert_int_equal(ehd__load_uint(p + 12, 4, 1),
				 packets[i].counter);
		assert_false(has_field(ev, "substream_id"));
	}
	assert_int_equal(err, 0);
	assert_int_equal(i, 5);
	ehd_reader_free(r);

	/* The fields, one event at a time. */
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "heph"), 0);

	assert_int_equal(ehd_reader_next(r, &ev), 1);	/* Values */
	assert_u64(ev, "u", UINT64_MAX - 5);
	assert_i64(ev, "i", INT64_MIN + 7);
	assert_i64(ev, "i8", -3);
	it = field(ev, "f", NULL, 0, NULL);
	assert_true(f64_of(&it) == -2.5e-300);
	it = field(ev, "f32", NULL, 0, NULL);
	assert_true(f64_of(&it) == 0.5);
	assert_str(ev, "s", "h\xc3\xa9llo \"q\"\n");
	assert_u64(ev, "h", 0xbeef);		/* hex: the number */
	assert_str(ev, "b", "true");		/* boolean: its rendering */
	assert_str(ev, "st", "{\"x\":3,\"y\":\"in\"}");	/* struct: JSON */
	it = field(ev, "ua", elems, 8, &n);
	assert_int_equal(it.array_flags, EH_ENC_VARRAY_FLAG);
	assert_int_equal(it.format, EH_FMT_UNSIGNED_INT);
	assert_int_equal(n, 3);
	for (i = 0; i < 3; i++)
		assert_true(bits_of(&elems[i]) == ua[i]);
	it = field(ev, "ia", elems, 8, &n);
	assert_int_equal(it.format, EH_FMT_SIGNED_INT);	/* i32 -> i64 */
	assert_int_equal(n, 3);
	for (i = 0; i < 3; i++)
		assert_true((int64_t)bits_of(&elems[i]) == ia[i]);
	it = field(ev, "fa", elems, 8, &n);
	assert_int_equal(n, 2);
	for (i = 0; i < 2; i++)
		assert_true(f64_of(&elems[i]) == fa[i]);

	assert_int_equal(ehd_reader_next(r, &ev), 1);	/* Query */
	assert_str(ev, "sql", "select 1");
	assert_u64(ev, "stop.rows", 1);
	assert_int_equal(ehd_reader_next(r, &ev), 1);	/* Request */
	assert_str(ev, "path", "/index");
	assert_u64(ev, "port", 8080);
	assert_u64(ev, "stop.status", 200);
	assert_false(has_field(ev, "stop.rows"));
	assert_int_equal(ehd_reader_next(r, &ev), 1);	/* Last */
	assert_false(has_field(ev, "path"));
	assert_int_equal(ehd_reader_next(r, &ev), 1);	/* Orphan */
	assert_u64(ev, "n", 9);
	assert_i64(ev, "duration_ns", 0);
	assert_int_equal(ehd_reader_next(r, &ev), 0);
	ehd_reader_free(r);
	free(f);
	close(fd);
}

/* Without time: no epoch packet, every packet at time 0, counted. */
static void test_untimed(void **state)
{
	struct ehd_writer_stats st;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	uint8_t *f;
	size_t len;
	int fd, n = 0;

	(void)state;
	fd = write_capture(&st, true);
	assert_int_equal(st.untimed, NEVENTS);
	assert_int_equal(st.events, 5);
	f = slurp(fd, &len);
	assert_int_equal(ehd__load_uint(f, 4, 1), 0xC1FC1FB7);	/* no epoch */
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "heph"), 0);
	while (ehd_reader_next(r, &ev) > 0) {
		assert_int_equal(ev->context, EHD_CTX_TIME | EHD_CTX_PID);
		assert_true(ev->time == 0);
		assert_int_equal(ev->pid, 0);
		n++;
	}
	assert_int_equal(n, 5);
	assert_null(ehd_reader_error(r, NULL));
	ehd_reader_free(r);
	free(f);
	close(fd);
}

/* ---- the specification's examples ---- */

/* "The layout for a metadata packet setting the epoch option." */
static const uint8_t spec_metadata[23] = {
	0x75, 0xD1, 0x1D, 0x4D,		/* magic */
	0, 0, 0, 23,			/* size */
	0, 5,				/* option name length */
	'e', 'p', 'o', 'c', 'h',
	/* 1610113734118010000: 08 Jan 2021 */
	0x16, 0x58, 0x45, 0xe9, 0x12, 0x14, 0xec, 0x90,
};

/* "The layout for an event packet." */
static const uint8_t spec_event[91] = {
	0xC1, 0xFC, 0x1F, 0xB7,		/* magic */
	0, 0, 0, 91,			/* size */
	0, 0, 0, 0,			/* stream id */
	0, 0, 0, 0,			/* stream event counter */
	0, 0, 0, 0, 0, 0, 0, 1,		/* substream id */
	0, 0, 0, 0, 0, 0, 0, 100,	/* start time */
	0, 0, 0, 0, 0, 0, 0, 200,	/* end time */
	0, 8,				/* description length */
	'M', 'y', ' ', 'e', 'v', 'e', 'n', 't',
	0, 4, 'T', 'e', 's', 't',	/* attribute name */
	0x01,				/* unsigned 64 bit integer */
	0, 0, 0, 0, 0, 0, 0, 123,
	0, 5, 'T', 'e', 's', 't', '2',
	0x83,				/* array of 64 bit floats */
	0, 2,				/* array length */
	0x40, 0x5e, 0xdd, 0x2f, 0x1a, 0x9f, 0xbe, 0x77,	/* 123.456 */
	0x40, 0x88, 0xa8, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 789.0 */
};

/* The spec's two packets, one after the other. */
static size_t spec_trace(uint8_t *p)
{
	memcpy(p, spec_metadata, sizeof(spec_metadata));
	memcpy(p + sizeof(spec_metadata), spec_event, sizeof(spec_event));
	return sizeof(spec_metadata) + sizeof(spec_event);
}

/* The values the spec gives the event; @epoch: after the metadata. */
static void check_spec_event(const struct ehd_event *ev, bool epoch)
{
	struct ehd_item elems[4], it;
	size_t n;

	assert_name(ev, "", "My event");
	assert_int_equal(ev->pid, 0);
	assert_int_equal(ev->tid, 1);
	if (epoch) {
		assert_int_equal(ev->context, EHD_CTX_TIME | EHD_CTX_TIME_UTC |
					      EHD_CTX_PID);
		assert_true(ev->time == UINT64_C(1610113734118010000) + 100);
		assert_int_equal(ev->source_offset, 23);
	} else {
		assert_int_equal(ev->context, EHD_CTX_TIME | EHD_CTX_PID);
		assert_true(ev->time == 100);
		assert_int_equal(ev->source_offset, 0);
	}
	assert_int_equal(ev->size, 91);
	assert_u64(ev, "Test", 123);
	it = field(ev, "Test2", elems, 4, &n);
	assert_int_equal(it.format, EH_FMT_FLOAT);
	assert_int_equal(it.array_count, 2);
	assert_int_equal(n, 2);
	assert_true(f64_of(&elems[0]) == 123.456);
	assert_true(f64_of(&elems[1]) == 789.0);
	assert_i64(ev, "duration_ns", 100);
}

static void test_spec_examples(void **state)
{
	const struct ehd_trace_info *info;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	uint8_t t[256];
	size_t n = spec_trace(t);
	int fd = memfd_of(t, n);

	(void)state;
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "spec"), 0);
	assert_int_equal(ehd_reader_kind(r), EHD_INPUT_HEPH);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	check_spec_event(ev, true);
	info = ehd_reader_trace_info(r);
	assert_true(info->has_clock_offset);
	assert_true(info->clock_offset == UINT64_C(1610113734118010000));
	assert_int_equal(ehd_reader_next(r, &ev), 0);
	ehd_reader_free(r);
	close(fd);

	/* The event alone (a trace needs no metadata): times from 0. */
	fd = memfd_of(spec_event, sizeof(spec_event));
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "spec"), 0);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	check_spec_event(ev, false);
	assert_false(ehd_reader_trace_info(r)->has_clock_offset);
	ehd_reader_free(r);
	close(fd);
}

/* Read back and written again, the spec's trace is the same bytes. */
static void test_spec_rewritten(void **state)
{
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_writer *w;
	uint8_t t[256], *f;
	size_t n = spec_trace(t), len;
	int in = memfd_of(t, n), out = memfd_create("out", 0);

	(void)state;
	r = ehd_reader_new(0);
	w = ehd_writer_new(EHD_OUT_HEPH, out, 0, 0);
	assert_int_equal(ehd_reader_open_fd(r, in, "spec"), 0);
	assert_int_equal(ehd_writer_begin(w, "spec"), 0);
	while (ehd_reader_next(r, &ev) > 0)
		assert_int_equal(ehd_writer_event(w, ev), 0);
	assert_int_equal(ehd_writer_close(w), 0);
	f = slurp(out, &len);
	assert_int_equal(len, n);
	assert_memory_equal(f, t, n);
	free(f);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(in);
	close(out);
}

/* As JSON lines, the spec's event is what the spec says it is. */
static void test_spec_json(void **state)
{
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_writer *w;
	uint8_t t[256], *f;
	size_t n = spec_trace(t), len;
	int in = memfd_of(t, n), out = memfd_create("out", 0);

	(void)state;
	r = ehd_reader_new(0);
	w = ehd_writer_new(EHD_OUT_JSONL, out, 0, EHD_META_N | EHD_META_TIME |
				EHD_META_PID | EHD_META_TID);
	assert_int_equal(ehd_reader_open_fd(r, in, "spec"), 0);
	assert_int_equal(ehd_writer_begin(w, "spec"), 0);
	while (ehd_reader_next(r, &ev) > 0)
		assert_int_equal(ehd_writer_event(w, ev), 0);
	assert_int_equal(ehd_writer_close(w), 0);
	f = slurp(out, &len);
	f[len] = 0;
	assert_string_equal((char *)f,
			    "{\"n\":\"My event\",\"Test\":123,\"Test2\":[123.456,789],"
			    "\"duration_ns\":100,\"meta\":{\"time\":"
			    "\"2021-01-08T13:48:54.118010100Z\",\"pid\":0,\"tid\":1}}\n");
	free(f);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(in);
	close(out);
}

/* ---- damaged input ---- */

struct damage {
	const char *what;
	size_t at;		/* byte of the spec trace to change, 0: none */
	int value;		/* its new value */
	size_t cut;		/* bytes to keep, 0: all */
	int err;
	uint64_t offset;	/* where the reader says it is */
	const char *why;	/* part of the reason */
};

static const struct damage damages[] = {
	{ "bad magic", 23 + 3, 0xB8, 0, -EBADMSG, 23,
	  "bad magic 0xc1fc1fb8" },
	{ "size beyond the file", 23 + 7, 200, 0, -EBADMSG, 27,
	  "event packet of 200 bytes goes past the end of the file (91 bytes left)" },
	{ "size below the header", 23 + 7, 30, 0, -EBADMSG, 27,
	  "event packet of 30 bytes, shorter than its 42-byte header" },
	{ "untyped array marker", 23 + 72, 0x80, 0, -EBADMSG, 23 + 72,
	  "attribute 2 (\"Test2\"): untyped array" },
	{ "unknown type", 23 + 56, 0x05, 0, -EBADMSG, 23 + 56,
	  "attribute 1 (\"Test\"): unknown value type 0x05" },
	{ "unknown array type", 23 + 72, 0x87, 0, -EBADMSG, 23 + 72,
	  "attribute 2 (\"Test2\"): unknown value type 0x87" },
	{ "truncated attribute value", 23 + 7, 88, 23 + 88, -EBADMSG, 23 + 83,
	  "attribute 2 (\"Test2\"): element 1 of 2: f64 value cut short (5 of 8 bytes" },
	{ "truncated attribute name", 23 + 7, 53, 23 + 53, -EBADMSG, 23 + 50,
	  "attribute 1: name of 4 bytes goes past the packet's end (1 bytes left)" },
	{ "attribute without type", 23 + 7, 56, 23 + 56, -EBADMSG, 23 + 56,
	  "attribute 1 (\"Test\"): no value type" },
	{ "array longer than the packet", 23 + 74, 3, 0, -EBADMSG, 23 + 91,
	  "element 2 of 3: f64 value cut short (0 of 8 bytes" },
	{ "description past the end", 23 + 41, 200, 0, -EBADMSG, 23 + 40,
	  "description of 200 bytes goes past the packet's end" },
	{ "epoch cut short", 7, 20, 20, -EBADMSG, 15,
	  "epoch value of 5 bytes, not 8" },
	{ "header cut short", 0, 0, 23 + 5, -EBADMSG, 23,
	  "packet header cut short (5 of 8 bytes)" },
};

/* Read @p whole: the events given before the error, the error in @err. */
static int read_all(int fd, int *err, uint64_t *off, char *why, size_t max)
{
	struct ehd_reader *r = ehd_reader_new(0);
	const struct ehd_event *ev;
	int n = 0;

	*err = ehd_reader_open_fd(r, fd, "damaged");
	while (!*err && (*err = ehd_reader_next(r, &ev)) > 0) {
		n++;
		*err = 0;
	}
	why[0] = 0;
	if (*err < 0)
		snprintf(why, max, "%s", ehd_reader_error(r, off));
	/* The error stays. */
	if (*err < 0)
		assert_int_equal(ehd_reader_next(r, &ev), *err);
	ehd_reader_free(r);
	return n;
}

static void test_damaged(void **state)
{
	uint8_t t[256];
	char why[300];
	size_t i, n;
	uint64_t off;
	int fd, err;

	(void)state;
	/* Undamaged: read whole, no error. */
	n = spec_trace(t);
	fd = memfd_of(t, n);
	assert_int_equal(read_all(fd, &err, &off, why, sizeof(why)), 1);
	assert_int_equal(err, 0);
	close(fd);
	for (i = 0; i < sizeof(damages) / sizeof(damages[0]); i++) {
		const struct damage *d = &damages[i];

		n = spec_trace(t);
		if (d->at)
			t[d->at] = (uint8_t)d->value;
		if (d->cut)
			n = d->cut;
		fd = memfd_of(t, n);
		off = UINT64_MAX;
		assert_int_equal(read_all(fd, &err, &off, why, sizeof(why)), 0);
		if (err != d->err || !strstr(why, d->why) || off != d->offset)
			fail_msg("%s: error %d at %llu \"%s\"; want %d at %llu \"%s\"",
				 d->what, err, (unsigned long long)off, why,
				 d->err, (unsigned long long)d->offset, d->why);
		close(fd);
	}
}

/* Not a file: read from a pipe, a short packet is cut short. */
static void test_pipe(void **state)
{
	uint8_t t[256];
	char why[300];
	size_t n = spec_trace(t);
	uint64_t off = 0;
	int p[2], err;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], t, n), (ssize_t)n);
	close(p[1]);
	assert_int_equal(read_all(p[0], &err, &off, why, sizeof(why)), 1);
	assert_int_equal(err, 0);
	close(p[0]);

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], t, n - 10), (ssize_t)(n - 10));
	close(p[1]);
	assert_int_equal(read_all(p[0], &err, &off, why, sizeof(why)), 0);
	assert_int_equal(err, -EBADMSG);
	assert_int_equal(off, 23);
	assert_non_null(strstr(why, "event packet of 91 bytes cut short: the input ends after 81"));
	close(p[0]);
}

/* Events before the damage are given; the packets after are not read. */
static void test_damage_after_events(void **state)
{
	uint8_t t[512];
	char why[300];
	size_t n = spec_trace(t);
	uint64_t off;
	int fd, err;

	(void)state;
	memcpy(t + n, spec_event, sizeof(spec_event));
	n += sizeof(spec_event);
	memcpy(t + n, "\x12\x34\x56\x78\0\0\0\x10", 8);	/* not a packet */
	n += 8;
	memcpy(t + n, spec_event, sizeof(spec_event));
	n += sizeof(spec_event);
	fd = memfd_of(t, n);
	assert_int_equal(read_all(fd, &err, &off, why, sizeof(why)), 2);
	assert_int_equal(err, -EBADMSG);
	assert_int_equal(off, 23 + 2 * 91);
	assert_non_null(strstr(why, "bad magic 0x12345678"));
	close(fd);
}

/* A metadata option this version does not know is skipped. */
static void test_unknown_option(void **state)
{
	static const uint8_t opt[] = {
		0x75, 0xD1, 0x1D, 0x4D, 0, 0, 0, 16, 0, 3, 'f', 'o', 'o',
		1, 2, 3,
	};
	const struct ehd_event *ev;
	struct ehd_reader *r;
	uint8_t t[256];
	size_t n = sizeof(opt);
	int fd;

	(void)state;
	memcpy(t, opt, n);
	n += spec_trace(t + n);
	fd = memfd_of(t, n);
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "opt"), 0);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_true(ev->time == UINT64_C(1610113734118010000) + 100);
	assert_int_equal(ehd_reader_next(r, &ev), 0);
	ehd_reader_free(r);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_untimed),
		cmocka_unit_test(test_spec_examples),
		cmocka_unit_test(test_spec_rewritten),
		cmocka_unit_test(test_spec_json),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_damage_after_events),
		cmocka_unit_test(test_unknown_option),
	};

	return cmocka_run_group_tests(tests, make_capture, remove_capture);
}
