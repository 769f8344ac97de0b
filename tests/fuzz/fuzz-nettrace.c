// SPDX-License-Identifier: MIT
/*
 * fuzz-nettrace.c - libFuzzer target: the nettrace reader (v6 as
 * libehdecode writes it, v3 to v5 as .NET writes them) through the public
 * API, on arbitrary bytes read from a memfd as a file. Each input is read
 * twice, without and with EHD_READER_STRICT; every event's fields are
 * walked with and without EHD_FIELDS_COMMON, and every event is rendered
 * by a JSON lines writer and a text writer to /dev/null. The lenient
 * pass also gives the events to a nettrace writer (to /dev/null), which
 * may refuse them; it must not crash. Errors are fine; crashes, memory
 * errors and undefined behaviour are not.
 *
 * An input that does not start with "Nettrace" is read a second time
 * behind the 20-byte v6 header ("Nettrace", u32 0, u32 6, u32 0), so
 * that random bytes reach the block parser and not only kind detection.
 *
 * The writers' options come from a checksum of the input (the byte sum
 * and the size), so that a single-byte mutation also changes them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create(), when built without config.h */
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "Nettrace", reserved 0, major 6, minor 0. */
static const uint8_t v6_header[20] = {
	'N', 'e', 't', 't', 'r', 'a', 'c', 'e',
	0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0,
};

#include "fuzz-touch.h"

/* One reading of the input in @fd with reader flags @rflags. */
static void read_input(int fd, int devnull, unsigned int rflags, uint32_t sel)
{
	struct ehd_writer *jw = NULL, *tw = NULL, *nw = NULL;
	struct ehd_reader_stats stats;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_enum *en;
	uint64_t off;
	int err, n = 0;

	r = ehd_reader_new(rflags);
	en = ehd_enum_new();
	if (!r || !en)
		goto out;
	jw = ehd_writer_new(EHD_OUT_JSONL, devnull,
			    sel & (EHD_WRITER_SPACE | EHD_WRITER_FIELD_TAGS),
			    (sel >> 2) & 1 ? EHD_META_ALL : EHD_META_DEFAULT);
	tw = ehd_writer_new(EHD_OUT_TEXT, devnull,
			    (sel >> 3) & EHD_WRITER_FIELD_TAGS,
			    (sel >> 4) & 1 ? EHD_META_DEFAULT : EHD_META_ALL);
	if (!(rflags & EHD_READER_STRICT))
		nw = ehd_writer_new(EHD_OUT_NETTRACE, devnull, 0, 0);
	if (!jw || !tw)
		goto out;

	err = ehd_reader_open_fd(r, fd, "fuzz");
	sink ^= (uint8_t)ehd_reader_kind(r);
	touch_trace_info(ehd_reader_trace_info(r));
	ehd_writer_begin(jw, "fuzz");
	ehd_writer_begin(tw, "fuzz");
	if (nw)
		ehd_writer_begin_trace(nw, "fuzz", ehd_reader_trace_info(r));
	while (!err && n++ < MAX_EVENTS && (err = ehd_reader_next(r, &ev)) > 0) {
		touch_event(ev);
		touch_fields(en, ev, 0);
		touch_fields(en, ev, EHD_FIELDS_COMMON);
		touch_write(jw, ev);
		touch_write(tw, ev);
		touch_write(nw, ev);
		if (n <= 16)	/* stacks by the file's own mappings */
			touch_frames(ev);
		if (!(n & 1023))
			ehd_reader_stats(r, &stats);
		err = 0;
	}
	if (err < 0)
		touch_str(ehd_reader_error(r, &off));
	touch_trace_info(ehd_reader_trace_info(r));
	ehd_reader_stats(r, &stats);
	sink ^= (uint8_t)(stats.events ^ stats.records ^ stats.lost ^
			  stats.lost_records ^ stats.not_eventheader ^
			  stats.unknown_id ^ stats.early_flushes);
out:
	/* The writers end before the reader goes: events point into it. */
	fuzz_end_writer(jw, NULL);
	fuzz_end_writer(tw, NULL);
	fuzz_end_writer(nw, NULL);
	ehd_enum_free(en);
	ehd_reader_free(r);
}

static void read_both(int fd, int devnull, uint32_t sel)
{
	read_input(fd, devnull, 0, sel);
	read_input(fd, devnull, EHD_READER_STRICT, sel >> 5);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t sel = fuzz_sel(data, size);
	int devnull = fuzz_devnull(), fd;

	if (devnull < 0)
		return 0;

	fd = fuzz_input(NULL, 0, data, size);
	if (fd >= 0) {
		read_both(fd, devnull, sel);
		close(fd);
	}
	if (size >= 8 && !memcmp(data, v6_header, 8))
		return 0;
	fd = fuzz_input(v6_header, sizeof(v6_header), data, size);
	if (fd >= 0) {
		read_both(fd, devnull, sel >> 10);
		close(fd);
	}
	return 0;
}
