// SPDX-License-Identifier: MIT
/*
 * fuzz-reader.c - libFuzzer target: the public reader (ehd_reader_*) on
 * arbitrary bytes, read from a memfd as a file (perf.data normal or pipe
 * mode, compressed or not, or an interceptor capture: the kind comes from
 * the first bytes), every event written to /dev/null by a writer and its
 * fields walked with a fresh enumerator. Errors are fine; crashes,
 * memory errors and undefined behaviour are not.
 *
 * The input is given to the reader unchanged. The options come from a
 * checksum of it (the byte sum and the size), so that a single-byte
 * mutation of a whole file also changes them: time sorting on or off,
 * the output format (JSON, JSON lines, text), meta (default or all),
 * writer flags and whether classic common_* fields are enumerated.
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

#include "fuzz-touch.h"

/* The fields of one event, with a new enumerator each time. */
static void walk_fields(const struct ehd_event *ev, unsigned int flags)
{
	struct ehd_enum *en = ehd_enum_new();

	if (!en)
		return;
	touch_fields(en, ev, flags);
	ehd_enum_free(en);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int formats[] = { EHD_OUT_JSON, EHD_OUT_JSONL, EHD_OUT_TEXT };
	struct ehd_reader_stats stats;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_writer *w;
	uint32_t sel = fuzz_sel(data, size);
	unsigned int fields_flags;
	uint64_t off;
	int devnull = fuzz_devnull(), fd, err, n = 0;

	if (devnull < 0)
		return 0;
	fd = fuzz_input(NULL, 0, data, size);
	if (fd < 0)
		return 0;

	r = ehd_reader_new((sel & 1 ? EHD_READER_SORT_TIME : 0) |
			   ((sel >> 8) & 1 ? EHD_READER_SYSTEM : 0));
	w = ehd_writer_new(formats[(sel >> 1) % 3], devnull,
			   (sel >> 3) & (EHD_WRITER_SPACE | EHD_WRITER_FIELD_TAGS |
					 EHD_WRITER_BOM),
			   (sel >> 6) & 1 ? EHD_META_ALL : EHD_META_DEFAULT);
	fields_flags = (sel >> 7) & 1 ? EHD_FIELDS_COMMON : 0;
	if (!r || !w)
		goto out;

	err = ehd_reader_open_fd(r, fd, "fuzz");
	sink ^= (uint8_t)ehd_reader_kind(r);
	touch_trace_info(ehd_reader_trace_info(r));
	ehd_writer_begin(w, "fuzz");
	while (!err && n++ < MAX_EVENTS && (err = ehd_reader_next(r, &ev)) > 0) {
		touch_event(ev);
		if (ehd_writer_event(w, ev) < 0)
			touch_str(ehd_writer_error(w, &off));
		walk_fields(ev, fields_flags);
		if (n <= 4)	/* a first kernel frame loads kallsyms: slow */
			touch_frames(ev);
		if (!(n & 1023))
			ehd_reader_stats(r, &stats);
		err = 0;
	}
	if (err < 0)
		touch_str(ehd_reader_error(r, &off));
	ehd_writer_end(w);
	ehd_writer_close(w);
	touch_trace_info(ehd_reader_trace_info(r));
	ehd_reader_stats(r, &stats);
	sink ^= (uint8_t)(stats.events ^ stats.records ^ stats.lost ^
			  stats.lost_records ^ stats.not_eventheader ^
			  stats.unknown_id ^ stats.early_flushes);
out:
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(fd);
	return 0;
}
