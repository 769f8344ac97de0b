// SPDX-License-Identifier: MIT
/*
 * perf-drops - write to standard output a small pipe-mode perf.data that
 * holds one of each thing a reader or writer cannot pass on as it is, for
 * tests/tools/drops.sh to check that each is counted and said:
 *
 *  - "Drops:Trail", an EventHeader event with 5 bytes after its last field
 *    (trailing data; the 3 zero bytes of padding after it are not);
 *  - "Drops:BadDecl", one whose field has encoding 0 (refused: written as
 *    its record, with a message);
 *  - "Drops:Huge", one of 255 fields of long names, whose nettrace
 *    metadata row would be over 65,535 bytes (untyped: written as its
 *    record's fields);
 *  - "Drops:Stop", an activity stop with no start (unmatched);
 *  - a tsys:short_ev sample whose record ends before its field y (cut);
 *  - a tsys:bad_fmt sample, whose format has a byte over 0x7F (its format
 *    is an error; the sample is written raw);
 *  - a COMM record of 8 bytes (malformed), a THROTTLE record, 4 side-band
 *    records lost (a LOST_SAMPLES of the dummy event) and 3 samples lost.
 */
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include <eventheader/eventheader.h>

#include "perf-build.h"

/* Sample ids of the events; the tracepoints' ids in the formats. */
enum { ID_EH = 11, ID_SHORT = 12, ID_BAD = 13, ID_DUMMY = 14 };
enum { TP_EH = 200, TP_SHORT = 201, TP_BAD = 202 };

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_RAW)

static const char common_fields[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

static void pad8(struct wr *x, size_t from)
{
	while ((x->b.len - from) % 8)
		w(x, 0, 1);
}

/* An event (HEADER_ATTR); only the dummy one has sample_id_all. */
static void attr(struct wr *x, uint32_t type, uint64_t config, uint64_t id)
{
	size_t at = rec_begin(x, 64), i;	/* HEADER_ATTR */

	w4(x, type);
	w4(x, PERF_ATTR_SIZE_VER7);
	w8(x, config);
	w8(x, 1);
	w8(x, type == PERF_TYPE_SOFTWARE ? ST & ~PERF_SAMPLE_RAW : ST);
	w8(x, 0);					/* read_format */
	w8(x, type == PERF_TYPE_SOFTWARE ? 1ull << 18 : 0);	/* sample_id_all */
	for (i = 48; i < PERF_ATTR_SIZE_VER7; i += 8)
		w8(x, 0);
	w8(x, id);
	rec_end(x, at);
}

static void put_u64(struct blob *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put_u32(struct blob *b, uint32_t v)
{
	put(b, &v, 4);
}

/* A format file, as a u64 size and its text. */
static void format(struct blob *b, const char *name, int id,
		   const char *fields)
{
	char t[2048];
	int n = snprintf(t, sizeof(t),
			 "name: %s\nID: %d\nformat:\n%s%s\nprint fmt: \"\"\n",
			 name, id, common_fields, fields);

	put_u64(b, (uint64_t)n);
	put(b, t, (size_t)n);
}

/* HEADER_TRACING_DATA and its data (version 0.6, little-endian). */
static void tracing_data(struct wr *x)
{
	struct blob t = { 0 };
	size_t at;

	put(&t, "\027\010\104tracing0.6", 14);
	put(&t, "\0\010", 2);			/* little-endian, long 8 */
	put_u32(&t, 4096);
	put(&t, "header_page", 12);
	put_u64(&t, 0);
	put(&t, "header_event", 13);
	put_u64(&t, 0);
	put_u32(&t, 0);				/* ftrace formats */
	put_u32(&t, 2);				/* systems */
	put(&t, "user_events", 12);
	put_u32(&t, 1);
	format(&t, "Drops_L4K1", TP_EH,
	       "\tfield:u8 eventheader_flags;\toffset:8;\tsize:1;\tsigned:0;\n"
	       "\tfield:u8 version;\toffset:9;\tsize:1;\tsigned:0;\n"
	       "\tfield:u16 id;\toffset:10;\tsize:2;\tsigned:0;\n"
	       "\tfield:u16 tag;\toffset:12;\tsize:2;\tsigned:0;\n"
	       "\tfield:u8 opcode;\toffset:14;\tsize:1;\tsigned:0;\n"
	       "\tfield:u8 level;\toffset:15;\tsize:1;\tsigned:0;\n");
	put(&t, "tsys", 5);
	put_u32(&t, 2);
	format(&t, "short_ev", TP_SHORT,
	       "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
	       "\tfield:int y;\toffset:12;\tsize:4;\tsigned:1;\n");
	format(&t, "bad_fmt", TP_BAD,
	       "\tfield:int caf\xc3\xa9;\toffset:8;\tsize:4;\tsigned:1;\n");
	put_u32(&t, 0);				/* kallsyms */
	put_u32(&t, 0);				/* printk */
	put_u64(&t, 0);				/* saved_cmdlines */
	while (t.len % 8)
		put(&t, "", 1);
	at = rec_begin(x, 66);			/* HEADER_TRACING_DATA */
	w4(x, t.len);
	w4(x, 0);
	rec_end(x, at);
	wbytes(x, t.p, t.len);
	free(t.p);
}

/* A sample of event @id with @raw (the record's common fields first). */
static void sample(struct wr *x, uint64_t id, uint64_t time,
		   const struct blob *raw)
{
	size_t at = rec_begin(x, PERF_RECORD_SAMPLE), from;

	w8(x, id);
	w4(x, 100);
	w4(x, 101);
	w8(x, time);
	w4(x, 0);
	w4(x, 0);
	from = x->b.len;
	w4(x, 0);
	wbytes(x, raw->p, raw->len);
	pad8(x, from);
	memcpy(x->b.p + from, &(uint32_t){ (uint32_t)(x->b.len - from - 4) }, 4);
	rec_end(x, at);
}

static void common(struct blob *b, uint16_t type)
{
	uint8_t c[8] = { (uint8_t)type, (uint8_t)(type >> 8), 0, 0, 100 };

	put(b, c, 8);
}

/* An EventHeader event's header and metadata start, after common(). */
static size_t eh_begin(struct blob *b, uint8_t opcode, const uint8_t *aid)
{
	uint8_t h[8] = { EH_FLAG_POINTER64 | EH_FLAG_LITTLE_ENDIAN |
			 EH_FLAG_EXTENSION, 0, 0, 0, 0, 0, opcode, 4 };
	uint16_t ext[2] = { 16, EH_EXT_ACTIVITY_ID | EH_EXT_CHAIN_FLAG };

	put(b, h, 8);
	if (aid) {
		put(b, ext, 4);
		put(b, aid, 16);
	}
	ext[0] = 0;
	ext[1] = EH_EXT_METADATA;
	put(b, ext, 4);
	return b->len;
}

/* Set the metadata's size (it started at @at). */
static void eh_meta_end(struct blob *b, size_t at)
{
	uint16_t n = (uint16_t)(b->len - at);

	memcpy(b->p + at - 4, &n, 2);
}

static void eh_field(struct blob *b, const char *name, uint8_t encoding)
{
	put(b, name, strlen(name) + 1);
	put(b, &encoding, 1);
}

int main(void)
{
	static const uint8_t aid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct wr x = { .be = false };
	struct blob e = { 0 };
	char name[256];
	size_t at, m;
	uint32_t v = 5;
	int ok, i;

	wbytes(&x, "PERFILE2", 8);
	w8(&x, 16);
	attr(&x, PERF_TYPE_TRACEPOINT, TP_EH, ID_EH);
	attr(&x, PERF_TYPE_TRACEPOINT, TP_SHORT, ID_SHORT);
	attr(&x, PERF_TYPE_TRACEPOINT, TP_BAD, ID_BAD);
	attr(&x, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, ID_DUMMY);
	tracing_data(&x);

	/* Trail: a = 5, then "EXTRA" no field declares */
	common(&e, TP_EH);
	m = eh_begin(&e, 0, NULL);
	put(&e, "Trail", 6);
	eh_field(&e, "a", EH_ENC_VALUE32);
	eh_meta_end(&e, m);
	put(&e, &v, 4);
	put(&e, "EXTRA", 5);
	sample(&x, ID_EH, 1000, &e);

	/* BadDecl: a field of encoding 0 */
	e.len = 0;
	common(&e, TP_EH);
	m = eh_begin(&e, 0, NULL);
	put(&e, "BadDecl", 8);
	eh_field(&e, "f", EH_ENC_INVALID);
	eh_meta_end(&e, m);
	put(&e, &v, 4);
	sample(&x, ID_EH, 2000, &e);

	/* Huge: 255 fields (the most) of 252-byte names */
	e.len = 0;
	common(&e, TP_EH);
	m = eh_begin(&e, 0, NULL);
	put(&e, "Huge", 5);
	for (i = 0; i < 255; i++) {
		snprintf(name, sizeof(name), "%03d%0249d", i, 0);
		eh_field(&e, name, EH_ENC_VALUE8);
	}
	eh_meta_end(&e, m);
	for (i = 0; i < 255; i++)
		put(&e, "", 1);
	sample(&x, ID_EH, 3000, &e);

	/* Stop: an activity stop with no start */
	e.len = 0;
	common(&e, TP_EH);
	m = eh_begin(&e, EH_OPCODE_ACTIVITY_STOP, aid);
	put(&e, "Stop", 5);
	eh_meta_end(&e, m);
	sample(&x, ID_EH, 4000, &e);

	/* short_ev: x, and no room for y */
	e.len = 0;
	common(&e, TP_SHORT);
	put(&e, &v, 4);
	sample(&x, ID_SHORT, 5000, &e);

	/* bad_fmt */
	e.len = 0;
	common(&e, TP_BAD);
	put(&e, &v, 4);
	sample(&x, ID_BAD, 6000, &e);

	/* A COMM record of pid and tid, no name */
	at = rec_begin(&x, PERF_RECORD_COMM);
	w4(&x, 100);
	w4(&x, 101);
	rec_end(&x, at);

	/* The kernel throttled an event */
	at = rec_begin(&x, PERF_RECORD_THROTTLE);
	w8(&x, 6500);
	w8(&x, 0);
	w8(&x, 0);
	rec_end(&x, at);

	/* 4 side-band records lost, then 3 samples */
	at = rec_begin(&x, PERF_RECORD_LOST_SAMPLES);
	w8(&x, 4);
	w4(&x, 100);
	w4(&x, 101);
	w8(&x, 7000);
	w4(&x, 0);
	w4(&x, 0);
	w8(&x, ID_DUMMY);
	rec_end(&x, at);
	at = rec_begin(&x, PERF_RECORD_LOST_SAMPLES);
	w8(&x, 3);
	rec_end(&x, at);

	ok = fwrite(x.b.p, 1, x.b.len, stdout) == x.b.len && !fflush(stdout);
	free(x.b.p);
	free(e.p);
	return ok ? 0 : 1;
}
