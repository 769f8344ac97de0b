// SPDX-License-Identifier: MIT
/*
 * fuzz-format.c - libFuzzer target: the tracefs format files of perf's
 * TRACING_DATA (decode/perf-tracing-data.c, which hands them to
 * libtraceevent), and the decoding of a sample by the format, through
 * the public reader.
 *
 * Input: the text of a format file, then optionally a 0 byte and the raw
 * data of a sample of its event. The text is wrapped as the one event
 * format of the TRACING_DATA of a pipe-mode perf.data stream, behind an
 * attr of the tracepoint id that its "ID:" line gives; two samples carry
 * the raw data. The stream is read from a memfd; every event's fields
 * are walked with and without EHD_FIELDS_COMMON and written by a JSON
 * lines writer and a text writer to /dev/null. Errors are fine; crashes,
 * memory errors and undefined behaviour are not.
 *
 * The options come from a checksum of the input (see fuzz_sel()): the
 * system of the format (user_events, where a first field
 * eventheader_flags makes it an EventHeader event; sched, for the system
 * events of EHD_READER_SYSTEM; another; or an ftrace format), the byte
 * order and long size of the tracing data, whether the text is also the
 * header_page, kallsyms, printk formats or saved_cmdline (text parsers
 * of libtraceevent too), the reader's flags and the writers' options.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create(), when built without config.h */
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "perf-build.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz-touch.h"

/* Record types of pipe mode (perf's PERF_RECORD_HEADER_*). */
#define HEADER_ATTR		64
#define HEADER_TRACING_DATA	66
#define FINISHED_ROUND		68

/* The sample id of the one attr. */
#define SAMPLE_ID		7

/* Raw data past this are cut: a record's size is 16 bits. */
#define RAW_MAX			60000

/* The kernel's header_page, for inputs that do not replace it. */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char *const systems[] = { "user_events", "sched", "fuzz" };

/*
 * The tracepoint id of a format text: the number after its first "ID:"
 * (which is what libtraceevent reads), or 0.
 */
static uint64_t format_id(const char *text, size_t len)
{
	const char *p = memmem(text, len, "ID:", 3);
	uint64_t id = 0;

	if (!p)
		return 0;
	for (p += 3; p < text + len && (*p == ' ' || *p == '\t'); p++)
		;
	for (; p < text + len && *p >= '0' && *p <= '9' && id < INT32_MAX; p++)
		id = id * 10 + (uint64_t)(*p - '0');
	return id;
}

/* A u64 size, then @n bytes of @p. */
static void sized64(struct wr *t, const void *p, size_t n)
{
	w8(t, n);
	wbytes(t, p, n);
}

/* A u32 size, then @n bytes of @p. */
static void sized32(struct wr *t, const void *p, size_t n)
{
	w4(t, n);
	wbytes(t, p, n);
}

/* The tracing data that describes @text (see perf-tracing-data.c). */
static void tracing_data(struct wr *t, const char *text, size_t len,
			 uint32_t sel)
{
	static const char empty[] = "";
	bool ftrace = (sel & 3) == 3;
	const char *sys = systems[ftrace ? 0 : sel & 3];
	const char *hp = sel >> 4 & 1 ? text : header_page;
	size_t hp_len = sel >> 4 & 1 ? len : sizeof(header_page) - 1;

	wbytes(t, "\x17\x08\x44tracing", 10);
	wbytes(t, "0.6", 4);
	wbytes(t, t->be ? "\1" : "\0", 1);
	wbytes(t, sel >> 3 & 1 ? "\4" : "\10", 1);
	w4(t, 4096);
	wbytes(t, "header_page", 12);
	sized64(t, hp, hp_len);
	wbytes(t, "header_event", 13);
	sized64(t, empty, 0);
	w4(t, ftrace);
	if (ftrace)
		sized64(t, text, len);
	w4(t, !ftrace);
	if (!ftrace) {
		wbytes(t, sys, strlen(sys) + 1);
		w4(t, 1);
		sized64(t, text, len);
	}
	sized32(t, text, sel >> 5 & 1 ? len : 0);	/* kallsyms */
	sized32(t, text, sel >> 6 & 1 ? len : 0);	/* printk formats */
	sized64(t, text, sel >> 7 & 1 ? len : 0);	/* saved_cmdline */
}

/* A sample of the attr with @raw as its raw data. */
static void sample(struct wr *x, const uint8_t *raw, size_t n, uint32_t tid,
		   uint64_t time)
{
	static const uint8_t pad[8];
	size_t at = rec_begin(x, PERF_RECORD_SAMPLE), padded;

	w8(x, SAMPLE_ID);		/* PERF_SAMPLE_IDENTIFIER */
	w8(x, 0xffffffff81000000u);	/* IP */
	w4(x, 100);			/* TID: pid, tid */
	w4(x, tid);
	w8(x, time);			/* TIME */
	w4(x, tid & 3);			/* CPU, reserved */
	w4(x, 0);
	w8(x, 1);			/* PERIOD */
	/* RAW: its size, the data, zeros up to 8-byte alignment. */
	padded = (n + 4 + 7) / 8 * 8 - 4;
	w4(x, padded);
	wbytes(x, raw, n);
	wbytes(x, pad, padded - n);
	rec_end(x, at);
}

/* The pipe-mode perf.data stream of @text and @raw, in @x. */
static void build(struct wr *x, const char *text, size_t len,
		  const uint8_t *raw, size_t n, uint32_t sel)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = format_id(text, len),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			       PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_RAW,
		.sample_id_all = 1,
	};
	struct wr t = { .be = sel >> 2 & 1 };
	static const uint8_t pad[8];
	size_t at, padded;

	wbytes(x, "PERFILE2", 8);
	w8(x, 16);
	at = rec_begin(x, HEADER_ATTR);
	wbytes(x, &attr, sizeof(attr));
	w8(x, SAMPLE_ID);
	rec_end(x, at);

	/* The tracing data follow the record, padded to 8 bytes. */
	tracing_data(&t, text, len, sel);
	padded = (t.b.len + 7) / 8 * 8;
	at = rec_begin(x, HEADER_TRACING_DATA);
	w4(x, padded);
	rec_end(x, at);
	wbytes(x, t.b.p, t.b.len);
	wbytes(x, pad, padded - t.b.len);
	free(t.b.p);

	/* Out of time order, for EHD_READER_SORT_TIME. */
	sample(x, raw, n, 101, 2000);
	sample(x, raw, n, 102, 1000);
	at = rec_begin(x, FINISHED_ROUND);
	rec_end(x, at);
}

/* Read the stream in @fd; every event's fields walked and written. */
static void read_all(int fd, int devnull, uint32_t sel)
{
	struct ehd_writer *jw, *tw;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_enum *en;
	uint64_t off;
	int err;

	r = ehd_reader_new((sel >> 8 & 1 ? EHD_READER_SORT_TIME : 0) |
			   (sel >> 9 & 1 ? EHD_READER_SYSTEM : 0));
	en = ehd_enum_new();
	jw = ehd_writer_new(EHD_OUT_JSONL, devnull,
			    sel >> 9 & EHD_WRITER_FIELD_TAGS, EHD_META_ALL);
	tw = ehd_writer_new(EHD_OUT_TEXT, devnull, 0,
			    sel >> 11 & 1 ? EHD_META_ALL : EHD_META_DEFAULT);
	if (!r || !en || !jw || !tw)
		goto out;
	err = ehd_reader_open_fd(r, fd, "fuzz");
	touch_trace_info(ehd_reader_trace_info(r));
	ehd_writer_begin(jw, "fuzz");
	ehd_writer_begin(tw, "fuzz");
	while (!err && (err = ehd_reader_next(r, &ev)) > 0) {
		touch_event(ev);
		touch_fields(en, ev, 0);
		touch_fields(en, ev, EHD_FIELDS_COMMON);
		touch_write(jw, ev);
		touch_write(tw, ev);
		err = 0;
	}
	if (err < 0)
		touch_str(ehd_reader_error(r, &off));
out:
	/* The writers end before the reader goes: events point into it. */
	fuzz_end_writer(jw, NULL);
	fuzz_end_writer(tw, NULL);
	ehd_enum_free(en);
	ehd_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t len = nul ? (size_t)(nul - data) : size, n = 0;
	uint32_t sel = fuzz_sel(data, size);
	int devnull = fuzz_devnull(), fd;
	struct wr x = { .be = false };

	if (devnull < 0)
		return 0;
	if (nul) {
		n = size - len - 1;
		if (n > RAW_MAX)
			n = RAW_MAX;
	}
	build(&x, (const char *)data, len, nul ? nul + 1 : data, n, sel);
	fd = fuzz_input(NULL, 0, x.b.p, x.b.len);
	free(x.b.p);
	if (fd < 0)
		return 0;
	read_all(fd, devnull, sel);
	close(fd);
	return 0;
}
