/* SPDX-License-Identifier: MIT */
/*
 * fuzz-touch.h - what the fuzz targets share: every byte the
 * library hands out is read, so that ASan sees a bad pointer or length
 * there and not only in the library's own use of it; and how they feed
 * and drain the library. Included by one file of each target (memfd_create()
 * wants _GNU_SOURCE defined before the first include).
 */
#ifndef EHD_FUZZ_TOUCH_H
#define EHD_FUZZ_TOUCH_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

/* Events read from one input, at the most. */
#define MAX_EVENTS 100000

/*
 * An input may be a perf.data file: libtraceevent 1.7 leaks what it
 * allocated for formats it then fails to parse, and what sscanf("%ms")
 * allocated for a kallsyms line it then rejects. Not ours to fix, so
 * LeakSanitizer is told to ignore them; the stack of the second ends in
 * glibc's sscanf (no frame pointers to go further), and libehdecode
 * does not use "%m".
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\nleak:__isoc99_vsscanf\n";
}

static volatile uint8_t sink;

static inline void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t x = 0;
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n; i++)
		x ^= b[i];
	sink ^= x;
}

static inline void touch_str(const char *s)
{
	if (s)
		touch(s, strlen(s) + 1);
}

static inline void touch_info(const struct ehd_event_info *info)
{
	if (!info)
		return;
	touch(info->tracepoint, info->tracepoint_len);
	touch_str(info->name);
	touch(info->activity_id, 16);
	touch(info->related_id, 16);
}

static inline void touch_trace_info(const struct ehd_trace_info *ti)
{
	if (!ti)
		return;
	touch_str(ti->hostname);
	touch_str(ti->osrelease);
	touch_str(ti->arch);
	touch_str(ti->cpu_desc);
	touch_str(ti->perf_version);
	touch_str(ti->cmdline);
	sink ^= (uint8_t)(ti->nr_cpus_online ^ ti->nr_cpus_avail ^
			  (uint32_t)ti->clockid ^ ti->clock_offset ^
			  ti->long_size ^ ti->page_size ^ ti->format_version ^
			  ti->cpu_sample_period);
}

static inline void touch_event(const struct ehd_event *ev)
{
	touch(ev->provider, ev->provider_len);
	touch(ev->name, ev->name_len);
	touch(ev->tracepoint, ev->tracepoint_len);
	touch_info(ev->eh);
	touch(ev->activity_id, 16);
	touch(ev->related_id, 16);
	if (ev->context & EHD_CTX_CALLCHAIN)
		touch(ev->callchain, ev->callchain_count * sizeof(uint64_t));
	touch(ev->data, ev->size);
	touch(ev->record, ev->record_size);
	if (ev->decode_error)
		touch_str(ev->decode_reason);
}

/* The first frames of @ev's stack, named as its reader can. */
static inline void touch_frames(const struct ehd_event *ev)
{
	struct ehd_frame f[8];
	int k = ehd_event_frames(ev, f, 8);

	while (k-- > 0)
		sink ^= (uint8_t)(f[k].offset ^ f[k].symbol_offset ^ f[k].kind ^
				  (f[k].symbol ? f[k].symbol[0] : 0) ^
				  (f[k].module ? f[k].module[0] : 0));
}

/* The fields of one event, with the reader's enumerator @en reused. */
static inline void touch_fields(struct ehd_enum *en,
				const struct ehd_event *ev, unsigned int flags)
{
	uint64_t off;
	int st;

	if (ehd_event_fields(ev, en, flags) == 0) {
		touch_info(ehd_enum_event(en));
		while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
			const struct ehd_item *it = ehd_enum_item(en);

			if (it) {
				touch_str(it->name);
				touch(it->value, it->value_size);
			}
		}
		if (st == EHD_STATE_AFTER_LAST)
			sink ^= (uint8_t)ehd_enum_trailing(en);
		else
			touch_str(ehd_enum_error(en, &off));
	} else {
		touch_str(ehd_enum_error(en, &off));
	}
}

/* Write @ev with @w (may be NULL), touching the reason of a failure. */
static inline void touch_write(struct ehd_writer *w, const struct ehd_event *ev)
{
	uint64_t off;

	if (w && ehd_writer_event(w, ev) < 0)
		touch_str(ehd_writer_error(w, &off));
}

/* End and free @w (may be NULL); @st (may be NULL) gets its counts. */
static inline int fuzz_end_writer(struct ehd_writer *w,
				  struct ehd_writer_stats *st)
{
	struct ehd_writer_stats ws;
	int err;

	if (!w)
		return 0;
	ehd_writer_end(w);
	err = ehd_writer_close(w);
	ehd_writer_stats(w, &ws);
	sink ^= (uint8_t)(ws.events ^ ws.bytes ^ ws.skipped ^ ws.metadata ^
			  ws.unmatched ^ ws.unfinished ^ ws.untimed);
	if (st)
		*st = ws;
	ehd_writer_free(w);
	return err;
}

/* /dev/null for the writers' output, opened once; -1 if it cannot be. */
static inline int fuzz_devnull(void)
{
	static int fd = -2;

	if (fd == -2)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return fd;
}

/*
 * The options of a run, from a checksum of its input (the byte sum and
 * the size), so that a single-byte mutation of a whole file also changes
 * them.
 */
static inline uint32_t fuzz_sel(const uint8_t *data, size_t size)
{
	uint32_t sel = (uint32_t)size;
	size_t i;

	for (i = 0; i < size; i++)
		sel += data[i];
	sel *= 0x9e3779b1u;
	return sel ^ sel >> 15;
}

static inline int fuzz_put_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* A memfd holding @pre then @data (the reader's input), or -1. */
static inline int fuzz_input(const uint8_t *pre, size_t npre,
			     const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fuzz_put_all(fd, pre, npre) || fuzz_put_all(fd, data, size)) {
		close(fd);
		return -1;
	}
	return fd;
}

#endif /* EHD_FUZZ_TOUCH_H */
