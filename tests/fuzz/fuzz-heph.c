// SPDX-License-Identifier: MIT
/*
 * fuzz-heph.c - libFuzzer target: the Heph trace reader through the
 * public API, on arbitrary bytes read from a memfd as a file. Every
 * event's fields are walked, and every event is written by a JSON lines
 * writer, a text writer and a nettrace writer (which refuses them) to
 * /dev/null, and by a Heph writer to a second memfd.
 *
 * What the Heph writer wrote is then read back and must read without an
 * error, giving as many events as it wrote: a property, not only "no
 * crash" (a failure is reported with __builtin_trap()).
 *
 * An input that does not start with a Heph packet's magic is also read
 * as the body of one event packet (behind its magic and size), so that
 * random bytes reach the attribute parser and not only kind detection.
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

/*
 * Read @fd; events go to the writers. With @heph_out >= 0 they are also
 * written there as a Heph trace; returns how many packets that holds,
 * -1 if the Heph writer failed.
 */
static long read_input(int fd, int devnull, int heph_out, long *events,
		       int *read_err)
{
	struct ehd_writer *jw = NULL, *tw = NULL, *nw = NULL, *hw = NULL;
	struct ehd_writer_stats st = { 0 };
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct ehd_enum *en;
	uint64_t off;
	long n = 0, packets = -1;
	int err;

	r = ehd_reader_new(0);
	en = ehd_enum_new();
	jw = ehd_writer_new(EHD_OUT_JSONL, devnull, 0, EHD_META_ALL);
	tw = ehd_writer_new(EHD_OUT_TEXT, devnull, 0, EHD_META_DEFAULT);
	nw = ehd_writer_new(EHD_OUT_NETTRACE, devnull, 0, 0);
	if (heph_out >= 0)
		hw = ehd_writer_new(EHD_OUT_HEPH, heph_out, 0, 0);
	if (!r || !en || !jw || !tw || !nw || (heph_out >= 0 && !hw)) {
		*read_err = -1;
		goto out;
	}
	err = ehd_reader_open_fd(r, fd, "fuzz");
	sink ^= (uint8_t)ehd_reader_kind(r);
	ehd_writer_begin(jw, "fuzz");
	ehd_writer_begin(tw, "fuzz");
	ehd_writer_begin_trace(nw, "fuzz", ehd_reader_trace_info(r));
	if (hw)
		ehd_writer_begin(hw, "fuzz");
	while (!err && n < MAX_EVENTS && (err = ehd_reader_next(r, &ev)) > 0) {
		n++;
		touch_event(ev);
		touch_fields(en, ev, 0);
		touch_write(jw, ev);
		touch_write(tw, ev);
		touch_write(nw, ev);
		/* Damaged events are written as they are; a failed output
		 * (ehd_writer_error() NULL) ends the check. */
		if (hw && ehd_writer_event(hw, ev) < 0 &&
		    !ehd_writer_error(hw, &off))
			goto out;
		err = 0;
	}
	if (err < 0)
		touch_str(ehd_reader_error(r, &off));
	*read_err = err < 0 ? err : 0;
	touch_trace_info(ehd_reader_trace_info(r));
	if (hw) {
		fuzz_end_writer(hw, &st);
		hw = NULL;
		packets = (long)st.events;
	}
out:
	*events = n;
	fuzz_end_writer(jw, &st);
	fuzz_end_writer(tw, &st);
	fuzz_end_writer(nw, &st);
	fuzz_end_writer(hw, &st);
	ehd_enum_free(en);
	ehd_reader_free(r);
	return packets;
}

/* Read @fd; a Heph trace's events, written as Heph, must read back. */
static void read_both(int fd, int devnull)
{
	long events, packets, again;
	int out = memfd_create("fuzz-heph-out", MFD_CLOEXEC), err;

	if (out < 0)
		return;
	packets = read_input(fd, devnull, out, &events, &err);
	if (packets >= 0) {
		long unused = read_input(out, devnull, -1, &again, &err);

		(void)unused;
		/* Our own output reads whole: same number of events. */
		if (packets > 0 && (err || again != packets))
			__builtin_trap();
	}
	close(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t head[8] = { 0xC1, 0xFC, 0x1F, 0xB7 };
	uint64_t total = (uint64_t)size + 8;
	int devnull = fuzz_devnull(), fd;

	if (devnull < 0)
		return 0;

	fd = fuzz_input(NULL, 0, data, size);
	if (fd >= 0) {
		read_both(fd, devnull);
		close(fd);
	}
	if ((size >= 4 && (!memcmp(data, "\x75\xD1\x1D\x4D", 4) ||
			   !memcmp(data, "\xC1\xFC\x1F\xB7", 4))) ||
	    total > UINT32_MAX)
		return 0;
	/* The input as one event packet's body (stream id onwards). */
	head[4] = (uint8_t)(total >> 24);
	head[5] = (uint8_t)(total >> 16);
	head[6] = (uint8_t)(total >> 8);
	head[7] = (uint8_t)total;
	fd = fuzz_input(head, sizeof(head), data, size);
	if (fd >= 0) {
		read_both(fd, devnull);
		close(fd);
	}
	return 0;
}
